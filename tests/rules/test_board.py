"""Board geometry tests (RULES.md A, Appendix A, scenarios SC-01..SC-05).

Test names carry the rule or scenario id they check. Expected values are written out from
RULES.md rather than recomputed with the formulas board.py uses, so a wrong formula fails.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pachisi.rules.board import (
    CASTLES,
    COORDS,
    DIAGONAL_STEPS,
    HOME,
    IS_CASTLE,
    LAST_SQUARE,
    LOOP_END,
    LOOP_INDEX,
    LOOP_START,
    LUDII_ENTRY_PROGRESS,
    NUM_SQUARES,
    PRIVATE_SQUARES,
    SEAT_NAMES,
    SQUARE_OF,
    WAITING,
    cell_of_coord,
    convert_progress,
    coord,
    is_castle,
    loop_index,
    parse_square,
    partner,
    person_seats,
    progress_of_square,
    rotate,
    square_name,
    square_of,
)

SEATS = range(4)
ROUTE = range(1, HOME)  # p on a square: 1..83
LOOP = range(LOOP_START, LOOP_END + 1)  # p on the outer loop: 8..76
LUDII_JSON = Path(__file__).resolve().parents[1] / "data" / "ludii-pachisi-sites.json"

seats = st.integers(min_value=0, max_value=3)
loop_progress = st.integers(min_value=LOOP_START, max_value=LOOP_END)


def xy(seat: int, p: int) -> tuple[int, int]:
    """The grid cell of seat ``seat``'s progress ``p``."""
    return COORDS[square_of(seat, p)]


def arm(cell: tuple[int, int]) -> str:
    """Which arm (S/E/N/W, A.1) a square lies in."""
    x, y = cell
    if y <= 7:
        return "S"
    if x >= 11:
        return "E"
    if y >= 11:
        return "N"
    assert x <= 7
    return "W"


# --- Appendix A, transcribed: p, square (x, y), loop L, Ludii cell, Ludii track idx, note ----
# None stands for the table's "-". Note: "P" = private, "C" = castle, "" = neither.
APPENDIX_A: tuple[tuple[int, tuple[int, int], int | None, int, int | None, str], ...] = (
    (1, (9, 7), None, 9, None, "P"),
    (2, (9, 6), None, 73, None, "P"),
    (3, (9, 5), None, 70, None, "P"),
    (4, (9, 4), None, 67, None, "P"),
    (5, (9, 3), None, 64, None, "P"),
    (6, (9, 2), None, 61, None, "P"),
    (7, (9, 1), None, 58, None, "P"),
    (8, (9, 0), 0, 55, None, "C"),
    (9, (10, 0), 1, 56, None, ""),
    (10, (10, 1), 2, 59, None, ""),
    (11, (10, 2), 3, 62, None, ""),
    (12, (10, 3), 4, 65, None, "C"),
    (13, (10, 4), 5, 68, 1, ""),
    (14, (10, 5), 6, 71, 2, ""),
    (15, (10, 6), 7, 74, 3, ""),
    (16, (10, 7), 8, 10, 4, ""),
    (17, (11, 8), 9, 11, 5, ""),
    (18, (12, 8), 10, 12, 6, ""),
    (19, (13, 8), 11, 13, 7, ""),
    (20, (14, 8), 12, 14, 8, ""),
    (21, (15, 8), 13, 15, 9, "C"),
    (22, (16, 8), 14, 16, 10, ""),
    (23, (17, 8), 15, 17, 11, ""),
    (24, (18, 8), 16, 18, 12, ""),
    (25, (18, 9), 17, 34, 13, "C"),
    (26, (18, 10), 18, 50, 14, ""),
    (27, (17, 10), 19, 49, 15, ""),
    (28, (16, 10), 20, 48, 16, ""),
    (29, (15, 10), 21, 47, 17, "C"),
    (30, (14, 10), 22, 46, 18, ""),
    (31, (13, 10), 23, 45, 19, ""),
    (32, (12, 10), 24, 44, 20, ""),
    (33, (11, 10), 25, 43, 21, ""),
    (34, (10, 11), 26, 53, 22, ""),
    (35, (10, 12), 27, 77, 23, ""),
    (36, (10, 13), 28, 80, 24, ""),
    (37, (10, 14), 29, 83, 25, ""),
    (38, (10, 15), 30, 86, 26, "C"),
    (39, (10, 16), 31, 89, 27, ""),
    (40, (10, 17), 32, 92, 28, ""),
    (41, (10, 18), 33, 95, 29, ""),
    (42, (9, 18), 34, 94, 30, "C"),
    (43, (8, 18), 35, 93, 31, ""),
    (44, (8, 17), 36, 90, 32, ""),
    (45, (8, 16), 37, 87, 33, ""),
    (46, (8, 15), 38, 84, 34, "C"),
    (47, (8, 14), 39, 81, 35, ""),
    (48, (8, 13), 40, 78, 36, ""),
    (49, (8, 12), 41, 75, 37, ""),
    (50, (8, 11), 42, 51, 38, ""),
    (51, (7, 10), 43, 42, 39, ""),
    (52, (6, 10), 44, 41, 40, ""),
    (53, (5, 10), 45, 40, 41, ""),
    (54, (4, 10), 46, 39, 42, ""),
    (55, (3, 10), 47, 38, 43, "C"),
    (56, (2, 10), 48, 37, 44, ""),
    (57, (1, 10), 49, 36, 45, ""),
    (58, (0, 10), 50, 35, 46, ""),
    (59, (0, 9), 51, 19, 47, "C"),
    (60, (0, 8), 52, 0, 48, ""),
    (61, (1, 8), 53, 1, 49, ""),
    (62, (2, 8), 54, 2, 50, ""),
    (63, (3, 8), 55, 3, 51, "C"),
    (64, (4, 8), 56, 4, 52, ""),
    (65, (5, 8), 57, 5, 53, ""),
    (66, (6, 8), 58, 6, 54, ""),
    (67, (7, 8), 59, 7, 55, ""),
    (68, (8, 7), 60, 8, 56, ""),
    (69, (8, 6), 61, 72, 57, ""),
    (70, (8, 5), 62, 69, 58, ""),
    (71, (8, 4), 63, 66, 59, ""),
    (72, (8, 3), 64, 63, 60, "C"),
    (73, (8, 2), 65, 60, 61, ""),
    (74, (8, 1), 66, 57, 62, ""),
    (75, (8, 0), 67, 54, 63, ""),
    (76, (9, 0), 0, 55, 64, "C"),
    (77, (9, 1), None, 58, 65, "P"),
    (78, (9, 2), None, 61, 66, "P"),
    (79, (9, 3), None, 64, 67, "P"),
    (80, (9, 4), None, 67, 68, "P"),
    (81, (9, 5), None, 70, 69, "P"),
    (82, (9, 6), None, 73, 70, "P"),
    (83, (9, 7), None, 9, 71, "P"),
)

# The 12 castles of A.5, by arm: middle end, outer column A, outer column B.
A5_CASTLES = {
    "S": {(9, 0), (8, 3), (10, 3)},
    "E": {(18, 9), (15, 8), (15, 10)},
    "N": {(9, 18), (8, 15), (10, 15)},
    "W": {(0, 9), (3, 8), (3, 10)},
}
A5_CASTLE_P_SEAT0 = {8, 12, 21, 25, 29, 38, 42, 46, 55, 59, 63, 72, 76}
A8_CASTLE_LOOP_INDICES = {0, 4, 13, 17, 21, 30, 34, 38, 47, 51, 55, 64}
MIDDLE_ENDS = {(9, 0), (18, 9), (9, 18), (0, 9)}


@pytest.fixture(scope="module")
def ludii() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(LUDII_JSON.read_text(encoding="utf-8"))
    return data


# --- A.1 R-BOARD ------------------------------------------------------------------------------


def test_r_board_96_squares() -> None:
    expected = {
        (x, y)
        for x in range(19)
        for y in range(19)
        if (8 <= x <= 10 or 8 <= y <= 10) and not (8 <= x <= 10 and 8 <= y <= 10)
    }
    assert len(expected) == 96
    assert NUM_SQUARES == 96
    assert len(COORDS) == 96
    assert set(COORDS) == expected


def test_r_board_four_arms_of_3x8() -> None:
    by_arm: dict[str, set[tuple[int, int]]] = {}
    for cell in COORDS:
        by_arm.setdefault(arm(cell), set()).add(cell)
    assert {a: len(cells) for a, cells in by_arm.items()} == {"S": 24, "E": 24, "N": 24, "W": 24}
    assert by_arm["S"] == {(x, y) for x in (8, 9, 10) for y in range(8)}


def test_r_board_cell_of_coord_inverts_coords() -> None:
    for square, cell in enumerate(COORDS):
        assert cell_of_coord(*cell) == square
        assert coord(square) == cell


@pytest.mark.parametrize("cell", [(9, 9), (8, 8), (10, 10), (9, 8), (0, 0), (7, 7), (11, 11)])
def test_r_board_cell_of_coord_rejects_charkoni_and_corners(cell: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        cell_of_coord(*cell)


# (19, 8) once gave 19, the cell of (0, 9): rows 8..10 lacked a range check on x.
@pytest.mark.parametrize("cell", [(19, 8), (-1, 8), (20, 9), (-1, 10), (9, -1), (9, 19)])
def test_r_board_cell_of_coord_rejects_off_grid(cell: tuple[int, int]) -> None:
    with pytest.raises(ValueError):
        cell_of_coord(*cell)


def test_r_board_rotation_maps_s_e_n_w() -> None:
    assert rotate((9, 0)) == (18, 9)
    assert rotate((18, 9)) == (9, 18)
    assert rotate((9, 18)) == (0, 9)
    assert rotate((0, 9)) == (9, 0)
    for cell in COORDS:
        assert rotate(cell) in COORDS
        assert rotate(cell, 4) == cell
        assert rotate(cell, 3) == rotate(rotate(rotate(cell)))
    assert {arm(rotate(c)) for c in COORDS if arm(c) == "S"} == {"E"}


# --- A.2 R-SEATS ------------------------------------------------------------------------------


def test_r_seats_names_and_partners() -> None:
    assert SEAT_NAMES == ("South", "East", "North", "West")
    assert [partner(s) for s in SEATS] == [2, 3, 0, 1]
    teams = {frozenset({s, partner(s)}) for s in SEATS}
    assert teams == {frozenset({0, 2}), frozenset({1, 3})}


def test_r_seats_each_seat_starts_in_its_own_arm() -> None:
    for seat, name in enumerate(SEAT_NAMES):
        assert arm(xy(seat, 1)) == name[0]


def test_r_seats_route_runs_counter_clockwise() -> None:
    # After its own arm a route visits the arms of seats s+1, s+2, s+3: the same
    # counter-clockwise order as the turn order.
    letters = "SENW"
    for seat in SEATS:
        arms_in_order: list[str] = []
        for p in ROUTE:
            a = arm(xy(seat, p))
            if not arms_in_order or arms_in_order[-1] != a:
                arms_in_order.append(a)
        expected = [letters[(seat + k) % 4] for k in range(5)]
        assert arms_in_order == expected


# --- A.3 R-PATH, SC-01 ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "p", "expected"),
    [
        (0, 1, (9, 7)),
        (0, 8, (9, 0)),
        (0, 9, (10, 0)),
        (0, 16, (10, 7)),
        (0, 17, (11, 8)),
        (0, 25, (18, 9)),
        (0, 42, (9, 18)),
        (0, 59, (0, 9)),
        (0, 75, (8, 0)),
        (0, 76, (9, 0)),
        (0, 83, (9, 7)),
        (1, 1, (11, 9)),
        (1, 9, (18, 10)),
        (2, 1, (9, 11)),
        (3, 1, (7, 9)),
    ],
)
def test_r_path_sc01_route_squares(seat: int, p: int, expected: tuple[int, int]) -> None:
    assert xy(seat, p) == expected


def test_r_path_other_seats_are_rotations_of_seat_0() -> None:
    for seat in SEATS:
        for p in ROUTE:
            assert xy(seat, p) == rotate(xy(0, p), seat)


def test_r_path_off_board_progress_is_not_a_square() -> None:
    for seat in SEATS:
        assert SQUARE_OF[seat][WAITING] == -1
        assert SQUARE_OF[seat][HOME] == -1
        assert len(SQUARE_OF[seat]) == HOME + 1
        for p in (WAITING, HOME, -1, 85):
            with pytest.raises(ValueError):
                square_of(seat, p)


def test_r_path_progress_of_square() -> None:
    assert progress_of_square(0, parse_square("j8")) == (1, 83)
    assert progress_of_square(0, parse_square("j1")) == (8, 76)
    assert progress_of_square(0, parse_square("k1")) == (9,)
    assert progress_of_square(1, parse_square("j8")) == ()
    for seat in SEATS:
        for p in ROUTE:
            assert p in progress_of_square(seat, square_of(seat, p))


# --- A.4 lengths, SC-02 -----------------------------------------------------------------------


def test_r_path_sc02_lengths() -> None:
    assert (WAITING, LAST_SQUARE, HOME) == (0, 83, 84)
    for seat in SEATS:
        route = [square_of(seat, p) for p in ROUTE]
        assert HOME - WAITING == 84  # steps: leaving the Charkoni .. re-entering it
        assert len(route) == 83  # square visits
        assert len(set(route)) == 75  # distinct squares
        assert all(0 <= sq < NUM_SQUARES for sq in route)


def test_r_path_sc02_exactly_four_diagonal_steps() -> None:
    for seat in SEATS:
        diagonal = []
        for p in range(1, LAST_SQUARE):
            (x0, y0), (x1, y1) = xy(seat, p), xy(seat, p + 1)
            dx, dy = abs(x1 - x0), abs(y1 - y0)
            if (dx, dy) == (1, 1):
                diagonal.append((p, p + 1))
            else:
                assert dx + dy == 1, f"seat {seat}: {p}->{p + 1} is not side-adjacent"
        assert diagonal == [(16, 17), (33, 34), (50, 51), (67, 68)]
        assert tuple(diagonal) == DIAGONAL_STEPS


def test_r_path_a4_unvisited_squares_are_other_seats_private_columns() -> None:
    for seat in SEATS:
        visited = {square_of(seat, p) for p in ROUTE}
        unvisited = set(range(NUM_SQUARES)) - visited
        assert len(unvisited) == 21
        others = set().union(*(PRIVATE_SQUARES[t] for t in SEATS if t != seat))
        assert unvisited == others


def test_r_path_a4_own_middle_column_visited_twice() -> None:
    for seat in SEATS:
        for p in range(1, 8):
            assert square_of(seat, p) == square_of(seat, 84 - p)
        assert square_of(seat, 8) == square_of(seat, 76)


def test_r_path_a4_outer_loop_is_68_squares_shared_by_all_seats() -> None:
    loops = []
    for seat in SEATS:
        loop = [square_of(seat, p) for p in range(LOOP_START, LOOP_END)]
        assert len(loop) == 68
        assert len(set(loop)) == 68
        loops.append(set(loop))
    assert loops[0] == loops[1] == loops[2] == loops[3]


# --- A.5 R-CASTLES, SC-03 ---------------------------------------------------------------------


def test_r_castles_sc03_table() -> None:
    expected = set().union(*A5_CASTLES.values())
    assert len(expected) == 12
    assert {COORDS[sq] for sq in CASTLES} == expected
    assert len(CASTLES) == 12
    for square in range(NUM_SQUARES):
        assert is_castle(square) == (COORDS[square] in expected)
        assert IS_CASTLE[square] == is_castle(square)
    for name, cells in A5_CASTLES.items():
        assert {arm(c) for c in cells} == {name[0]}


def test_r_castles_seat0_progress_list() -> None:
    assert {p for p in ROUTE if is_castle(square_of(0, p))} == A5_CASTLE_P_SEAT0
    for seat in SEATS:
        assert {p for p in ROUTE if is_castle(square_of(seat, p))} == A5_CASTLE_P_SEAT0
        for p in [*range(1, 8), *range(77, 84)]:
            assert not is_castle(square_of(seat, p))


@pytest.mark.parametrize(
    ("seat", "expected"), [(0, (0, 9)), (1, (9, 0)), (2, (18, 9)), (3, (9, 18))]
)
def test_r_castles_sc03_one_castle_25_from_home(seat: int, expected: tuple[int, int]) -> None:
    at_25 = {xy(seat, p) for p in ROUTE if HOME - p == 25 and is_castle(square_of(seat, p))}
    assert at_25 == {expected}


def test_r_castles_sc03_25_from_home_are_the_middle_ends() -> None:
    found = []
    for seat in SEATS:
        found += [xy(seat, p) for p in ROUTE if HOME - p == 25 and is_castle(square_of(seat, p))]
    assert len(found) == 4
    assert set(found) == MIDDLE_ENDS


def test_r_castles_a6_25_out_is_a_middle_end_castle() -> None:
    for seat in SEATS:
        assert is_castle(square_of(seat, 25))
        assert xy(seat, 25) in MIDDLE_ENDS


# --- A.7 R-PRIVATE-COLUMN, SC-04 --------------------------------------------------------------


def test_r_private_column_sc04() -> None:
    column = {(9, y) for y in range(1, 8)}
    for seat in (1, 2, 3):
        assert not any(xy(seat, p) in column for p in ROUTE)
    assert {xy(0, p) for p in range(1, 8)} == column
    assert {xy(0, p) for p in range(77, 84)} == column
    assert {p for p in ROUTE if xy(0, p) in column} == set(range(1, 8)) | set(range(77, 84))


def test_r_private_column_all_seats() -> None:
    expected = [
        {(9, y) for y in range(1, 8)},
        {(x, 9) for x in range(11, 18)},
        {(9, y) for y in range(11, 18)},
        {(x, 9) for x in range(1, 8)},
    ]
    for seat in SEATS:
        assert {COORDS[sq] for sq in PRIVATE_SQUARES[seat]} == expected[seat]
        for other in SEATS:
            if other != seat:
                reached = {square_of(other, p) for p in ROUTE}
                assert not reached & PRIVATE_SQUARES[seat]


# --- A.8 loop index, SC-05 --------------------------------------------------------------------


def test_sc05_seat_conversion() -> None:
    assert xy(0, 23) == xy(1, 74) == xy(2, 57) == xy(3, 40) == (17, 8)
    assert convert_progress(23, 0, 1) == 74
    assert convert_progress(23, 0, 2) == 57
    assert convert_progress(23, 0, 3) == 40
    assert convert_progress(74, 1, 0) == 23
    assert len({loop_index(s, p) for s, p in [(0, 23), (1, 74), (2, 57), (3, 40)]}) == 1


def test_r_loop_index_equal_iff_same_square() -> None:
    for s in SEATS:
        for t in SEATS:
            for p in LOOP:
                for q in LOOP:
                    same_square = square_of(s, p) == square_of(t, q)
                    assert (loop_index(s, p) == loop_index(t, q)) == same_square


def test_r_loop_index_formula_and_range() -> None:
    for s in SEATS:
        for p in range(HOME + 1):
            if LOOP_START <= p <= LOOP_END:
                assert loop_index(s, p) == (p - 8 + 17 * s) % 68
                assert LOOP_INDEX[s][p] == loop_index(s, p)
            else:
                assert loop_index(s, p) == -1


def test_r_loop_index_castles() -> None:
    castle_indices = {loop_index(s, p) for s in SEATS for p in LOOP if is_castle(square_of(s, p))}
    assert castle_indices == A8_CASTLE_LOOP_INDICES
    assert castle_indices == {i for i in range(68) if i % 17 in (0, 4, 13)}


@given(p=loop_progress, s=seats, t=seats)
def test_r_loop_convert_progress_lands_on_same_square(p: int, s: int, t: int) -> None:
    q = convert_progress(p, s, t)
    assert LOOP_START <= q < LOOP_END  # 8 stands for 76
    assert square_of(t, q) == square_of(s, p)


@given(p=loop_progress, s=seats, t=seats)
def test_r_loop_convert_progress_round_trip(p: int, s: int, t: int) -> None:
    back = convert_progress(convert_progress(p, s, t), t, s)
    assert back == (LOOP_START if p == LOOP_END else p)


@given(p=loop_progress, s=seats, t=seats, u=seats)
def test_r_loop_convert_progress_composes(p: int, s: int, t: int, u: int) -> None:
    via_t = convert_progress(convert_progress(p, s, t), t, u)
    assert via_t == convert_progress(p, s, u)


@pytest.mark.parametrize("p", [0, 1, 7, 77, 83, 84])
def test_r_loop_convert_progress_rejects_off_loop(p: int) -> None:
    with pytest.raises(ValueError):
        convert_progress(p, 0, 1)


# --- Appendix A -------------------------------------------------------------------------------


def test_appendix_a_table_is_complete() -> None:
    assert [row[0] for row in APPENDIX_A] == list(ROUTE)


@pytest.mark.parametrize("row", APPENDIX_A, ids=lambda row: f"p{row[0]}")
def test_appendix_a_seat0_row(
    row: tuple[int, tuple[int, int], int | None, int, int | None, str],
) -> None:
    p, cell, loop, ludii_cell, track_idx, note = row
    assert xy(0, p) == cell
    assert square_of(0, p) == ludii_cell
    assert cell_of_coord(*cell) == ludii_cell
    assert loop_index(0, p) == (-1 if loop is None else loop)
    assert is_castle(ludii_cell) == (note == "C")
    assert (ludii_cell in PRIVATE_SQUARES[0]) == (note == "P")
    # Ludii's track starts at p = 13 (A.9): index i >= 1 is p = i + 12.
    expected_idx = p - (LUDII_ENTRY_PROGRESS - 1) if p >= LUDII_ENTRY_PROGRESS else None
    assert track_idx == expected_idx


# --- A.9 cross-check with Ludii's own site data -----------------------------------------------


def test_r_board_ludii_sites_grid(ludii: dict[str, Any]) -> None:
    board_sites = {s["site"]: tuple(s["grid"]) for s in ludii["sites"] if s["kind"] == "square"}
    assert sorted(board_sites) == list(range(NUM_SQUARES))
    for cell in range(NUM_SQUARES):
        assert board_sites[cell] == COORDS[cell], f"cell {cell}"
    charkoni = [s for s in ludii["sites"] if s["kind"] == "charkoni"]
    assert [(s["site"], tuple(s["grid"])) for s in charkoni] == [(96, (9, 9))]


def test_r_track_ludii_tracks(ludii: dict[str, Any]) -> None:
    tracks = ludii["tracks"]
    assert sorted(t["owner"] for t in tracks) == [1, 2, 3, 4]
    for track in tracks:
        seat = track["owner"] - 1
        sites = track["sites"]
        assert len(sites) == 73
        assert sites[0] == 97 + seat  # the hand
        assert sites[72] == 96  # the Charkoni, p = 84
        for i in range(1, 72):
            assert SQUARE_OF[seat][i + 12] == sites[i], f"seat {seat} index {i}"


def test_r_track_ludii_entry_and_previous_goal(ludii: dict[str, Any]) -> None:
    for owner, site in ludii["maps"]["Entry"].items():
        assert square_of(int(owner) - 1, LUDII_ENTRY_PROGRESS) == site
    for owner, site in ludii["maps"]["PreviousGoal"].items():
        assert square_of(int(owner) - 1, LAST_SQUARE) == site


def test_r_castles_ludii_pachisi_region_differs_only_at_middle_ends(
    ludii: dict[str, Any],
) -> None:
    # A.9: Ludii's Pachisi "Castle" region keeps the 8 outer-column castles but moves
    # the four middle-end ones to (9,2), (16,9), (10,13), (2,9).
    region = set(ludii["regions"]["Castle"])
    assert len(region) == 12
    middle_end_castles = {sq for sq in CASTLES if COORDS[sq] in MIDDLE_ENDS}
    assert region & CASTLES == CASTLES - middle_end_castles
    assert {COORDS[sq] for sq in region - CASTLES} == {(9, 2), (16, 9), (10, 13), (2, 9)}


def test_r_castles_ludii_pachesi_safe_sites() -> None:
    # A.9: Pachesi.lud's SafeSites decode to exactly the castles of A.5.
    assert {55, 63, 65, 34, 15, 47, 94, 84, 86, 19, 38, 3} == CASTLES


# --- square names -----------------------------------------------------------------------------


def test_square_names_round_trip_all_squares() -> None:
    names = [square_name(sq) for sq in range(NUM_SQUARES)]
    assert len(set(names)) == NUM_SQUARES
    for square, name in enumerate(names):
        x, y = COORDS[square]
        assert name == "abcdefghijklmnopqrs"[x] + str(y + 1)
        assert parse_square(name) == square


@pytest.mark.parametrize(
    ("name", "cell"),
    [("j8", (9, 7)), ("a9", (0, 8)), ("s11", (18, 10)), ("j1", (9, 0)), ("j19", (9, 18))],
)
def test_square_names_known(name: str, cell: tuple[int, int]) -> None:
    assert COORDS[parse_square(name)] == cell
    assert square_name(cell_of_coord(*cell)) == name


def test_square_names_case_and_spaces() -> None:
    assert parse_square("J8") == parse_square(" j8 ") == square_of(0, 1)


@pytest.mark.parametrize(
    "bad", ["z9", "", "j10x", "j9", "j10", "k11", "a1", "t9", "j0", "j20", "8j", "j 8", "jj"]
)
def test_square_names_reject_non_squares(bad: str) -> None:
    with pytest.raises(ValueError, match="not a square"):
        parse_square(bad)


@given(st.text(max_size=5))
def test_square_names_parse_is_total(text: str) -> None:
    # Any string either names one of the 96 squares (and round-trips) or raises ValueError.
    try:
        square = parse_square(text)
    except ValueError:
        return
    assert 0 <= square < NUM_SQUARES
    assert square_name(square) == text.strip().lower()


def test_one_person_holds_partner_seats_only_in_two_person_games() -> None:
    assert person_seats(2, 0) == (0, 2) and person_seats(2, 3) == (1, 3)
    assert person_seats(4, 3) == (3,)
