"""The Python face of the compiled players (``_compiled.pyx``, ``kernels/api.pxi``).

Arrays are C-contiguous numpy arrays of the dtype named; a wrong size is a
:class:`ValueError`. Every function releases the GIL while it computes.
"""

from typing import Final

import numpy as np
import numpy.typing as npt

_Ints = npt.NDArray[np.int32]
_Longs = npt.NDArray[np.int64]
_Floats = npt.NDArray[np.float64]
_Weights = tuple[_Floats, _Floats, _Floats, _Floats, _Floats]

MAX_ACTIONS: Final[int]
MAX_DEPTH: Final[int]
OK: Final[int]
OUT_OF_BUDGET: Final[int]
OVERFLOWED: Final[int]
FEATURES: Final[int]
MAX_ACTIVE: Final[int]
LEARNED_BOT: Final[int]
BOTS: Final[dict[str, int]]

def encode(
    st: _Ints,
    params: _Ints,
    hit: _Floats,
    o: int,
    blocked: int,
    greedy: _Floats,
    idx: _Ints,
    val: _Floats,
) -> int: ...
def forward(idx: _Ints, val: _Floats, n: int, net: _Weights, h: _Floats, out: _Floats) -> None: ...
def blocked_seats(st: _Ints, params: _Ints) -> int: ...
def greedy_scores(
    st: _Ints, params: _Ints, weights: _Floats, hit: _Floats, out: _Floats
) -> None: ...
def to_absolute(params: _Ints, o: int, rel: _Floats, out: _Floats) -> None: ...
def search_root(
    root: _Ints,
    params: _Ints,
    hit: _Floats,
    greedy: _Floats,
    net: _Weights,
    ks: _Ints,
    ps: _Floats,
    depth: int,
    limit: int,
    count: _Longs,
    values: _Floats,
) -> int: ...
def train_games(
    start: _Ints,
    params: _Ints,
    p: float,
    hit: _Floats,
    greedy_weights: _Floats,
    bots: _Ints,
    net: _Weights,
    seed: int,
    first_game: int,
    games: int,
    lam: float,
    alpha: float,
    eps: float,
    max_steps: int,
    stats: _Longs,
) -> None: ...
def match_games(
    start: _Ints,
    params: _Ints,
    p: float,
    hit: _Floats,
    greedy_weights: _Floats,
    bots: _Ints,
    net: _Weights,
    seed: int,
    first_game: int,
    games: int,
    max_steps: int,
    winners: _Ints,
) -> None: ...
