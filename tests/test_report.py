"""`gamecheck report`: the committed reports are current, the Markdown and plots are well
formed, bad arguments exit 2, and an error mid-way leaves the previous report intact."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from gamecheck.analysis.report import build, plots, tables
from gamecheck.analysis.report.build import (
    MACHINE_DEPENDENT_FILES,
    MANIFEST,
    build_reports,
    file_hash,
)
from gamecheck.analysis.report.gather import gather_game
from gamecheck.analysis.report.markdown import (
    MACHINE_DEPENDENT_END,
    MACHINE_DEPENDENT_START,
    game_report,
)
from gamecheck.analysis.report.settings import QUICK, QUICK_SETTINGS, GameSettings, cuts
from gamecheck.analysis.verify.results import Verification
from gamecheck.cli import main
from gamecheck.models import builtin_names
from gamecheck.solvers.forced_win.search import Status

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "reports"
COMMITTED_QUICK = COMMITTED / "quick"
REGENERATE = "run `gamecheck report --quick` and commit reports/quick"

# Budgets small enough for the fast tests. With at most 4 steps nobody completes a line in
# tictacchess (each role moves once every 3 steps and a line needs 3 pieces moved into the
# centre), so no game ends within the horizon.
_TINY = GameSettings(
    playouts=20,
    horizon=4,
    verify_time_limit=60.0,
    cpsat_time_limit=60.0,
    forced_win_nodes=2000,
    forced_win_time_limit=60.0,
    endgame_playouts=3,
    endgame_befores=(1, 2),
    endgame_nodes=2000,
    endgame_time_limit=60.0,
    uct_playouts=3,
    uct_iterations=10,
    opening_playouts=3,
    opening_uct_playouts=1,
)
TINY = {
    "tictacchess": _TINY,
    "sudoku": dataclasses.replace(
        _TINY,
        playouts=5,
        horizon=2,
        cpsat_time_limit=None,
        sudoku_count_cap=3,
        uct_playouts=0,
        opening_playouts=0,
        opening_uct_playouts=0,
    ),
}


@pytest.fixture(scope="module")
def tiny_results():
    return {
        name: gather_game(name, mode=QUICK, seed=0, settings=settings)
        for name, settings in TINY.items()
    }


def build_tiny(tiny_results, out: Path, names=tuple(TINY)) -> None:
    """build_reports with the tiny results in place of running the analyses again."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(build, "gather_game", lambda name, **_: tiny_results[name])
        build_reports(list(names), str(out), mode=QUICK, seed=0, progress=False)


@pytest.fixture(scope="module")
def tiny_report(tiny_results, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("tiny") / "reports"
    build_tiny(tiny_results, out)
    return out


def snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


# -- Markdown well formed ------------------------------------------------------------------
def markdown_problems(path: Path) -> list[str]:
    """Tables whose rows do not all have the header's number of cells or lack the separator
    row, and links (images: PNG files) to files that do not exist."""
    problems = []
    lines = path.read_text().splitlines()
    table: list[str] = []
    for line in [*lines, ""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            widths = {len(re.split(r"(?<!\\)\|", row)) for row in table}
            separator = len(table) > 1 and re.fullmatch(r"\|( --- \|)+", table[1])
            if len(widths) != 1 or not separator:
                problems.append(f"{path.name}: malformed table starting {table[0]!r}")
            table = []
    text = path.read_text()
    for image in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text):
        if not image.endswith(".png") or not (path.parent / image).is_file():
            problems.append(f"{path.name}: image {image} is not an existing PNG")
    for link in re.findall(r"(?<!!)\[[^\]]*\]\(([^)]+)\)", text):
        if not (path.parent / link).exists():
            problems.append(f"{path.name}: link to missing {link}")
    return problems


def test_tiny_markdown_is_well_formed(tiny_report):
    files = sorted(tiny_report.glob("*.md"))
    assert [f.name for f in files] == ["README.md", "sudoku.md", "tictacchess.md"]
    assert [problem for f in files for problem in markdown_problems(f)] == []


@pytest.mark.parametrize("directory", [COMMITTED, COMMITTED_QUICK], ids=["full", "quick"])
def test_committed_markdown_is_well_formed(directory):
    files = sorted(directory.glob("*.md"))
    if directory == COMMITTED and not files:
        pytest.skip("no full run committed")
    assert {f.stem for f in files} == {"README", *builtin_names()}
    assert [problem for f in files for problem in markdown_problems(f)] == []


def test_the_tables_need_the_separator_row(tmp_path):
    broken = tmp_path / "broken.md"
    broken.write_text("| a | b |\n| 1 | 2 |\n\n![x](missing.png)\n")
    assert len(markdown_problems(broken)) == 2


# -- what the reports say ------------------------------------------------------------------
def test_tictacchess_report_shows_answers_within_the_horizon(tiny_report):
    text = (tiny_report / "tictacchess.md").read_text()
    for heading in [
        "## Rules in brief",
        "## Description vs rules",
        "## Verification",
        "### Outcome set",
        "## Forced wins",
        "## Random playouts",
        "## Solver figures",
    ]:
        assert f"\n{heading}\n" in text
    assert "spawn" in text and "king step" in text  # the two description findings
    assert "**Not every game is proved to end within the horizon**" in text
    verification = pd.read_csv(tiny_report / "tictacchess" / "verification.csv")
    statuses = dict(zip(verification["question"], verification["status"], strict=True))
    assert statuses == {
        "termination": "proved",  # (step n) from 1, (step 31) ends it: 30, past the horizon
        "longest game": "unknown",
        "shortest game": "none",
        "playability": "proved",
        "goal definedness": "proved",
        "earliest win red": "none",
        "earliest win yellow": "none",
        "earliest win blue": "none",
    }
    assert (
        dict(zip(verification["question"], verification["value"], strict=True))["termination"] == 30
    )
    figures = pd.read_csv(tiny_report / "tictacchess" / "solver_figures.csv")
    assert set(figures["backend"]) == {"cnf", "cpsat"}


def test_forced_win_tables_cover_every_role_and_position(tiny_report):
    forced = pd.read_csv(tiny_report / "tictacchess" / "forced_wins.csv")
    assert list(forced["role"]) == ["red", "yellow", "blue"]
    # No game of tictacchess ends before step 7 (a line needs three moves of one role), so
    # each of the 3 playouts gives a position 1 and 2 steps before its end, for each role.
    shares = pd.read_csv(tiny_report / "tictacchess" / "endgame_shares.csv")
    assert list(zip(shares["K"], shares["role"], strict=True)) == [
        (k, role) for k in (1, 2) for role in ("red", "yellow", "blue")
    ]
    assert set(shares["positions"]) == {3}
    text = (tiny_report / "tictacchess.md").read_text()
    assert "### Endgame study" in text and "(tictacchess/endgames.png)" in text


def test_playout_tables_count_every_playout(tiny_report):
    outcomes = pd.read_csv(tiny_report / "tictacchess" / "outcomes.csv")
    playouts = pd.read_csv(tiny_report / "tictacchess" / "playouts.csv")
    branching = pd.read_csv(tiny_report / "tictacchess" / "branching.csv")
    assert outcomes["share, random"].sum() == pytest.approx(1) and len(playouts) == 20
    # Within the tiny horizon of 4 steps no game ends, so no outcome is proved reachable:
    # every outcome listed is one the playouts reached.
    assert set(outcomes["reachable"]) == {"seen in playouts"}
    assert list(playouts["seed"]) == list(range(20))
    assert branching["steps"].sum() == playouts["length"].sum()


def test_balance_counts_the_wins_of_the_playouts(tiny_report):
    balance = pd.read_csv(tiny_report / "tictacchess" / "balance.csv")
    playouts = pd.read_csv(tiny_report / "tictacchess" / "playouts.csv")
    random = balance[balance["play"] == "random"].set_index("role")
    for role in ("red", "yellow", "blue"):
        assert random.loc[role, "wins"] == (playouts[f"goal {role}"] == 100).sum()
        assert random.loc[role, "95% low"] <= random.loc[role, "win share"]
        assert random.loc[role, "win share"] <= random.loc[role, "95% high"]
    assert set(balance["play"]) == {"random", "UCT"}
    assert (balance[balance["play"] == "UCT"]["playouts"] == 3).all()


def test_openings_cover_every_first_move_of_tictacchess(tiny_report):
    # RULES.md: red moves first, and its legal first moves are the four of (move 1 4 ...)
    openings = pd.read_csv(tiny_report / "tictacchess" / "openings.csv")
    random = openings[openings["play"] == "random"]
    assert sorted(random["opening"]) == sorted(
        f"(move 1 4 {x} {y})" for x, y in ((2, 2), (2, 6), (3, 3), (3, 5))
    )
    assert (random["playouts"] == 3).all()


def test_sudoku_report_shows_the_instances(tiny_report):
    text = (tiny_report / "sudoku.md").read_text()
    assert "9 . . | . . . | . . 8" in text  # the first row of grade1 (RULES.md)
    assert "Unique: proved" in text
    instances = pd.read_csv(tiny_report / "sudoku" / "instances.csv").set_index("instance")
    assert list(instances.index) == [
        "grade1",
        "grade2",
        "grade3",
        "grade4",
        "grade5",
        "grade6E",
        "grade6H",
    ]
    assert instances.loc["grade1", "unique"] == "yes"
    assert instances.loc["grade1", "blanks"] == 81 - 31  # 31 givens in grade1's 81 characters
    assert instances.loc["grade6H", "unique"] == "no"
    assert instances.loc["grade6H", "solutions found"] == 3
    assert instances.loc["grade6H", "count"] == "at least (stopped at the cap)"


def test_times_appear_only_in_the_marked_parts(tiny_results):
    results = tiny_results["tictacchess"]
    slower = dataclasses.replace(
        results,
        seconds={part: seconds + 100 for part, seconds in results.seconds.items()},
        verifications={b: later(v) for b, v in results.verifications.items()},
    )
    text, slower_text = game_report(results), game_report(slower)
    assert text != slower_text
    assert text.count(MACHINE_DEPENDENT_START) == text.count(MACHINE_DEPENDENT_END) == 1
    assert strip_machine_dependent(text) == strip_machine_dependent(slower_text)


def later(result: Verification) -> Verification:
    """The same answers, every time 100 s longer."""
    copy = dataclasses.replace(
        result,
        longest_game=dataclasses.replace(result.longest_game, seconds=100.0),
        outcomes=dataclasses.replace(result.outcomes, seconds=100.0),
        earliest_win={
            role: dataclasses.replace(answer, seconds=100.0)
            for role, answer in result.earliest_win.items()
        },
        seconds=result.seconds + 100,
    )
    copy.invariant_statistics = {**result.invariant_statistics, "seconds": 100.0}
    return copy


def test_index_keeps_the_games_of_earlier_runs(tiny_results, tmp_path):
    out = tmp_path / "reports"
    build_tiny(tiny_results, out, ["tictacchess"])
    before = (out / "tictacchess.md").read_bytes()
    build_tiny(tiny_results, out, ["sudoku"])
    index = (out / "README.md").read_text()
    assert "[tictacchess](tictacchess.md)" in index and "[sudoku](sudoku.md)" in index
    assert (out / "tictacchess.md").read_bytes() == before
    assert len(pd.read_csv(out / "summary.csv")) == 2


# -- plots ---------------------------------------------------------------------------------
def test_plots_have_titles_and_axis_labels():
    figures = [
        plots.length_histogram("g", pd.Series([3, 5, 5, 9])),
        plots.branching_histogram("g", pd.DataFrame({"joint actions": [1, 4], "steps": [7, 2]})),
        plots.branching_histogram("g", pd.DataFrame({"joint actions": [1, 5000], "steps": [7, 2]})),
        plots.outcome_shares(
            "g",
            ("a", "b"),
            pd.DataFrame({"a": [100, 0], "b": [0, 100], "share, random": [0.7, 0.3]}),
        ),
        plots.win_shares(
            "g",
            pd.DataFrame(
                {
                    "play": ["random", "random"],
                    "role": ["a", "b"],
                    "win share": [0.7, 0.3],
                    "95% low": [0.5, 0.1],
                    "95% high": [0.9, 0.5],
                }
            ),
        ),
        plots.opening_heat_map(
            "g",
            ("a", "b"),
            pd.DataFrame({"opening": ["x", "y"], "a wins": [0.2, 0.9], "b wins": [0.8, 0.1]}),
        ),
        plots.solver_times(
            "g",
            pd.DataFrame(
                {
                    "backend": ["cnf", "cnf", "cpsat"],
                    "question": ["longest game", "playability", "longest game"],
                    "seconds": [1.5, 0.0, 12.0],
                }
            ),
        ),
    ]
    for figure in figures:
        axes = figure.axes[0]  # the heat map has its colour bar besides
        assert axes.get_title() and axes.get_xlabel() and axes.get_ylabel()


# -- bad arguments and atomicity -----------------------------------------------------------
def run(capsys, *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    return status, capsys.readouterr().err


def test_unknown_game_exits_2(capsys, tmp_path):
    status, err = run(capsys, "report", "chess", "--out", str(tmp_path / "r"))
    assert status == 2
    assert err.startswith("gamecheck: error: unknown game 'chess'") and err.count("\n") == 1
    assert not (tmp_path / "r").exists()


def test_unwritable_out_exits_2_before_any_work(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory\n")
    for out in (blocker, blocker / "reports"):
        status, err = run(capsys, "report", "tictacchess", "--quick", "--out", str(out))
        assert status == 2
        assert err.startswith(f"gamecheck: error: cannot write reports to {out}: ")
        assert err.count("\n") == 1
    assert blocker.read_text() == "not a directory\n"


def fail_in_second_gather(tiny_results, patch) -> None:
    def gather(name, **_):
        if name == "sudoku":
            raise RuntimeError("disk trouble")
        return tiny_results[name]

    patch.setattr(build, "gather_game", gather)


def fail_in_second_game_figures(tiny_results, patch) -> None:
    saved = []

    def save(figure, path):
        if len(saved) == 5:  # the second game's figures are being written
            raise RuntimeError("disk trouble")
        saved.append(path)
        plots.save(figure, path)

    patch.setattr(build, "gather_game", lambda name, **_: tiny_results[name])
    patch.setattr(build.plots, "save", save)


@pytest.mark.parametrize("failure", [fail_in_second_gather, fail_in_second_game_figures])
def test_an_error_mid_way_leaves_the_previous_report_intact(tiny_results, tmp_path, failure):
    out = tmp_path / "reports"
    build_tiny(tiny_results, out)
    before = snapshot(out)
    with pytest.MonkeyPatch.context() as patch:
        failure(tiny_results, patch)
        with pytest.raises(RuntimeError, match="disk trouble"):
            build_reports(list(TINY), str(out), mode=QUICK, seed=0, progress=False)
    assert snapshot(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports"]  # no staging left


def test_cubicup_endgame_study_agrees_with_the_playouts():
    # One step before the end of cubicup only (7 7 7) is empty: the controller fills it,
    # so a role can force a win from there exactly when the playout's own last move wins.
    directory = COMMITTED_QUICK / "cubicup"
    study = pd.read_csv(directory / "endgames.csv")
    last = study[study["before"] == 1]
    found = last[last["status"] == "found"].groupby("role").size()
    playouts = pd.read_csv(directory / "playouts.csv").set_index("seed")
    ended = playouts.loc[sorted(set(last["seed"]))]
    winners = {
        role: int((ended[f"goal {role}"] == 100).sum()) for role in ("yellow", "red", "green")
    }
    assert {role: int(found.get(role, 0)) for role in winners} == winners
    assert sum(winners.values()) > 0
    assert "### Endgame study" in (COMMITTED_QUICK / "cubicup.md").read_text()


# -- the committed reports are those of the current code -----------------------------------
@pytest.mark.parametrize("name", builtin_names())
def test_committed_quick_report_is_from_the_current_sources(name):
    manifest = json.loads((COMMITTED_QUICK / name / MANIFEST).read_text())
    assert (manifest["run"], manifest["seed"]) == (QUICK, 0)
    assert manifest["settings"] == QUICK_SETTINGS[name].to_json(), REGENERATE
    changed = [
        file
        for file, digest in manifest["sources"].items()
        if not (ROOT / file).is_file() or file_hash(ROOT / file) != digest
    ]
    assert changed == [], f"changed since reports/quick/{name} was made; {REGENERATE}"


def strip_machine_dependent(text: str) -> str:
    pattern = re.escape(MACHINE_DEPENDENT_START) + ".*?" + re.escape(MACHINE_DEPENDENT_END)
    return re.sub(pattern, "", text, flags=re.DOTALL)


def comparable(directory: Path, name: str) -> dict[str, bytes]:
    """A game's report files with what depends on the machine left out."""
    files = {f"{name}.md": strip_machine_dependent((directory / f"{name}.md").read_text()).encode()}
    for path in sorted((directory / name).iterdir()):
        if path.name not in MACHINE_DEPENDENT_FILES | {MANIFEST} and path.suffix != ".png":
            files[path.name] = path.read_bytes()
    return files


@pytest.mark.slow
@pytest.mark.parametrize("name", ["tictacchess", "ttcc4"])
def test_quick_report_regenerates_as_committed(name, tmp_path):
    # Games whose quick verify settles every answer well within its time limit, so that
    # nothing outside the machine-dependent parts depends on the machine.
    build_reports([name], str(tmp_path), mode=QUICK, seed=0, progress=False)
    assert comparable(tmp_path, name) == comparable(COMMITTED_QUICK, name)


def test_verify_lines_of_play_do_not_depend_on_the_hash_seed():
    # Reports must be the same in every process: Python's set order changes with the hash
    # seed, and must not reach the circuit the solvers see.
    def witnesses(hash_seed: str) -> list:
        sheet = str(ROOT / "tests" / "data" / "gdl" / "tictactoe.kif")
        command = [sys.executable, "-m", "gamecheck", "verify", sheet, "--json"]
        environment = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(command, capture_output=True, text=True, env=environment, cwd=ROOT)
        answer = json.loads(done.stdout)
        return [answer["outcomes"]["witnesses"], answer["shortest_game"]["witness"]]

    assert witnesses("1") == witnesses("2")


def test_a_quick_report_names_every_budget_it_lowered():
    """Each setting the quick run lowers for ttcc4 is said in one sentence with both figures:
    the quick settings ask 500 playouts, 120 s of verify, no CP-SAT, 100000 forced-win nodes,
    against the full run's 10000, 600 s, 300 s and 4000000 (ttcc4's own)."""
    notes = cuts("ttcc4", QUICK)
    assert "500 random playouts instead of 10000." in notes
    assert any("120 s for all its answers instead of 600 s" in note for note in notes)
    assert any("CP-SAT backend is skipped" in note for note in notes)
    assert any("after 100000 nodes instead of 4000000" in note for note in notes)
    assert any("K in 1, 2, 3, 4, 6, 8 instead of 1, 2, 3, 4, 5, 6, 8, 10, 12" in n for n in notes)
    assert cuts("ttcc4", "full") == []


def test_the_quick_run_says_it_skips_method_lines():
    # The full run gives tictactoe3d's method lines 3600 s; the quick run skips it, and no
    # other game runs it at all.
    assert any("method lines" in note and "3600 s" in note for note in cuts("tictactoe3d", QUICK))
    assert not any("method lines" in note for note in cuts("ttcc4", QUICK))


def test_a_strategys_steps_are_not_called_the_fewest(tiny_results):
    # Method lines reports the longest line of the strategy it found; a search, the fewest.
    results = tiny_results["tictacchess"]
    red, *others = results.forced_wins.values()
    lined = dataclasses.replace(red, status=Status.FOUND, depth=183, fewest=False)
    searched = dataclasses.replace(red, status=Status.FOUND, depth=7, fewest=True)
    for win, text, fewest in ((lined, "within 183 steps", "not proved"), (searched, "in 7", "yes")):
        shown = dataclasses.replace(results, forced_wins={"red": win})
        assert text in tables.summary_table(shown).iloc[0]["forced win from the start"]
        assert tables.forced_wins(shown).iloc[0]["fewest"] == fewest
