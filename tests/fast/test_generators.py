"""The compiled engine's copies of Python's generators (pachisi.fast.generators): a text
seeds the same Mersenne Twister state in compiled code as ``random.Random(text)``, so the
fast engine's simulations throw what the reference engine's throw."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from pachisi.fast.generators import mt_random, mt_state, text_seeded
from pachisi.rules.cowries import game_rngs, game_seeds


def test_a_game_s_generators_seeded_from_their_texts_are_python_s() -> None:
    texts = [t for i in (0, 1, 7, 12345) for t in game_seeds(2**40 - 1, i)]
    states = text_seeded(texts)
    for state, text in zip(states, texts, strict=True):
        assert np.array_equal(state, mt_state(random.Random(text)))
    throws, bots = game_rngs(5, 3)
    seeded = text_seeded(list(game_seeds(5, 3)))
    assert mt_random(seeded[0]).random() == throws.random()
    assert mt_random(seeded[1]).getrandbits(32) == bots.getrandbits(32)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(max_size=300), min_size=1, max_size=9))
def test_any_text_seeds_what_random_seeds(texts: list[str]) -> None:
    for state, text in zip(text_seeded(texts), texts, strict=True):
        assert np.array_equal(state, mt_state(random.Random(text)))


def test_keys_longer_than_the_state_are_seeded_one_at_a_time_among_short_ones() -> None:
    # Generators are seeded four at a time while every key of the four fits in the
    # state's 624 words, so that the lanes keep step; a longer key (k = its length in
    # init_by_array) is seeded alone, wherever it falls among the others.
    long_text = "x" * 2_600  # 650 words of text and 16 of its hash
    for at in range(6):
        texts = [f"game {i}" for i in range(10)]
        texts.insert(at, long_text)
        states = text_seeded(texts)
        for state, text in zip(states, texts, strict=True):
            assert np.array_equal(state, mt_state(random.Random(text)))


def test_no_texts_no_states() -> None:
    assert text_seeded([]).shape == (0, 625)
