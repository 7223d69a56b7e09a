"""The grounder against the reasoner on real rule sheets: a seeded sample of the GGP corpus
(../shared/data/ggp, skipped when absent), each ground system played step by step next to the
reasoner on random playouts. Slow: run with `pytest -m slow`."""

import random
from pathlib import Path

import pytest

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.checks import is_gdl_ii, lint_file
from gamecheck.gdl.datalog import TooLarge
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.ground_game import GroundGame
from gamecheck.solvers.ground.grounder import ground
from tests.gdl_differential import assert_same_game

CORPUS = Path(__file__).parents[1] / ".." / "shared" / "data" / "ggp"
SAMPLE = 12
GROUND_SECONDS = 60


def sample() -> list[Path]:
    sheets = sorted(CORPUS.rglob("*.kif")) if CORPUS.is_dir() else []
    return random.Random(11).sample(sheets, min(SAMPLE, len(sheets)))


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="the GGP corpus (../shared/data/ggp) is absent")
@pytest.mark.parametrize("path", sample(), ids=lambda path: path.stem)
def test_ground_corpus_sheet_plays_like_the_reasoner(path):
    if any(map(is_gdl_ii, lint_file(str(path)).errors)):
        pytest.skip(f"{path.stem} is a GDL-II sheet, which gamecheck refuses")
    sheet = GdlGame.from_file(path)
    try:
        system = ground(sheet.rules, path.stem, budget=Budget(GROUND_SECONDS))
    except (OutOfBudget, TooLarge) as stop:
        pytest.skip(f"{path.stem} does not ground here: {stop}")
    assert assert_same_game(GroundGame(system), sheet, playouts=3, seed=1, max_steps=60) > 0
