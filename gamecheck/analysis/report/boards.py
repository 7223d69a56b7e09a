"""Boards as images: a Game's `board(state)` (models/base.py Board) drawn with matplotlib.

Each grid is drawn as squares, side by side; a cell's colour tells its owner: a role named
after a colour (red, yellow, ...) gets a light shade of it, the two marks of tic-tac-toe and
the two kinds of sudoku digits get colours of their own, other owners a colour of a fixed
cycle; an empty cell is white, and where a board has no cell nothing is drawn.
"""

from __future__ import annotations

from matplotlib import colors
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from gamecheck.models.base import Board

OWNER_COLOURS = {"x": "#9ecae1", "o": "#fcae91", "given": "#d9d9d9", "filled": "#ffffff"}
TEXT_COLOURS = {"filled": "#08519c"}
CYCLE = ("#b3de69", "#fdb462", "#bebada", "#8dd3c7", "#fb8072", "#80b1d3")
CELL_INCHES = 0.32


def owner_colour(owner: str | None, others: dict[str, str]) -> str:
    """The fill of a cell of `owner` (`others` remembers the colours given out so far)."""
    if owner is None:
        return "#ffffff"
    if owner in OWNER_COLOURS:
        return OWNER_COLOURS[owner]
    if owner in colors.CSS4_COLORS:
        red, green, blue = colors.to_rgb(owner)
        return colors.to_hex((0.55 + 0.45 * red, 0.55 + 0.45 * green, 0.55 + 0.45 * blue))
    return others.setdefault(owner, CYCLE[len(others) % len(CYCLE)])


def board_figure(board: Board, title: str) -> Figure:
    """The board's grids side by side, each under its title, the caption below."""
    widths = [max(len(rows[0]), 1) for _, rows in board.grids]
    height = max(len(rows) for _, rows in board.grids)
    text = max(len(title), len(board.caption)) * 0.075 + 0.4  # room for the longer line
    inches = (
        max(CELL_INCHES * (sum(widths) + len(widths)) + 0.4, text),
        CELL_INCHES * height + 1.1,
    )
    figure = Figure(figsize=inches, layout="constrained")
    axes_row = figure.subplots(1, len(board.grids), width_ratios=widths, squeeze=False)[0]
    others: dict[str, str] = {}
    for axes, (name, rows) in zip(axes_row, board.grids, strict=True):
        _draw_grid(axes, rows, others)
        axes.set_title(name, fontsize=9)
    figure.suptitle(title, fontsize=10)
    if board.caption:
        figure.supxlabel(board.caption, fontsize=8)
    return figure


def _draw_grid(axes, rows, others: dict[str, str]) -> None:
    height, width = len(rows), len(rows[0])
    for y, row in enumerate(rows):
        for x, cell in enumerate(row):
            if cell is None:
                continue
            text, owner = cell
            bottom = height - 1 - y
            fill = owner_colour(owner, others)
            axes.add_patch(Rectangle((x, bottom), 1, 1, facecolor=fill, edgecolor="#636363"))
            if text:
                colour = TEXT_COLOURS.get(owner or "", "black")
                axes.text(x + 0.5, bottom + 0.5, text, ha="center", va="center", color=colour)
    if (height, width) == (9, 9):  # a sudoku grid: its boxes
        for line in (3, 6):
            axes.plot([line, line], [0, 9], color="black", linewidth=2)
            axes.plot([0, 9], [line, line], color="black", linewidth=2)
    axes.set_xlim(0, width)
    axes.set_ylim(0, height)
    axes.set_aspect("equal")
    axes.axis("off")
