"""Houdini's induction a batch at a time (solvers/ground/invariants.py): what it proves holds
in every reachable state however early its budget ends, and a budget too short for one run
over all the candidates still proves the batches it finished.

A budget that ends after a given number of SAT calls stands for a short time limit: the
solver is asked through the unrolling, and the call past the last one raises OutOfBudget as
a deadline would, so the tests do not depend on the speed of the machine."""

from dataclasses import replace
from pathlib import Path

import pytest

from gamecheck.budget import Budget, OutOfBudget
from gamecheck.gdl.terms import term_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground import induction, invariants
from gamecheck.solvers.ground.circuit import value
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.induction import Induction
from gamecheck.solvers.ground.invariant_kinds import StateInvariant
from gamecheck.solvers.ground.joint_houdini import houdini_by_cases
from gamecheck.solvers.ground.sampling import random_playouts
from gamecheck.solvers.ground.unroll_cnf import CnfUnrolling
from tests.game_checks import every_reachable_state

SHEETS = Path(__file__).parent / "data" / "gdl"


def small_tictactoe() -> GdlGame:
    """Tic-tac-toe on two rows of three (the third row's cells are never there): three in
    a row wins, and the 265 reachable states are quick to enumerate."""
    text = (SHEETS / "tictactoe.kif").read_text()
    third_row = "(init (cell 3 1 b)) (init (cell 3 2 b)) (init (cell 3 3 b))"
    assert third_row in text
    return GdlGame.from_text(text.replace(third_row, ""), "tictactoe 2 x 3")


def sheet_named(name: str) -> GdlGame:
    return (
        small_tictactoe()
        if name == "small tictactoe"
        else GdlGame.from_file(SHEETS / f"{name}.kif")
    )


def capped_unrolling(calls: int | None):
    """A CnfUnrolling whose budget ends after `calls` SAT calls (None: never)."""

    class Capped(CnfUnrolling):
        made = 0

        def satisfiable(self, literals, budget):
            if calls is not None and Capped.made >= calls:
                raise OutOfBudget("the SAT calls allowed ran out")
            Capped.made += 1
            return super().satisfiable(literals, budget)

    return Capped


class Reachable:
    """Every reachable state, enumerated by the reasoner (not by the grounded circuit that
    the proofs use), and the circuit's values in them (evaluated again once the proofs have
    added nodes to the circuit)."""

    def __init__(self, sheet: GdlGame, system):
        index = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}
        self.states = [
            {index[term_text(f)] for f in state} for state in every_reachable_state(sheet)
        ]
        self.system = system
        self.values = []

    def hold(self, candidate: StateInvariant) -> bool:
        if abs(candidate.literal) >= len(self.values[0] if self.values else ()):
            self.values = [self.system.evaluate(state) for state in self.states]
        return all(value(v, candidate.literal) for v in self.values)


@pytest.mark.parametrize(
    ("sheet_name", "playouts", "steps"),
    [("small tictactoe", 4, 4), ("hanoi", 4, 12), ("captures", 3, 3)],
)
def test_invariants_proved_with_a_short_budget_hold_in_every_reachable_state(
    monkeypatch, sheet_name, playouts, steps
):
    # Few playouts: many candidates are only true of the few states sampled, so the proofs
    # have wrong guesses to reject, whenever the budget ends.
    sheet = sheet_named(sheet_name)
    system = ground(sheet.rules, sheet_name)
    reachable = Reachable(sheet, system)
    sampled = random_playouts(system, playouts, max_steps=steps, seed=2)
    monkeypatch.setattr(invariants, "PLAYOUTS", playouts)
    full = invariants.find_invariants(system, playouts=sampled)
    assert full.statistics["candidates"] > full.statistics["state_invariants"] > 0
    proved_counts = set()
    for calls in (0, 1, 2, 3, 5, 8, 13, 21, None):
        monkeypatch.setattr(invariants, "CnfUnrolling", capped_unrolling(calls))
        found = invariants.find_invariants(system, playouts=sampled)
        for invariant in found.state:
            assert reachable.hold(invariant), (calls, invariant.description)
        proved_counts.add(len(found.state))
    assert len(proved_counts) > 2, "the caps should cut the proofs at different points"


def tictactoe_candidates(system):
    """Hand-made candidates for tic-tac-toe on two rows, in three families:

    * control: at most one and at least one role in control. The next control is the
      opponent of the current one, so each is kept by every step: inductive on its own.
    * a cell: at most one of x, o and b in cell (1 1). Not inductive on its own: from a
      state where both roles are in control, x marks (1 1) while o marks (1 2), and cell
      (1 1) gets x and keeps b (a cell keeps its mark when a mark goes elsewhere). With
      exactly one role in control it is kept: a marked cell is not marked again, and a
      cell marked now loses b, since the only mark of the step is there.
    * blank: each cell stays blank. True initially, not invariant; with one role in
      control, one cell is marked per step, so a model breaks one of them at a time.
    """
    index = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}

    def node(text):
        return system.fluent_nodes[index[text]]

    circuit = system.circuit
    controls = [node("(control xplayer)"), node("(control oplayer)")]
    control = [
        StateInvariant(circuit.at_most_one(controls), "at most one in control", "control"),
        StateInvariant(circuit.disj(controls), "someone in control", "control"),
    ]
    cell = circuit.at_most_one([node(f"(cell 1 1 {mark})") for mark in "xob"])
    a_cell = [StateInvariant(cell, "at most one mark in (1 1)", "a cell")]
    blank = [
        StateInvariant(node(f"(cell {m} {n} b)"), f"({m} {n}) stays blank", "blank")
        for m in (1, 2)
        for n in (1, 2, 3)
    ]
    return control, a_cell, blank


def prove(system, candidates, calls: int | None):
    """The candidates proved within `calls` SAT calls, and the calls made."""
    unrolling_class = capped_unrolling(calls)
    with unrolling_class(system, free_start=True) as unrolling:
        prover = Induction(system, unrolling)
        proved = prover.houdini(candidates, budget=Budget())
    return {c.description for c in proved}, prover.statistics


def test_batches_prove_what_one_run_over_all_candidates_cannot_within_the_budget():
    sheet = small_tictactoe()
    system = ground(sheet.rules, "tictactoe")
    control, a_cell, blank = tictactoe_candidates(system)
    candidates = control + a_cell + blank
    reachable = Reachable(sheet, system)
    invariant = {c.description for c in candidates if reachable.hold(c)}
    assert invariant == {
        "at most one in control",
        "someone in control",
        "at most one mark in (1 1)",
    }

    # One run over everything (a single family): the control candidates are assumed, so one
    # blank cell is broken per model: 6 SAT answers, then UNSAT, 7 calls in all.
    as_one = [replace(c, family="all") for c in candidates]
    proved, statistics = prove(system, as_one, None)
    assert (proved, statistics["houdini_sat_calls"]) == (invariant, 7)
    assert prove(system, as_one, 6)[0] == set()

    # A batch at a time, the smallest first: (1 1) alone is broken (1 call), control is
    # proved (1 call, UNSAT), the blanks are broken one a call (6), then the last run over
    # what is left keeps (1 1) under the proved control (6 calls breaking the blanks again,
    # then UNSAT): 15 calls. Six calls end in the blanks' batch, with control proved.
    proved, statistics = prove(system, candidates, None)
    assert (proved, statistics["houdini_sat_calls"]) == (invariant, 15)
    assert statistics["houdini_batches"] == statistics["houdini_batches_proved"] == 3
    assert (statistics["houdini_together_proved"], statistics["houdini_together_calls"]) == (1, 7)
    proved, statistics = prove(system, candidates, 6)
    assert proved == {"at most one in control", "someone in control"}
    assert statistics["houdini_batches_proved"] == 2


def test_a_batch_inductive_only_with_a_later_one_is_proved_by_the_last_run():
    system = ground(small_tictactoe().rules, "tictactoe")
    control, a_cell, _ = tictactoe_candidates(system)
    assert prove(system, a_cell, None)[0] == set()
    # (1 1) comes first (the smallest batch) and falls; control is proved next; the last
    # run, with control assumed, keeps (1 1).
    proved, statistics = prove(system, a_cell + control, None)
    assert proved == {"at most one in control", "someone in control", "at most one mark in (1 1)"}
    assert statistics["houdini_sat_calls"] == 3
    assert (statistics["houdini_together_proved"], statistics["houdini_together_calls"]) == (1, 1)


class FirstBatchOutOfTime(Budget):
    """No time limit, except that the first batch's share of it is over at once."""

    parts = 0

    def part(self, seconds=None, *, share=None):
        self.parts += 1
        return Budget(0) if self.parts == 1 else super().part(seconds, share=share)


def test_a_batch_out_of_its_share_of_time_is_tried_again_by_cases_after_the_others():
    system = ground(small_tictactoe().rules, "tictactoe")
    control, a_cell, blank = tictactoe_candidates(system)
    with CnfUnrolling(system, free_start=True) as unrolling:
        prover = Induction(system, unrolling)
        proved = prover.houdini(a_cell + control + blank, budget=FirstBatchOutOfTime())
    # (1 1), the smallest batch, runs out of its share; control is proved, the blanks are
    # not; then (1 1) is tried again one joint action at a time, with control assumed, and
    # proved on that try.
    assert [c.description for c in proved] == [
        "at most one in control",
        "someone in control",
        "at most one mark in (1 1)",
    ]
    assert prover.statistics["houdini_batches_deferred"] == 1
    assert prover.statistics["houdini_batches_by_cases"] == 1
    # Calls over the whole step: 1 cut short, 1 for control (UNSAT), 6 breaking the blanks
    # one at a time, 6 breaking them in the last run (which ends when none is left); none
    # for (1 1), proved by cases. Had it fallen there, the whole step would have been asked.
    assert prover.statistics["houdini_sat_calls"] == 14


def test_batches_cut_short_on_their_first_try_are_all_proved_on_the_second(monkeypatch):
    monkeypatch.setattr(induction, "FIRST_TRY_SECONDS", 0.0)  # every first try ends at once
    system = ground(small_tictactoe().rules, "tictactoe")
    control, a_cell, _ = tictactoe_candidates(system)
    with CnfUnrolling(system, free_start=True) as unrolling:
        prover = Induction(system, unrolling)
        proved = prover.houdini(a_cell + control, budget=Budget())
    # Each batch is tried again one joint action at a time and proved there: the same
    # invariants as where the first tries have time (the test above).
    assert {c.description for c in proved} == {
        "at most one in control",
        "someone in control",
        "at most one mark in (1 1)",
    }
    batches = prover.statistics["houdini_batches"]
    assert batches > 1
    assert prover.statistics["houdini_batches_deferred"] == batches
    assert prover.statistics["houdini_batches_by_cases"] == batches


def test_by_cases_houdini_keeps_what_every_joint_action_keeps():
    # By hand (tictactoe_candidates): with control proved, a joint action marks one blank
    # cell, so (1 1) keeps at most one mark and every blank candidate falls; without it, x
    # may mark (1 1) while o marks (1 2), and (1 1) gets x and keeps b; control with (1 1)
    # as candidates: control is kept by every step, and then (1 1) with it.
    system = ground(small_tictactoe().rules, "tictactoe")
    control, a_cell, blank = tictactoe_candidates(system)

    def kept(candidates, proved):
        found = houdini_by_cases(system, candidates, proved, Budget())
        return {candidate.description for candidate in found}

    assert kept(a_cell + blank, control) == {"at most one mark in (1 1)"}
    assert kept(a_cell, []) == set()
    assert kept(a_cell + control, []) == {
        "at most one in control",
        "someone in control",
        "at most one mark in (1 1)",
    }


def test_one_cell_of_a_grid_is_proved_over_both_coordinates():
    # walker.kif: the walker stands on exactly one cell of the 3 x 3 grid in every state (by
    # hand: one (at x y) initially, and each step replaces it by the one cell it goes to).
    # No one coordinate says so: (at 1 _) holds up to one cell, (at _ _) exactly one.
    sheet = GdlGame.from_file(SHEETS / "walker.kif")
    system = ground(sheet.rules, "walker")
    found = invariants.find_invariants(system, seed=1)
    proved = {invariant.description: invariant for invariant in found.state}
    assert {"at most one (at _ _)", "some (at _ _)"} <= set(proved)
    reachable = Reachable(sheet, system)
    assert reachable.hold(proved["at most one (at _ _)"]) and reachable.hold(
        proved["some (at _ _)"]
    )
    index = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}
    at = [i for name, i in index.items() if name.startswith("(at ")]
    assert len(at) == 9 and all(len(set(at) & state) == 1 for state in reachable.states)
