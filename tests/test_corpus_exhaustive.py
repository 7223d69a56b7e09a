"""The exhaustive search against the solver on real rule sheets: in a seeded sample of the
GGP corpus (../shared/data/ggp, skipped when absent), every sheet whose reachable states can
be listed is verified both ways, and every answer the solver settles must be the list's.
Slow: run with `pytest -m slow`."""

import random
from pathlib import Path

import pytest

from gamecheck.analysis.verify.exhaustive import EXHAUSTIVE
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.results import PROVED, UNKNOWN
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.checks import is_gdl_ii, lint_file
from gamecheck.gdl.datalog import TooLarge
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.explore import TooManyStates, explore, worth_listing
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.sampling import random_playouts

CORPUS = Path(__file__).parents[1] / ".." / "shared" / "data" / "ggp"
SAMPLE = 30
LIST_SECONDS = 5
VERIFY_SECONDS = 60


def listable(path: Path) -> bool:
    """Whether the sheet's reachable states can be listed within LIST_SECONDS."""
    if any(map(is_gdl_ii, lint_file(str(path)).errors)):
        return False
    budget = Budget(LIST_SECONDS)
    try:
        system = ground(GdlGame.from_file(path).rules, path.stem, budget=budget)
        playouts = random_playouts(system, 256, max_steps=300, budget=budget)
        if playouts.circuit is None or not worth_listing(playouts):
            return False
        explore(system, playouts.compiled(system), budget)
    except (OutOfBudget, TooLarge, TooManyStates):
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="the GGP corpus (../shared/data/ggp) is absent")
def test_listed_corpus_sheets_get_the_solvers_settled_answers():
    sheets = random.Random(5).sample(sorted(CORPUS.rglob("*.kif")), SAMPLE)
    compared = []
    for path in filter(listable, sheets):
        by_list = verify_game(str(path), time_limit=VERIFY_SECONDS)
        if by_list.backend != EXHAUSTIVE:
            continue  # listed in LIST_SECONDS here, not within verify's share of its time
        by_solver = verify_game(str(path), time_limit=VERIFY_SECONDS, exhaustive=False)
        assert by_list.outcomes.complete, path.stem
        answers = by_list.answers()
        for question, answer in by_solver.answers().items():
            # without a proved longest game, "proved" and "none" hold to the horizon only
            if answer.status != UNKNOWN and (by_solver.complete or answer.witness):
                listed = answers[question]
                assert listed.status == answer.status, f"{path.stem}: {question}"
                if question == "termination" and answer.status == PROVED:
                    # the solver's bound, where its longest game is unknown, may lie above
                    assert listed.value <= answer.value, path.stem
                else:
                    assert listed.value == answer.value, f"{path.stem}: {question}"
        if by_solver.outcomes.complete:
            assert set(by_list.outcomes.vectors) == set(by_solver.outcomes.vectors), path.stem
        compared.append(path.stem)
    assert len(compared) >= 3, f"only {compared} could be listed"
