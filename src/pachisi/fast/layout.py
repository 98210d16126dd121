"""The compiled engine's game state: one row of ``int32`` per game.

A reference :class:`~pachisi.rules.state.State` holds the same facts in Python objects;
here they are numbers at fixed offsets, so that a batch of games is a 2-D array
``(games, STATE_SIZE)`` that compiled kernels read and write in place. Fields (offsets are
the constants below):

=============  =====  ===========================================================
field          slots  meaning (as in State)
=============  =====  ===========================================================
``POS``        16     progress of each piece, 4 * seat + index: 0 waiting .. 84 home
``STAGE``      1      :class:`~pachisi.rules.state.Stage` value
``SEAT``       1      the seat whose turn it is (or who throws in the throw-off)
``TURN``       1      turn number
``ORDER``      16     pieces on the board bottom to top, ``top_one`` only (C.11)
``ORDER_LEN``  1      how many of ``ORDER`` are used
``LAPS``       1      bitmask of pieces on a second lap (V-EXTRA-LAP)
``ENTERED``    1      bitmask of seats that have brought a piece out
``KILLS``      4      kill credits per seat
``REC_LEN``    1      capture records in use (V-RECAPTURE-ANNUL)
``RECS``       80     16 records of 5: capturer, pieces mask, square, victims mask, turn
``THROW_K``    1      mouths up of the throw being used, -1 if none
``AGAIN``      1      the pending throw gives another throw
``CAPTURED``   1      a capture happened with this throw / in this spending phase
``PYADAS``     1      pyadas earned and not yet used
``RUN_KEY``    1      triple-cancel run: class (or value under ``same``)
``RUN_LEN``    1      and its length
``SPLIT_*``    3      steps left, value, and pieces used of a throw being split
``FLAGS``      1      collect mode phase flags
``THROWOFF``   4      throw-off values: -1 to throw, -2 out, else the value thrown
``WINNER``     1      -1 going on, -2 draw, else team (or seat)
``ITEMS_LEN``  1      collected throws in use (collect mode)
``ITEMS``      128    collected throws, as values
``OVERFLOW``   1      1 + k if a throw of k mouths up found ``ITEMS`` full: the
                      throw was not applied, the row is as it was before it
``SETTLED``    1      1 once R-FROZEN is known not to hold for the row's board
                      (derived, as the reference's ``Memo``; 0 = not known)
=============  =====  ===========================================================
"""

from __future__ import annotations

from typing import Final

POS: Final = 0
STAGE: Final = 16
SEAT: Final = 17
TURN: Final = 18
ORDER: Final = 19
ORDER_LEN: Final = 35
LAPS: Final = 36
ENTERED: Final = 37
KILLS: Final = 38
REC_LEN: Final = 42
RECS: Final = 43
MAX_RECORDS: Final = 16
REC_FIELDS: Final = 5
THROW_K: Final = RECS + MAX_RECORDS * REC_FIELDS
AGAIN: Final = THROW_K + 1
CAPTURED: Final = THROW_K + 2
PYADAS: Final = THROW_K + 3
RUN_KEY: Final = THROW_K + 4
RUN_LEN: Final = THROW_K + 5
SPLIT_LEFT: Final = THROW_K + 6
SPLIT_VALUE: Final = THROW_K + 7
SPLIT_USED: Final = THROW_K + 8
FLAGS: Final = THROW_K + 9
THROWOFF: Final = THROW_K + 10
WINNER: Final = THROWOFF + 4
ITEMS_LEN: Final = WINNER + 1
ITEMS: Final = ITEMS_LEN + 1
MAX_ITEMS: Final = 128
OVERFLOW: Final = ITEMS + MAX_ITEMS
SETTLED: Final = OVERFLOW + 1
STATE_SIZE: Final = SETTLED + 1

# Stage values, as pachisi.rules.state.Stage.
THROW_OFF_STAGE: Final = 0
THROW_STAGE: Final = 1
ACT_STAGE: Final = 2
PYADA_STAGE: Final = 3
SPEND_STAGE: Final = 4
OVER_STAGE: Final = 5

NO_WINNER: Final = -1
DRAW: Final = -2
