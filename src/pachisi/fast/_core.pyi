"""The Python face of the compiled engine (``_core.pyx``, ``kernels/api.pxi``).

Arrays are C-contiguous numpy arrays of the dtype named; a wrong size is a
:class:`ValueError`. Every function releases the GIL while it computes. Callers outside
this package use :mod:`pachisi.fast.batch`; the compiled players
(:mod:`pachisi.ai.compiled_bots`, :mod:`pachisi.ai.playouts`) call the choosing and
playing kernels.
"""

from typing import Final

import numpy as np
import numpy.typing as npt

_Ints = npt.NDArray[np.int32]
_Bytes = npt.NDArray[np.int8]
_Words = npt.NDArray[np.uint32]
_Floats = npt.NDArray[np.float64]
_Singles = npt.NDArray[np.float32]

MAX_EVENTS: Final[int]
RANDOM: Final[int]
GREEDY: Final[int]
CHANCE: Final[int]
TERMINAL: Final[int]
KEEP: Final[int]
ACT: Final[int]
RENEW: Final[int]
MARKS: Final[int]
OBSERVATION_MARKS: Final[int]

class Scratch:
    """The buffers the kernels work in; one per thread."""

    def __init__(self) -> None: ...

def state_size() -> int: ...
def stream_bytes() -> int: ...
def legal_actions(st: _Ints, params: _Ints, scratch: Scratch) -> _Ints: ...
def apply_action(st: _Ints, params: _Ints, a: int, scratch: Scratch) -> _Ints: ...
def apply_chance(st: _Ints, params: _Ints, k: int, scratch: Scratch) -> _Ints: ...
def split_parts(
    st: _Ints,
    params: _Ints,
    v: int,
    left: int,
    first_only: bool,
    by_search: bool,
    scratch: Scratch,
) -> list[int] | None: ...
def observe_batch(rows: _Ints, params: _Ints, seats: _Ints, obs: _Singles) -> None: ...
def start_batch(
    rows: _Ints,
    params: _Ints,
    p: float,
    rngs: _Words,
    sample: bool,
    scratch: Scratch,
    masks: _Bytes,
    players: _Ints,
) -> None: ...
def step_batch(
    rows: _Ints,
    params: _Ints,
    p: float,
    actions: _Ints,
    active: _Bytes,
    rngs: _Words,
    sample: bool,
    scratch: Scratch,
    masks: _Bytes,
    players: _Ints,
    rewards: _Singles,
) -> None: ...
def throw_batch(
    rows: _Ints,
    params: _Ints,
    ks: _Ints,
    scratch: Scratch,
    masks: _Bytes,
    players: _Ints,
    rewards: _Singles,
) -> None: ...
def choose_batch(
    rows: _Ints,
    params: _Ints,
    weights: _Floats,
    hit: _Floats,
    bots: _Ints,
    rngs: _Words,
    players: _Ints,
    scratch: Scratch,
    actions: _Ints,
) -> None: ...
def play_many(
    rows: _Ints,
    params: _Ints,
    p: float,
    weights: _Floats,
    hit: _Floats,
    bots: _Ints,
    mt_throws: _Words,
    mt_choices: _Words,
    max_turns: int,
    max_steps: int,
    stats: _Ints,
) -> None: ...
def play_seeded(
    rows: _Ints,
    params: _Ints,
    p: float,
    weights: _Floats,
    hit: _Floats,
    bots: _Ints,
    seed: int,
    first: int,
    max_turns: int,
    max_steps: int,
    stats: _Ints,
    general: bool = False,
) -> None: ...
def specialization_of(params: _Ints) -> int: ...
def seed_generator(mt: _Words, seed: int) -> None: ...
def mix_seed(x: int) -> int: ...
def seed_generators_by_keys(mts: _Words, keys: _Words, lengths: npt.NDArray[np.int64]) -> None: ...
def advance_batch(
    rows: _Ints,
    params: _Ints,
    p: float,
    weights: _Floats,
    hit: _Floats,
    bots: _Ints,
    rngs: _Words,
    choice_rngs: _Words,
    sample: bool,
    scratch: Scratch,
    masks: _Bytes,
    players: _Ints,
    rewards: _Singles,
    steps: npt.NDArray[np.int64],
    max_steps: int,
    seat: int,
    gained: _Singles,
) -> None: ...
def first_illegal(masks: _Bytes, actions: npt.NDArray[np.int64], games: _Bytes) -> int: ...
def learner_step(
    rows: _Ints,
    params: _Ints,
    p: float,
    weights: _Floats,
    hit: _Floats,
    bots: _Ints,
    rngs: _Words,
    choice_rngs: _Words,
    scratch: Scratch,
    masks: _Bytes,
    marks: npt.NDArray[np.int16],
    players: _Ints,
    rewards: _Singles,
    steps: npt.NDArray[np.int64],
    max_steps: int,
    seat: int,
    modes: _Bytes,
    actions: _Ints,
    start: _Ints,
    seed: int,
    first: int,
    obs: _Singles | None,
    obs_marks: npt.NDArray[np.int16] | None,
    view: _Bytes | None,
    view_marks: npt.NDArray[np.int16] | None,
    gained: _Singles,
) -> bool: ...
