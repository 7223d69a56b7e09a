"""A solver's model read in place (solvers/sat.Model) answers as the set of its true
variables did: membership, iteration, the truth array, and `holds` on literals."""

from hypothesis import given
from hypothesis import strategies as st

from gamecheck.solvers.sat import Clauses, Model, holds

signs = st.lists(st.booleans(), max_size=40)


@given(signs)
def test_model_reads_as_the_set_of_its_true_variables(signs):
    literals = [v if true else -v for v, true in enumerate(signs, start=1)]
    true = {literal for literal in literals if literal > 0}
    model = Model(literals)
    for variable in range(-2, len(literals) + 3):  # past the list's end: false
        assert (variable in model) == (variable in true)
    assert list(model) == sorted(true)
    assert [v for v, value in enumerate(model.truth()) if value] == sorted(true)
    for literal in [*literals, *(-literal for literal in literals)]:
        assert holds(literal, model) == holds(literal, true)


def test_a_solved_model_satisfies_its_clauses():
    with Clauses() as cnf:
        a, b, c = (cnf.new_variable() for _ in range(3))
        cnf.add([-a])
        cnf.add([a, b])
        cnf.add([-b, -c])
        model = cnf.solve()
        assert (holds(a, model), holds(b, model), holds(c, model)) == (False, True, False)
        assert cnf.solve([c]) is False
