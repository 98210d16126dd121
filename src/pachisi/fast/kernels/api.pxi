# The engine's Python face: def functions over numpy arrays (typed memoryviews), each
# handing raw pointers to the C functions of the other parts.

def state_size():
    """The length of a state row (pachisi.fast.layout.STATE_SIZE)."""
    return STATE_SIZE
