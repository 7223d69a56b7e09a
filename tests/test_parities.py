"""Parities (solvers/ground/parities.py): sets of fluents whose number that hold keeps its
parity. The null space of hand-made steps, and, on a small peg solitaire, that what is
proved holds in every state the GDL reasoner reaches and rules out what the colouring
argument rules out."""

from dataclasses import replace
from pathlib import Path

from gamecheck.budget import Budget
from gamecheck.gdl.terms import term_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.invariants import find_invariants
from gamecheck.solvers.ground.parities import _Basis, _bits
from gamecheck.solvers.ground.unroll import make_unrolling
from tests.game_checks import reachable_layers

SHEETS = Path(__file__).parent / "data" / "gdl"


def _span(vectors: list[int]) -> set[int]:
    span = {0}
    for vector in vectors:
        span |= {member ^ vector for member in span}
    return span


def test_the_null_space_of_jumps_on_a_line_is_its_colourings():
    # Jumps on a line of holes 0..4 flip {0,1,2}, {1,2,3} or {2,3,4}. By hand, v meets
    # each evenly where v0+v1+v2 = v1+v2+v3 = v2+v3+v4 = 0: v3 = v0, v4 = v1, v2 = v0+v1,
    # so the null space is spanned by {0,2,3} and {1,2,4} (holes of colours h mod 3, two
    # colours at a time: {0,3} with {2}, {1,4} with {2}).
    rows = _Basis()
    for jump in ({0, 1, 2}, {1, 2, 3}, {2, 3, 4}):
        assert rows.add(_bits(jump))
    assert not rows.add(_bits({0, 3}) ^ _bits({0, 1, 2}) ^ _bits({1, 2, 3}))  # in the span
    space = rows.null_space(_bits(range(5)))
    assert _span(space) == _span([_bits({0, 2, 3}), _bits({1, 2, 4})])


def _lone_peg(system, row: int, column: int) -> int:
    """The circuit literal of: a peg on (row, column) only."""
    literals = []
    for index, fluent in enumerate(system.fluents):
        text = term_text(fluent)
        if text.endswith(" peg)"):
            here = text == f"(cell {row} {column} peg)"
            node = system.fluent_nodes[index]
            literals.append(node if here else -node)
    return system.circuit.conj(literals)


def test_no_single_peg_is_left_on_a_4x4_board_by_the_parities_of_its_colours():
    # By hand from pegs_4x4.kif: colour hole (r, c) by (r + c) mod 3; a jump along a row or
    # a column flips three holes in a row, one of each colour, so each colour's number of
    # pegs changes parity at every jump. The full board has 5, 5 and 6 holes of colours
    # 0, 1, 2 ((1 1) is of colour 2): from 5, 5, 5 pegs, after the 14 jumps that would
    # leave one peg, each colour has an odd number: 3 pegs at least. So no state the
    # proved invariants allow has a lone peg; without the parities, a lone peg is allowed
    # somewhere (the solver knows no other reason against it).
    game = GdlGame.from_file(SHEETS / "pegs_4x4.kif")
    system = ground(game.rules, "pegs_4x4")
    found = find_invariants(system, seed=3)
    assert found.parities
    lone = [_lone_peg(system, r, c) for r in range(1, 5) for c in range(1, 5)]
    for invariants, possible in ((found, [False] * 16), (replace(found, parities=[]), None)):
        states = make_unrolling(system, "cnf", free_start=True)
        states.use_invariants(invariants)
        allowed = [states.state_possible(literal, Budget(30)) for literal in lone]
        if possible is None:
            assert any(allowed)
        else:
            assert allowed == possible


def test_the_parities_proved_hold_in_every_state_the_reasoner_reaches():
    game = GdlGame.from_file(SHEETS / "pegs_4x4.kif")
    system = ground(game.rules, "pegs_4x4")
    found = find_invariants(system, seed=3)
    assert found.parities
    index = {term_text(fluent): i for i, fluent in enumerate(system.fluents)}
    for layer in reachable_layers(game):
        for state in layer:
            true = {index[term_text(fact)] for fact in state}
            for parity in found.parities:
                assert (len(true.intersection(parity.fluents)) % 2 == 1) is parity.odd
