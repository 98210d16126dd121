# The compiled players: the random and greedy players, the playout loops, the expectimax
# kernel, the learned player's encoder and network, and self-play. They call the engine
# through the C functions pachisi/fast/_core.pxd declares.

from pachisi.fast._core cimport i32, Events, Pool

def ready():
    """True: the compiled players are built."""
    return True
