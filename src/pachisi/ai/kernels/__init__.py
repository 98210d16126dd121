"""Compiled search for the computer players: the searches that run on the compiled engine
(:mod:`pachisi.fast`) so that they can look deeper in the same time. Each kernel mirrors a
reference search in :mod:`pachisi.ai` and is proven to give its answers by differential
tests; the players that use them are in :mod:`pachisi.ai.compiled_expectimax`."""
