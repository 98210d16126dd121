"""The learned value network: weights, their file format, and numpy-only inference.

A small multilayer perceptron maps a position's sparse features (:mod:`.features`) to the
chance that each side wins, seen from an observing seat: ``tanh`` hidden units plus a
linear part straight from the features, then a softmax over the sides, the observer's side
first (2 sides in team games, in the order observer's team, other team; 4 under
``teams=individual``, in relative-seat order).

Weights are stored per ruleset as ``.npz`` files (``float32``) with their training
record (the command, seed, games and time) in ``meta``, a JSON string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from pachisi.ai.learned.features import F_GREEDY, FEATURES

__all__ = ["Net", "Weights", "WeightsError"]

Floats = npt.NDArray[np.float64]
Weights = tuple[Floats, Floats, Floats, Floats, Floats]
"""The network as the compiled players take it: w1, b1, w2, b2, w3 (:meth:`Net.weights`)."""


class WeightsError(ValueError):
    """A weights file that is missing, unreadable or of the wrong shape."""


@dataclass
class Net:
    """Weights of the value network (float64 in memory, whatever they were stored as)."""

    w1: Floats
    """(FEATURES, hidden): input to hidden."""
    b1: Floats
    w2: Floats
    """(hidden, sides): hidden to the sides' logits."""
    b2: Floats
    w3: Floats
    """(FEATURES, sides): features straight to the logits (the linear part)."""
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def sides(self) -> int:
        return int(self.b2.shape[0])

    @property
    def hidden(self) -> int:
        return int(self.b1.shape[0])

    @classmethod
    def initial(cls, sides: int, hidden: int, seed: int) -> Net:
        """Weights to start training from: the linear part is ``greedy``'s calibrated
        score (its side's against the others'), the hidden units small and random but not
        yet connected to the output (whose noise would swamp the small differences
        between one action's result and another's)."""
        rng = np.random.default_rng(seed)
        w3 = np.zeros((FEATURES, sides))
        for r in range(sides):
            # Teams: the observer's side against the next seat's (an enemy's) score.
            w3[F_GREEDY + r, r] = 1.0 if sides == 4 else 0.5
        return cls(
            w1=rng.normal(0.0, 0.1, (FEATURES, hidden)),
            b1=np.zeros(hidden),
            w2=np.zeros((hidden, sides)),
            b2=np.zeros(sides),
            w3=w3,
        )

    def weights(self) -> Weights:
        """The arrays themselves (not copies), in the compiled players' order: training
        updates them in place."""
        return (self.w1, self.b1, self.w2, self.b2, self.w3)

    def copy(self) -> Net:
        return Net(
            self.w1.copy(),
            self.b1.copy(),
            self.w2.copy(),
            self.b2.copy(),
            self.w3.copy(),
            dict(self.meta),
        )

    def probabilities(
        self, idx: npt.NDArray[np.int32], val: npt.NDArray[np.float64], n: int
    ) -> Floats:
        """The sides' chances of winning for one position's ``n`` active features."""
        h = np.tanh(self.b1 + val[:n] @ self.w1[idx[:n]])
        z = h @ self.w2 + self.b2 + val[:n] @ self.w3[idx[:n]]
        z -= z.max()
        e = np.exp(z)
        result: Floats = e / e.sum()
        return result

    def save(self, path: Path) -> None:
        np.savez_compressed(
            path,
            w1=self.w1.astype(np.float32),
            b1=self.b1.astype(np.float32),
            w2=self.w2.astype(np.float32),
            b2=self.b2.astype(np.float32),
            w3=self.w3.astype(np.float32),
            meta=np.array(json.dumps(self.meta, sort_keys=True)),
        )

    @classmethod
    def load(cls, path: Path) -> Net:
        """The weights in ``path``; :class:`WeightsError` if they cannot be used."""
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = [
                    np.asarray(data[k], dtype=np.float64) for k in ("w1", "b1", "w2", "b2", "w3")
                ]
                meta = json.loads(str(data["meta"]))
        except (OSError, KeyError, ValueError) as exc:
            raise WeightsError(f"cannot read learned weights {path}: {exc}") from exc
        w1, b1, w2, b2, w3 = arrays
        hidden = b1.shape[0] if b1.ndim == 1 else -1
        if (
            w1.shape != (FEATURES, hidden)
            or w2.ndim != 2
            or w2.shape[0] != hidden
            or b2.shape != (w2.shape[1],)
            or w2.shape[1] not in (2, 4)
            or w3.shape != (FEATURES, w2.shape[1])
        ):
            raise WeightsError(f"learned weights {path} have the wrong shapes")
        if not all(np.isfinite(a).all() for a in arrays):
            raise WeightsError(f"learned weights {path} are not finite")
        return cls(w1, b1, w2, b2, w3, meta if isinstance(meta, dict) else {})
