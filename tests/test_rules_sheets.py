"""Our rule sheets as files: they lint clean, name their game and RULES.md section, declare the
roles of RULES.md in its order, and are found through the package."""

import pytest

from gamecheck.errors import UnknownGameError
from gamecheck.gdl.checks import lint_text
from gamecheck.models.rules import SHEETS, rule_sheet_path, rule_text
from tests.rule_sheets import sheet_game

ROLES = {
    "cubicup": ("yellow", "red", "green"),
    "ttcc4": ("red", "yellow", "blue"),
    "tictactoe3d": ("xrow", "xcolumn", "xlevel", "orow", "ocolumn", "olevel"),
    "sudoku": ("robot",),
    "tictacchess": ("red", "yellow", "blue"),
}
SECTIONS = {"cubicup": 1, "ttcc4": 2, "tictactoe3d": 3, "sudoku": 4, "tictacchess": 5}


@pytest.mark.parametrize("name", SHEETS)
def test_sheet_lints_without_errors_or_warnings(name):
    lint = lint_text(rule_text(name), f"{name}.kif")
    assert [str(finding) for finding in lint.findings] == []


@pytest.mark.parametrize("name", SHEETS)
def test_sheet_opens_with_a_comment_naming_game_and_section(name):
    first_lines = rule_text(name).splitlines()[:3]
    assert first_lines[0].startswith(f"; {name}: ")
    assert f"RULES.md section {SECTIONS[name]} " in " ".join(first_lines)


@pytest.mark.parametrize("name", SHEETS)
def test_sheet_has_the_roles_of_rules_md_in_order(name):
    assert sheet_game(name).roles == ROLES[name]


def test_sheets_are_package_resources():
    path = rule_sheet_path("ttcc4")
    assert path.name == "ttcc4.kif" and path.is_file()
    assert rule_sheet_path("sudoku:grade3").name == "sudoku.kif"


def test_unknown_sheet_is_refused_with_the_names_that_exist():
    with pytest.raises(UnknownGameError, match="no rule sheet for 'chess'; the sheets are cubicup"):
        rule_sheet_path("chess")
