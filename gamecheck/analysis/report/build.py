"""Write the reports of some games into a directory, atomically.

Everything is built in a staging directory beside the target; only when every game and the
index are written are the new entries renamed into the target (a game's directory replaced
whole, files with os.replace). An error before that leaves the target as it was, and the
staging directory is removed; one left by a run that was killed (its name holds the process
id) is removed by the next run.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from importlib import metadata
from pathlib import Path

from matplotlib.figure import Figure
from tqdm import tqdm

from gamecheck.analysis.replay import replay_line
from gamecheck.analysis.report import plots, tables
from gamecheck.analysis.report.boards import board_figure
from gamecheck.analysis.report.gather import GameResults, gather_game
from gamecheck.analysis.report.index import SUMMARY, TIMINGS, game_rows, index_text
from gamecheck.analysis.report.markdown import game_report
from gamecheck.analysis.report.settings import SETTINGS
from gamecheck.errors import GamecheckError
from gamecheck.models.sudoku import SudokuState

MACHINE_DEPENDENT_FILES = frozenset(
    {"solver_figures.csv", "encoding.csv", TIMINGS, "solver_times.png"}
)
"""Files of a game's directory that depend on the machine (times, time-limited answers)."""
MANIFEST = "manifest.json"
PACKAGES = ("python-sat", "ortools", "pandas", "matplotlib", "numpy")
PACKAGE = Path(__file__).resolve().parents[2]
"""The directory of the gamecheck package."""


def build_reports(
    names: Sequence[str], out: str, *, mode: str, seed: int, progress: bool = True
) -> Path:
    """Write the reports of `names` and the index into `out`; the index's path."""
    target = Path(out)
    staging = staging_directory(target)
    try:
        sources = source_hashes()  # the code as it is when the run starts
        bar = tqdm(names, desc="report", unit="game", file=sys.stderr, disable=not progress)
        gathered = [
            gather_game(
                name,
                mode=mode,
                seed=seed,
                settings=SETTINGS[mode][name],
                progress=_stage_shower(bar, name),
            )
            for name in bar
        ]
        bar.close()
        sources = source_hashes(known=sources)
        for results in gathered:
            write_game(results, staging, sources)
        rows = game_rows([staging, target])
        (staging / "README.md").write_text(index_text(rows))
        rows.drop(columns=["wall time (s)"]).to_csv(staging / SUMMARY, index=False)
        _move_into_place(staging, target)
    except OSError as error:
        raise GamecheckError(f"cannot write reports to {out}: {error.strerror or error}") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return target / "README.md"


def _stage_shower(bar: tqdm, name: str) -> Callable[[str], None]:
    return lambda stage: bar.set_postfix_str(f"{name}: {stage}")


def write_game(results: GameResults, directory: Path, sources: dict[str, str]) -> None:
    """`<game>.md` and the directory `<game>/` with its CSV tables, plots and manifest."""
    name = results.name
    files = directory / name
    files.mkdir()
    csv_tables = {
        "verification.csv": tables.verification_table(results.verification),
        "playouts.csv": results.stats.playouts,
        "branching.csv": tables.branching_counts(results),
        "outcomes.csv": tables.observed_outcomes(results),
        "lines.csv": tables.line_steps(results.verification),
        "balance.csv": tables.balance_rows(results),
        "openings.csv": tables.opening_rows(results),
        "solver_figures.csv": tables.solver_figures(results),
        "encoding.csv": tables.encoding_sizes(results),
        TIMINGS: tables.timings(results),
        SUMMARY: tables.summary_table(results),
    }
    if results.forced_wins:
        csv_tables["forced_wins.csv"] = tables.forced_wins(results)
        csv_tables["endgames.csv"] = tables.endgame_rows(results)
        csv_tables["endgame_shares.csv"] = tables.endgame_shares(results)
    if results.sudoku is not None:
        csv_tables["instances.csv"] = tables.sudoku_instances(results.sudoku)
    for file, table in csv_tables.items():
        table.to_csv(files / file, index=False)
    figures = {
        "lengths.png": plots.length_histogram(name, results.stats.playouts["length"]),
        "branching.png": plots.branching_histogram(name, csv_tables["branching.csv"]),
        "outcomes.png": plots.outcome_shares(name, results.game.roles, csv_tables["outcomes.csv"]),
        "balance.png": plots.win_shares(name, csv_tables["balance.csv"]),
        "solver_times.png": plots.solver_times(name, csv_tables["solver_figures.csv"]),
    }
    if results.forced_wins:
        figures["endgames.png"] = plots.endgame_shares(name, csv_tables["endgame_shares.csv"])
    figures |= _board_figures(results)
    openings = csv_tables["openings.csv"]
    for play, rows in openings.groupby("play", sort=False):
        figures[f"openings_{play.lower()}.png"] = plots.opening_heat_map(
            name, results.game.roles, rows
        )
    for file, figure in figures.items():
        plots.save(figure, files / file)
    (files / MANIFEST).write_text(json.dumps(manifest(results, sources), indent=1) + "\n")
    (directory / f"{name}.md").write_text(game_report(results))


def _board_figures(results: GameResults) -> dict[str, Figure]:
    """The board each line of play shown ends on, for games that draw boards; for sudoku
    also the puzzle and its solution."""
    game = results.game
    figures = {}
    for witness, title in tables.unique_witnesses(results.verification).items():
        board = game.board(replay_line(game, witness).states[-1])
        if board is not None:
            figures[tables.board_file(title)] = board_figure(board, f"{title}: final board")
    if results.sudoku is not None:
        answer = results.sudoku.answer
        grids = {"puzzle": answer.game.givens, "solution": (answer.solutions or [None])[0]}
        for title, cells in grids.items():
            if cells is not None:
                board = answer.game.board(SudokuState(tuple(cells)))
                figures[f"sudoku-{title}.png"] = board_figure(board, f"sudoku {title}")
    return figures


def manifest(results: GameResults, sources: dict[str, str]) -> dict:
    """What the report was made from: run, seed, budgets, package versions, and the hashes
    of the source files of gamecheck it ran (`source_hashes`)."""
    return {
        "game": results.name,
        "run": results.mode,
        "seed": results.seed,
        "settings": results.settings.to_json(),
        "versions": {"python": sys.version.split()[0]}
        | {package: metadata.version(package) for package in PACKAGES},
        "sources": sources,
    }


def source_hashes(known: dict[str, str] | None = None) -> dict[str, str]:
    """sha256 of each loaded module of gamecheck (the command line left out) and of each
    rule sheet, by path from the package's parent (`gamecheck/models/ttcc4.py`); files in
    `known` keep the hash given there (taken when the run started)."""
    known = known or {}
    paths = set((PACKAGE / "models" / "rules").glob("*.kif"))
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if file is None:
            continue
        path = Path(file).resolve()
        if path.is_relative_to(PACKAGE) and not path.is_relative_to(PACKAGE / "cli"):
            paths.add(path)
    files = sorted(str(path.relative_to(PACKAGE.parent)) for path in paths)
    return {file: known.get(file) or file_hash(PACKAGE.parent / file) for file in files}


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def staging_directory(target: Path) -> Path:
    """A new empty directory beside `target`, after checking that `target` can be written."""
    out = str(target)
    if target.exists() and not target.is_dir():
        raise GamecheckError(f"cannot write reports to {out}: it is not a directory")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists() and not os.access(target, os.W_OK):
            raise PermissionError(13, "Permission denied")
        _remove_stale_staging(target)
        return Path(
            tempfile.mkdtemp(prefix=f"{_staging_prefix(target)}{os.getpid()}-", dir=target.parent)
        )
    except OSError as error:
        raise GamecheckError(f"cannot write reports to {out}: {error.strerror or error}") from None


def _staging_prefix(target: Path) -> str:
    return f".{target.name}.staging-"


def _remove_stale_staging(target: Path) -> None:
    """Remove the staging directories beside `target` whose run has ended (killed before it
    could clean up): those whose process id is no longer a running process."""
    prefix = _staging_prefix(target)
    for entry in target.parent.glob(f"{prefix}*"):
        pid = entry.name.removeprefix(prefix).split("-")[0]
        if entry.is_dir() and not (pid.isdigit() and _running(int(pid))):
            shutil.rmtree(entry, ignore_errors=True)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user
        return True
    return True


def _move_into_place(staging: Path, target: Path) -> None:
    """Rename every entry of `staging` into `target`, replacing entries of the same name."""
    target.mkdir(exist_ok=True)
    replaced = staging / ".replaced"
    replaced.mkdir()
    for entry in sorted(staging.iterdir()):
        if entry == replaced:
            continue
        destination = target / entry.name
        if entry.is_dir() and destination.exists():
            destination.rename(replaced / entry.name)
        os.replace(entry, destination)
