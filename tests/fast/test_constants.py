"""The compiled sources' constants and board tables (``_constants.pxi``) are generated from
the Python layout, parameters and codes (pachisi.fast._gen): the file must be current."""

from __future__ import annotations

from pachisi.fast import _gen


def test_the_generated_constants_are_current() -> None:
    # Fails after an edit to pachisi.fast.layout, .params or .codes until
    # `python -m pachisi.fast._gen` has been run (the compiled core would disagree).
    assert _gen.TARGET.read_text(encoding="utf-8") == _gen.pxi_text()


def test_the_board_tables_are_c_arrays_of_the_python_tables() -> None:
    from pachisi.fast import params

    text = _gen.pxi_text()
    squares = params.SQUARES
    first_row = "{" + ", ".join(str(int(x)) for x in squares[0]) + "}"
    assert f"PACHISI_SQUARES[{squares.shape[0]}][{squares.shape[1]}]" in text
    assert first_row in text


def test_the_packed_decoding_of_every_action_unpacks_to_its_decoding() -> None:
    # The kernels' decode_listed reads pack_decoded's table with these shifts and masks.
    from pachisi.fast import codes

    for a in range(codes.NUM_ACTIONS):
        d = codes.pack_decoded(a)
        unpacked = (
            d & 7,
            ((d >> codes.DECODED_PIECE_SHIFT) & 7) - 1,
            ((d >> codes.DECODED_SLOT_SHIFT) & 15) - 1,
            (d >> codes.DECODED_SIZE_SHIFT) & 7,
            (d >> codes.DECODED_STEPS_SHIFT) & 63,
            bool((d >> codes.DECODED_PYADA_SHIFT) & 1),
        )
        assert unpacked == codes.decode(a), a
    text = _gen.pxi_text()
    assert f"PACHISI_DECODED[{codes.NUM_ACTIONS}]" in text
