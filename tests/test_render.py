"""Tests for the text board renderer (pachisi.render)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pachisi.render import WIDTH, render_board
from pachisi.rules.board import CASTLES, COORDS, NUM_SQUARES, parse_square, square_of

ANSI = re.compile(r"\x1b\[[0-9;]*m")
FILES = "abcdefghijklmnopqrs"


def board_lines(text: str) -> dict[int, str]:
    """The board rows of the output, keyed by rank number 1..19 as printed on the left."""
    rows: dict[int, str] = {}
    for line in text.splitlines():
        match = re.match(r"\s?(\d{1,2})\s", line)
        if match and len(rows) < 19:
            rows[int(match.group(1))] = line
    assert sorted(rows) == list(range(1, 20))
    return rows


def file_columns(text: str) -> dict[str, int]:
    """Column of each file letter in the line that labels the files."""
    line = next(ln for ln in text.splitlines() if ln.split()[:3] == ["a", "b", "c"])
    return {f: line.index(f" {f} ") + 1 for f in FILES}


def cell_at(text: str, name: str) -> str:
    """The 3 characters drawn for the square called ``name``: file column -1 .. +1."""
    column = file_columns(text)[name[0]]
    row = board_lines(text)[int(name[1:])]
    return row[column - 1 : column + 2]


def cell_at_xy(text: str, x: int, y: int) -> str:
    return cell_at(text, f"{FILES[x]}{y + 1}")


def test_plain_output_is_ascii_without_ansi() -> None:
    text = render_board({9: ["0a"]}, charkoni=["1a", "2b"], highlight={9, 10})
    assert text.isascii()
    assert "\x1b" not in text


def test_color_output_has_ansi_and_same_layout() -> None:
    args = {9: ["0a"], 17: ["1a", "1b"], 40: ["2c"], 0: ["3d"]}
    plain = render_board(args, charkoni=["0b"], highlight={9, 12})
    colored = render_board(args, charkoni=["0b"], highlight={9, 12}, color=True)
    assert "\x1b[" in colored
    assert ANSI.sub("", colored) == plain


@pytest.mark.parametrize("color", [False, True])
def test_all_lines_have_the_same_width(color: bool) -> None:
    text = render_board(
        {sq: [f"{sq % 4}a"] * (1 + sq % 3) for sq in range(0, NUM_SQUARES, 5)},
        charkoni=[f"{s}{p}" for s in range(4) for p in "abcd"] * 4,
        highlight=range(0, NUM_SQUARES, 3),
        color=color,
    )
    widths = {len(ANSI.sub("", line)) for line in text.splitlines()}
    assert widths == {WIDTH}
    assert WIDTH <= 79


def test_empty_board_castles_and_squares() -> None:
    text = render_board({})
    for square, (x, y) in enumerate(COORDS):
        expected = " X " if square in CASTLES else " . "
        assert cell_at_xy(text, x, y) == expected, (x, y)
    rows = board_lines(text)
    assert sum(row.count(" X ") for row in rows.values()) == 12


def test_castles_named_in_a5_show_as_castles() -> None:
    text = render_board({})
    for name in ["j1", "i4", "k4", "s10", "p9", "p11", "j19", "i16", "k16", "a10", "d9", "d11"]:
        assert cell_at(text, name) == " X "


def test_non_squares_are_blank_apart_from_tags() -> None:
    text = render_board({})
    squares = set(COORDS)
    tags = {(11, 0): "S=0", (18, 11): "E=1", (7, 18): "N=2", (0, 7): "W=3"}
    for x in range(19):
        for y in range(19):
            if (x, y) not in squares:
                assert cell_at_xy(text, x, y) == tags.get((x, y), "   "), (x, y)


@pytest.mark.parametrize(
    ("seat", "p", "name"),
    [(0, 1, "j8"), (0, 8, "j1"), (0, 25, "s10"), (1, 1, "l10"), (2, 1, "j12"), (3, 1, "h10")],
)
def test_piece_at_known_square(seat: int, p: int, name: str) -> None:
    label = f"{seat}a"
    text = render_board({square_of(seat, p): [label]})
    assert cell_at(text, name) == f"{label} "
    # It appears nowhere else on the board.
    assert sum(row.count(label) for row in board_lines(text).values()) == 1


def test_seat0_square1_is_j8() -> None:
    text = render_board({square_of(0, 1): ["0a"]})
    assert square_of(0, 1) == parse_square("j8")
    row = board_lines(text)[8]
    column = file_columns(text)["j"]
    assert row[column - 1 : column + 1] == "0a"


def test_piece_on_castle_replaces_the_mark() -> None:
    text = render_board({parse_square("j1"): ["1c"]})
    assert cell_at(text, "j1") == "1c "


def test_stack_shows_top_label_and_height() -> None:
    sq = parse_square("p9")
    text = render_board({sq: ["0a", "0b", "2c"]})
    assert cell_at(text, "p9") == "2c3"
    text = render_board({sq: ["1a"] * 12})
    assert cell_at(text, "p9") == "1a+"
    text = render_board({sq: ["0a", "0b"]})
    assert cell_at(text, "p9") == "0b2"


def test_one_character_label() -> None:
    assert cell_at(render_board({9: ["A"]}), "j8") == "A  "


def test_empty_stack_is_an_empty_square() -> None:
    assert cell_at(render_board({9: []}), "j8") == " . "


def test_highlight_brackets() -> None:
    text = render_board({}, highlight={parse_square("j4")})
    row = board_lines(text)[4]
    column = file_columns(text)["j"]
    assert row[column - 2 : column + 3] == "[ . ]"
    plain = board_lines(render_board({}))[4]
    assert plain[column - 2 : column + 3] == "  .  "


def test_adjacent_highlights_share_a_bracket() -> None:
    squares = {parse_square(n) for n in ("i8", "j8", "k8")}
    text = render_board({parse_square("j8"): ["0a"]}, highlight=squares)
    row = board_lines(text)[8]
    column = file_columns(text)["i"]
    assert row[column - 2 : column + 11] == "[ . |0a | . ]"


def test_charkoni_counts_and_listing() -> None:
    labels = ["0a", "0b", "1c", "3a", "3b", "3c"]
    text = render_board({}, charkoni=labels)
    assert cell_at_xy(text, 9, 8) == "(2)"  # South side: seat 0
    assert cell_at_xy(text, 10, 9) == "(1)"  # East side: seat 1
    assert cell_at_xy(text, 9, 10) == "   "  # North side: seat 2 has none
    assert cell_at_xy(text, 8, 9) == "(3)"  # West side: seat 3
    listing = [ln for ln in text.splitlines() if ln.startswith("Charkoni:")]
    assert listing == [("Charkoni: " + " ".join(labels)).ljust(WIDTH)]


def test_charkoni_count_of_10_or_more() -> None:
    text = render_board({}, charkoni=["2x"] * 12)
    assert cell_at_xy(text, 9, 10) == "(+)"


def test_charkoni_empty() -> None:
    text = render_board({})
    for cell in [(8, 8), (9, 8), (10, 8), (8, 9), (9, 9), (10, 9), (8, 10), (9, 10), (10, 10)]:
        assert cell_at_xy(text, *cell) == "   "
    assert any(ln.rstrip() == "Charkoni: none" for ln in text.splitlines())


def test_long_charkoni_listing_wraps() -> None:
    labels = [f"{s}{p}:home" for s in range(4) for p in "abcd"]
    text = render_board({}, charkoni=labels)
    lines = text.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("Charkoni:"))
    listed = " ".join(ln.strip() for ln in lines[start:]).removeprefix("Charkoni: ")
    assert listed.split() == labels
    assert len(lines) - start > 1


def test_north_is_up() -> None:
    lines = render_board({}).splitlines()
    north = next(i for i, ln in enumerate(lines) if "N=2" in ln)
    south = next(i for i, ln in enumerate(lines) if "S=0" in ln)
    assert (north, south) == (0, 18)
    assert lines[0].startswith("19") and lines[18].startswith(" 1")


def test_rank_and_file_labels() -> None:
    text = render_board({})
    lines = text.splitlines()
    assert [int(ln[:2]) for ln in lines[:19]] == list(range(19, 0, -1))
    assert lines[19].split() == list(FILES)


def test_legend_is_appended() -> None:
    text = render_board({})
    tail = "\n".join(text.splitlines()[20:])
    for token in ("castle", "stack", "S=0", "E=1", "N=2", "W=3", "[..]"):
        assert token in tail


@pytest.mark.parametrize("square", [-1, 96, 200, True])
def test_rejects_unknown_square(square: int) -> None:
    with pytest.raises(ValueError, match="not a square"):
        render_board({square: ["0a"]})
    with pytest.raises(ValueError, match="not a square"):
        render_board({}, highlight={square})


@pytest.mark.parametrize("label", ["", "0ab", "0 ", "0\n", "0\x1b"])
def test_rejects_bad_piece_label(label: str) -> None:
    with pytest.raises(ValueError, match="label"):
        render_board({9: [label]})


def test_rejects_bare_strings() -> None:
    with pytest.raises(TypeError):
        render_board({9: "0a"})
    with pytest.raises(TypeError):
        render_board({}, charkoni="0a")


@given(
    st.dictionaries(
        st.integers(min_value=0, max_value=NUM_SQUARES - 1),
        st.lists(st.sampled_from(["0a", "1b", "2c", "3d"]), min_size=1, max_size=16),
        max_size=20,
    )
)
def test_every_stack_is_drawn_where_it_stands(stacks: dict[int, list[str]]) -> None:
    text = render_board(stacks)
    for square, labels in stacks.items():
        x, y = COORDS[square]
        height = len(labels)
        suffix = " " if height == 1 else (str(height) if height < 10 else "+")
        assert cell_at_xy(text, x, y) == labels[-1] + suffix
    assert {len(line) for line in text.splitlines()} == {WIDTH}
