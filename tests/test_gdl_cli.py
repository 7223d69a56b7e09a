"""`gamecheck lint` and rule sheets given as GAME arguments."""

import subprocess
import sys
from pathlib import Path

import pytest

from gamecheck.analysis.loading import load_game
from gamecheck.cli import main
from gamecheck.gdl.syntax import GdlError

DATA = Path(__file__).parent / "data" / "gdl"
ROOT = Path(__file__).parent.parent


def lint(capsys, path) -> tuple[int, list[str], str]:
    status = main(["lint", str(path)])
    out, err = capsys.readouterr()
    return status, out.splitlines(), err


def test_lint_clean_sheet(capsys):
    path = DATA / "tictactoe.kif"
    status, lines, err = lint(capsys, path)
    # 16 facts (2 role, 10 init, 2 mark, 2 opponent) and 18 rules; 13 relations have heads.
    assert lines == [
        f"{path}: 2 roles (xplayer, oplayer), 34 rules, 13 relations; 0 errors, 0 warnings"
    ]
    assert (status, err) == (0, "")


def test_lint_sheet_with_errors(capsys):
    path = DATA / "bad_does_in_legal.kif"
    status, lines, _ = lint(capsys, path)
    assert status == 1  # the rules are defective
    assert lines == [
        f"{path}:10:24: error: does cannot appear in the body of a legal rule "
        "(legal must not depend on does)",
        f"{path}:12:24: error: legal must not depend on does, but it does through moved",
        f"{path}: 1 role (robot), 14 rules, 8 relations; 2 errors, 0 warnings",
    ]


def test_lint_warnings_only_exit_zero(capsys):
    status, lines, _ = lint(capsys, DATA / "warnings.kif")
    assert status == 0
    assert len(lines) == 7 and all(": warning: " in line for line in lines[:6])
    assert lines[-1].endswith("0 errors, 6 warnings")


def test_lint_syntax_error(capsys):
    path = DATA / "bad_unbalanced.kif"
    status, lines, _ = lint(capsys, path)
    assert status == 1
    assert lines == [
        f"{path}:7:1: error: unbalanced parenthesis: this '(' is never closed",
        f"{path}: not parsed; 1 error, 0 warnings",
    ]


def test_lint_unreadable_file(capsys, tmp_path):
    status, lines, err = lint(capsys, tmp_path / "nothing.kif")
    assert status == 2 and lines == []
    assert (
        err
        == f"gamecheck: error: cannot read {tmp_path / 'nothing.kif'}: No such file or directory\n"
    )


def test_malformed_sheet_as_game_argument_names_file_line_column():
    path = DATA / "bad_unbalanced.kif"
    with pytest.raises(GdlError, match=rf"^{path}:7:1: unbalanced parenthesis"):
        load_game(str(path))
    assert load_game(str(DATA / "hanoi.kif")).roles == ("solver",)


def test_command_line_gives_no_traceback():
    result = subprocess.run(
        [sys.executable, "-m", "gamecheck", "lint", "tests/data/gdl/bad_keywords.kif"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.splitlines()[0].startswith(
        "tests/data/gdl/bad_keywords.kif:10:5: error: true cannot be a rule head"
    )
