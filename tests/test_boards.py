"""Boards drawn for pictures (Game.board, analysis/report/boards.py), checked against the
start positions of RULES.md."""

from gamecheck.analysis.report.boards import board_figure, owner_colour
from gamecheck.analysis.report.plots import save
from gamecheck.models import get_game


def cell(board, grid: int, x: int, y: int):
    """The cell at (x, y), 1-based with y = 1 at the bottom, of a grid of the board."""
    rows = board.grids[grid][1]
    return rows[len(rows) - y][x - 1]


def test_ttcc4_start_board_holds_each_piece_on_its_start_cell():
    game = get_game("ttcc4")
    board = game.board(game.initial_state())
    starts = {
        (1, 5): ("P", "red"), (1, 4): ("C", "red"), (1, 3): ("K", "red"),
        (3, 1): ("P", "yellow"), (4, 1): ("C", "yellow"), (5, 1): ("K", "yellow"),
        (7, 3): ("P", "blue"), (7, 4): ("C", "blue"), (7, 5): ("K", "blue"),
    }  # fmt: skip
    for (x, y), piece in starts.items():
        assert cell(board, 0, x, y) == piece
    assert cell(board, 0, 4, 4) == ("", None)  # on board, empty
    assert cell(board, 0, 1, 1) is None  # a border cell that holds no start: no cell


def test_tictacchess_start_board_has_one_piece_per_spawn_cell():
    game = get_game("tictacchess")
    board = game.board(game.initial_state())
    owned = {
        (x, y): c[1]
        for x in range(1, 8)
        for y in range(1, 8)
        if (c := cell(board, 0, x, y)) is not None and c[1] is not None
    }
    assert owned == {(1, 4): "red", (4, 1): "yellow", (7, 4): "blue"}


def test_sudoku_board_tells_givens_from_blanks():
    game = get_game("sudoku:grade1")  # first row 9 . . | . . . | . . 8
    ((title, rows),) = game.board(game.initial_state()).grids
    assert rows[0][0] == ("9", "given") and rows[0][8] == ("8", "given")
    assert rows[0][1] == ("", None)
    assert sum(c[1] == "given" for row in rows for c in row) == 81 - 50  # 50 blanks


def test_cubicup_levels_shrink_to_one_position_at_the_top():
    game = get_game("cubicup")
    board = game.board(game.initial_state())
    positions = [sum(c is not None for row in rows for c in row) for _, rows in board.grids]
    assert positions == [28, 21, 15, 10, 6, 3, 1]  # (8-z)(9-z)/2 for z = 1..7
    assert all(c is None or c == ("", None) for _, rows in board.grids for r in rows for c in r)


def test_board_images_are_written_with_role_colours(tmp_path):
    game = get_game("tictactoe3d")
    figure = board_figure(game.board(game.initial_state()), "tictactoe3d")
    save(figure, tmp_path / "board.png")
    assert (tmp_path / "board.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(figure.axes) == 4  # the four levels
    assert owner_colour("red", {}) != owner_colour("blue", {}) != owner_colour(None, {})
