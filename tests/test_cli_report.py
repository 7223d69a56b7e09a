"""`gamecheck report`: what is cheap to check without writing a report (a report takes
minutes; tests/test_report.py writes a tiny one): names, and the staging directory."""

from __future__ import annotations

import os
import subprocess
import sys

from gamecheck.analysis.report.build import staging_directory
from gamecheck.cli import main


def test_unknown_game_exits_2_before_any_work(capsys, tmp_path):
    assert main(["report", "nosuchgame", "--out", str(tmp_path / "reports")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gamecheck: error: unknown game 'nosuchgame'")
    assert list(tmp_path.iterdir()) == []


def test_staging_left_by_a_killed_run_is_removed_by_the_next(tmp_path):
    ended = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    dead = int(ended.stdout)  # the process has ended: nobody cleans its staging up
    killed = tmp_path / f".quick.staging-{dead}-abcd"
    old_style = tmp_path / ".quick.staging-k2j4x8"  # named before staging held a pid
    running = tmp_path / f".quick.staging-{os.getppid()}-efgh"  # a run still going
    unrelated = tmp_path / ".other.staging-1-x"
    for directory in (killed, old_style, running, unrelated):
        (directory / "tictacchess").mkdir(parents=True)
    new = staging_directory(tmp_path / "quick")
    assert new.name.startswith(f".quick.staging-{os.getpid()}-") and new.is_dir()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [new.name, running.name, unrelated.name]
    )
