# The compiled engine: Pachisi at compiled speed, with exactly the reference semantics.
# One module built from the parts in engine/, included in dependency order, so that the C
# compiler sees (and can inline) all of it. Its Python face is engine/api.pxi; the
# constants come from _constants.pxi (pachisi.fast._gen), the types from _core.pxd.

include "engine/api.pxi"
