"""The formats the commands read and write so that they connect: a state as GDL facts or as a
line of `play --json`, a history of moves, `stats --json`, numeric CSV columns, several
files and `-` for lint and sudoku, sudoku grids and solutions; GDL-II refused.

The exit codes are those of the installed command (run as a user runs it, with stdin);
expected values are worked out by hand from the rules (tests/data/gdl/tictactoe.kif is
ordinary tic-tac-toe, xplayer first) or by a second method (pandas, a brute-force sudoku
solver).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from gamecheck.analysis.loading import load_game
from gamecheck.analysis.positions import parse_state, play_moves
from gamecheck.analysis.sudoku_solve import parse_puzzles
from gamecheck.errors import BadPuzzleError, GamecheckError
from gamecheck.models.sudoku import INSTANCES
from tests.sudoku_reference import solutions
from tests.test_installed_cli import GAMECHECK, TIMEOUT, Run, _environment

DATA = Path(__file__).parent / "data"
GDL = DATA / "gdl"
TICTACTOE = GDL / "tictactoe.kif"
GRADE1 = "9.......872.....64...528...35.8.7.21....4....46.2.5.89...931...68.....325.......7"
NO_SOLUTION = "12345678." + "........9" + "." * 63  # row 1 column 9 can take no digit

# x marks (1 3), o marks (1 2), x marks (2 2); o to move. x threatens the diagonal (1 3)
# (2 2) (3 1), o must block at (3 1); x then marks (3 3), threatening (1 1) and (2 3) at
# once; o blocks one, x completes the other: a forced win in 4 steps, and none in 3 (x moves
# only once in 3 steps, and o blocks first).
MOVES = "(mark 1 3) noop\nnoop (mark 1 2)\n(mark 2 2) noop\n"
BOARD = {(1, 2): "o", (1, 3): "x", (2, 2): "x"}
FACTS = [
    f"(cell {row} {column} {BOARD.get((row, column), 'b')})"
    for row in (1, 2, 3)
    for column in (1, 2, 3)
] + ["(control oplayer)"]


def step_line(number: int, board: dict, control: str, joint: list[str]) -> str:
    """A line of `play --json` written by hand: the state before the step, its joint action."""
    cells = [
        f"(cell {row} {column} {board.get((row, column), 'b')})"
        for row in (1, 2, 3)
        for column in (1, 2, 3)
    ]
    return json.dumps({"step": number, "state": [*cells, f"(control {control})"], "joint": joint})


HISTORY = [
    step_line(1, {}, "xplayer", ["(mark 1 3)", "noop"]),
    step_line(2, {(1, 3): "x"}, "oplayer", ["noop", "(mark 1 2)"]),
    step_line(3, {(1, 3): "x", (1, 2): "o"}, "xplayer", ["(mark 2 2)", "noop"]),
]
STEP_LINE = HISTORY[-1]  # gives the state after step 3: the position


def run(*argv, stdin: str = "", cwd: Path | None = None) -> Run:
    """The installed command with `stdin` as its standard input."""
    process = subprocess.run(
        [GAMECHECK, *map(str, argv)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env=_environment(),
        cwd=cwd,
    )
    return Run(process.returncode, process.stdout, process.stderr)


# --state and --moves


def test_a_state_as_facts_as_a_play_json_line_and_as_moves_is_one_position():
    game = load_game(str(TICTACTOE))
    expected = game.state_from_facts(FACTS)
    assert parse_state(game, "\n".join(FACTS) + "\n; a comment\n") == expected
    assert parse_state(game, "\n".join(f"(true {fact})" for fact in FACTS)) == expected
    assert parse_state(game, STEP_LINE) == expected  # the state after the step's joint action
    position = play_moves(game, MOVES)
    assert position.state == expected
    assert position.moves == (
        ("(mark 1 3)", "noop"),
        ("noop", "(mark 1 2)"),
        ("(mark 2 2)", "noop"),
    )


@pytest.mark.parametrize(
    "source",
    [
        ["--state", "-", "\n".join(FACTS)],
        ["--state", "-", STEP_LINE],
        ["--moves", "-", MOVES],
        ["--moves", "-", "\n".join(HISTORY)],
    ],
)
def test_forced_win_from_each_form_of_the_position(source):
    option, path, text = source
    found = run("forced-win", TICTACTOE, "--role", "xplayer", option, path, "--json", stdin=text)
    assert found.code == 0, found.err
    assert (found.json()["status"], found.json()["depth"]) == ("found", 4)
    none = run(
        "forced-win", TICTACTOE, "--role", "xplayer", option, path, "--max-depth", "3", stdin=text
    )
    assert none.code == 0 and "none: no forced win within 3 steps (proved)" in none.out
    assert "from the state in <stdin>" in none.out or "moves in <stdin>" in none.out


def test_the_whole_output_of_play_json_is_a_history_and_its_last_line_a_state(tmp_path):
    game = load_game(str(TICTACTOE))
    played = run("play", TICTACTOE, "--seed", "4", "--json").out
    *steps, last = [json.loads(line) for line in played.splitlines()]
    final = game.state_from_facts(last["state"])
    assert play_moves(game, played).state == final
    assert play_moves(game, played).moves == tuple(tuple(s["joint"]) for s in steps)
    assert parse_state(game, played) == final
    # and the last step's line gives the same final state, its joint action played
    assert parse_state(game, json.dumps(steps[-1])) == final


EMPTY_CELLS = ["(mark 1 1)", "(mark 2 1)", "(mark 2 3)", "(mark 3 1)", "(mark 3 2)", "(mark 3 3)"]


def test_play_from_a_history_starts_in_the_position_it_reaches():
    played = run("play", TICTACTOE, "--moves", "-", "--seed", "7", "--json", stdin=MOVES)
    assert played.code == 0, played.err
    first = json.loads(played.out.splitlines()[0])
    game = load_game(str(TICTACTOE))
    assert game.state_from_facts(first["state"]) == game.state_from_facts(FACTS)
    assert first["legal"] == {"xplayer": ["noop"], "oplayer": EMPTY_CELLS}
    text = run("play", TICTACTOE, "--moves", "-", stdin=MOVES)
    assert "random playout with seed 0 from the position the moves in <stdin> reach" in text.out


def test_stats_from_a_position_count_only_the_steps_after_it():
    # o to move with six empty cells: the board fills within 6 steps, and x, who needs one
    # more mark, cannot complete a line before its next turn, 2 steps on
    stats = run("stats", TICTACTOE, "--moves", "-", "--playouts", "60", "--json", stdin=MOVES)
    assert stats.code == 0, stats.err
    lengths = stats.json()["lengths"]
    assert lengths["min"] >= 2 and lengths["max"] <= 6


def test_stats_from_a_terminal_state_are_playouts_of_no_step(tmp_path):
    played = run("play", TICTACTOE, "--seed", "4", "--json").out
    goals = json.loads(played.splitlines()[-1])["goals"]
    stats = run("stats", TICTACTOE, "--state", "-", "--playouts", "3", "--json", stdin=played)
    assert stats.code == 0, stats.err
    body = stats.json()
    assert body["lengths"]["max"] == 0 and body["branching"]["steps"] == 0
    assert body["outcomes"] == [
        {"goals": list(goals.values()), "ending": "terminal", "count": 3, "frequency": 1.0}
    ]


def test_an_illegal_move_exits_2_naming_the_step_role_action_and_legal_ones():
    moves = "(mark 1 3) noop\nnoop (mark 1 3)\n"  # o marks the cell x took
    result = run("forced-win", TICTACTOE, "--role", "xplayer", "--moves", "-", stdin=moves)
    assert result.code == 2
    assert result.one_sentence_error(
        "<stdin>, line 2 (move 2)", "(mark 1 3) is not a legal action of oplayer", "(mark 1 1)"
    )


@pytest.mark.parametrize(
    ("reader", "text", "words"),
    [
        (parse_state, "(control xplayer)\n(score 7)\n", ["line 2", "(score 7) is not a fact"]),
        (parse_state, '{"step": 1, "state": ["(control nobody) x"]}', ["line 1"]),
        (parse_state, "; nothing\n", ["holds no state"]),
        (play_moves, "(mark 1 1)\n", ["line 1 (move 1)", "a joint move needs 2 action(s)"]),
        (play_moves, "(mark 1 1) noop\n(mark 2 2) noop\n", ["line 2 (move 2)", "xplayer"]),
        (play_moves, "", ["holds no move"]),
    ],
)
def test_bad_positions_are_one_sentence_errors(reader, text, words):
    game = load_game(str(TICTACTOE))
    with pytest.raises(GamecheckError) as error:
        reader(game, text, "<stdin>")
    assert all(word in str(error.value) for word in words), str(error.value)


def test_a_built_in_game_names_a_fact_it_does_not_know():
    result = run("forced-win", "tictacchess", "--role", "red", "--state", "-", stdin="(cell 1 1 x)")
    assert result.code == 2 and result.one_sentence_error("(cell 1 1 x)")


# stats


def test_stats_json_holds_the_figures_of_the_csv(tmp_path):
    csv = tmp_path / "playouts.csv"
    result = run("stats", "tictacchess", "--playouts", "30", "--seed", "3", "--csv", csv, "--json")
    assert result.code == 0
    stats = result.json()
    assert (stats["kind"], stats["playouts"], stats["seeds"]) == ("playout_stats", 30, [3, 32])
    rows = pd.read_csv(csv)
    goals = [f"goal {role}" for role in ("red", "yellow", "blue")]
    assert all(rows[column].dtype.kind == "i" for column in goals)  # whole numbers
    lengths = rows["length"]
    assert stats["lengths"]["mean"] == pytest.approx(lengths.mean())
    assert stats["lengths"]["min"] == lengths.min() and stats["lengths"]["max"] == lengths.max()
    for share, value in stats["lengths"]["quantiles"].items():
        assert value == pytest.approx(lengths.quantile(float(share)))
    steps = lengths.sum()
    assert stats["branching"]["steps"] == steps
    mean = (rows["mean_branching"] * lengths).sum() / steps
    assert stats["branching"]["mean"] == pytest.approx(mean)
    assert stats["branching"]["max"] == rows["max_branching"].max()
    counts = rows.groupby(goals).size()
    assert {tuple(o["goals"]): o["count"] for o in stats["outcomes"]} == {
        tuple(int(g) for g in vector): int(count) for vector, count in counts.items()
    }
    assert stats["endings"] == {"terminal": 30, "stuck": 0, "goals undefined": 0, "too long": 0}


def test_stats_of_stuck_playouts_have_empty_goals(tmp_path):
    csv = tmp_path / "stuck.csv"
    result = run("stats", GDL / "broken_stuck.kif", "--playouts", "3", "--csv", csv, "--json")
    stats = result.json()
    # broken_stuck.kif: count 0 -tick-> 1 -tick-> 2, where p has no legal action
    assert result.code == 1 and stats["endings"]["stuck"] == 3
    assert stats["outcomes"] == [{"goals": None, "ending": "stuck", "count": 3, "frequency": 1.0}]
    rows = pd.read_csv(csv)
    assert list(rows["ending"]) == ["stuck"] * 3 and rows["goal p"].isna().all()
    assert list(rows["length"]) == [2, 2, 2]


# lint


def test_lint_of_several_files_and_stdin_names_each_and_exits_with_the_worst():
    clean = (GDL / "tictactoe.kif").read_text()
    result = run("lint", GDL / "bad_unsafe.kif", "-", stdin=clean)
    assert result.code == 1
    lines = result.out.splitlines()
    # bad_unsafe.kif: two unsafe variables (its `; expect:` lines), then the sheet from stdin
    assert lines[0].startswith(f"{GDL / 'bad_unsafe.kif'}:10:5: error: unsafe variable ?k")
    assert lines[2].startswith(f"{GDL / 'bad_unsafe.kif'}: 1 role (robot)")
    assert (
        lines[3]
        == "<stdin>: 2 roles (xplayer, oplayer), 34 rules, 13 relations; 0 errors, 0 warnings"
    )
    assert run("lint", "-", stdin=clean).code == 0
    missing = run("lint", GDL / "tictactoe.kif", "missing.kif")
    assert missing.code == 2 and missing.one_sentence_error("cannot read missing.kif")


# GDL-II


@pytest.mark.parametrize(
    ("sheet", "command"),
    [
        ("bad_gdl2_sees.kif", ["verify"]),
        ("bad_gdl2_random.kif", ["verify"]),
        ("bad_gdl2_random.kif", ["play"]),
        ("bad_gdl2_sees.kif", ["stats", "--playouts", "2"]),
        ("bad_gdl2_random.kif", ["forced-win", "--role", "player"]),
    ],
)
def test_gdl_ii_sheets_are_refused_in_one_sentence(sheet, command):
    name, *options = command
    result = run(name, GDL / sheet, *options)
    *_, last = result.err.splitlines()  # verify shows its stages on stderr before it
    assert result.code == 2 and result.out == "" and "Traceback" not in result.err
    assert last.startswith(f"gamecheck: error: {GDL / sheet}:")
    assert "GDL-II (sees/random) is not supported" in last


def test_lint_reports_gdl_ii_once_at_its_first_use():
    result = run("lint", GDL / "bad_gdl2_random.kif", GDL / "bad_gdl2_sees.kif")
    errors = [line for line in result.out.splitlines() if ": error: " in line]
    assert result.code == 1
    assert [line.split(": error: ")[0] for line in errors] == [
        f"{GDL / 'bad_gdl2_random.kif'}:6:1",  # (role random)
        f"{GDL / 'bad_gdl2_sees.kif'}:17:5",  # the head of the sees rule
    ]


# sudoku


def grid(puzzle: str) -> str:
    """A puzzle drawn as 9 rows with separators, as people write it."""
    rows = [" ".join(puzzle[r * 9 + c] for c in range(9)) for r in range(9)]
    drawn = [f"{row[:5]} | {row[6:11]} | {row[12:]}" for row in rows]
    return "\n".join([*drawn[:3], "------+-------+------", *drawn[3:6], *drawn[6:]]) + "\n"


def test_a_drawn_grid_reads_as_its_81_characters():
    assert grid(GRADE1).splitlines()[0] == "9 . . | . . . | . . 8"  # RULES.md: grade1's first row
    (puzzle,) = parse_puzzles("# grade1\n" + grid(GRADE1), "g.txt")
    assert (puzzle.line, puzzle.givens) == (2, parse_puzzles(GRADE1)[0].givens)
    both = parse_puzzles(grid(GRADE1) + GRADE1.replace(".", "0") + "\n")
    assert [p.line for p in both] == [1, 11] and both[0].givens == both[1].givens
    with pytest.raises(BadPuzzleError, match=r"^g.txt:1: the grid begun here has 4 rows"):
        parse_puzzles("\n".join(grid(GRADE1).splitlines()[:5]), "g.txt")
    with pytest.raises(BadPuzzleError, match=r"^g.txt:2: a puzzle is a line of 81 cells"):
        parse_puzzles(f"{GRADE1}\n12345\n", "g.txt")


def test_sudoku_solve_reads_several_files_and_stdin(tmp_path):
    puzzles = [INSTANCES["grade2"], INSTANCES["grade3"]]  # quick for the reference solver
    (tmp_path / "grade1.txt").write_text(grid(GRADE1))
    result = run(
        "sudoku", "solve", "--file", "grade1.txt", "-", "--backend", "cnf", "--json",
        stdin="\n".join(puzzles) + "\n", cwd=tmp_path,
    )  # fmt: skip
    answers = [json.loads(line) for line in result.out.splitlines()]
    assert result.code == 0
    assert [a["instance"] for a in answers] == ["grade1", "stdin:1", "stdin:2"]
    for answer, puzzle in zip(answers, [GRADE1, *puzzles], strict=True):
        assert answer["solution"] == solutions(puzzle, cap=2)[0] and answer["unique"] is True
    bad = run("sudoku", "solve", "--file", "-", stdin=f"{GRADE1}\n{GRADE1[:80]}9\n")
    assert bad.code == 2 and bad.one_sentence_error("<stdin>:2", "9 appears twice")


def test_sudoku_bench_reads_grids_and_writes_the_solutions(tmp_path):
    text = f"# a grid, one without solution, a line\n{grid(GRADE1)}{NO_SOLUTION}\n{GRADE1}\n"
    result = run(
        "sudoku", "bench", "-", "--backend", "cpsat", "--solutions", "out.txt", "--json",
        stdin=text, cwd=tmp_path,
    )  # fmt: skip
    assert result.code == 1  # a puzzle without solution
    assert result.json()["backends"]["cpsat"]["puzzles"] == 3
    solved = solutions(GRADE1, cap=1)[0]
    assert (tmp_path / "out.txt").read_text().splitlines() == [
        solved,
        "# <stdin>:12: no solution (proved)",
        solved,
    ]


@pytest.mark.parametrize("command", ["lint", "verify", "play"])
def test_an_endless_rule_sheet_is_refused_in_one_sentence(tmp_path, command):
    sheet = tmp_path / "endless.kif"
    sheet.symlink_to("/dev/zero")
    result = run(command, sheet)
    assert result.code == 2
    assert result.one_sentence_error(f"cannot read {sheet}: it holds more than 64 MiB")
