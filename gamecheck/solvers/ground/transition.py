"""A ground game as a propositional transition system over a circuit (solvers/ground/circuit.py).

Inputs of the circuit are the fluents (ground state facts) and the actions (one input per
role and ground action). Outputs: for every role and action a `legal` literal, for every
fluent a `next` literal, `terminal`, and for every role and goal value a `goal` literal.
`legal`, `terminal` and `goal` depend on fluents only; `next` on fluents and actions, and
only where every role does exactly one action (the grounder writes an OR of most of a role's
actions as the negation of the others: solvers/ground/action_sets.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from gamecheck.gdl.terms import Term, term_text
from gamecheck.solvers.ground.circuit import Circuit, value
from gamecheck.solvers.ground.layers import LayerPlan


@dataclass
class TransitionSystem:
    """Fluents, actions per role, and the Boolean definitions of the game's relations."""

    name: str
    roles: tuple[str, ...]
    circuit: Circuit
    fluents: tuple[Term, ...]
    fluent_nodes: tuple[int, ...]
    initial: frozenset[int]
    """Indexes (into `fluents`) of the fluents true in the initial state."""
    actions: tuple[tuple[Term, ...], ...]
    action_nodes: tuple[tuple[int, ...], ...]
    legal: tuple[tuple[int, ...], ...]
    next: tuple[int, ...]
    terminal: int
    goals: tuple[dict[Term, int], ...]
    """Per role: goal value (an int, or the term as written if it is not one) -> literal."""
    statistics: dict[str, int] = field(default_factory=dict)
    derived: dict[Term, int] = field(default_factory=dict, repr=False)
    """The literal of every ground derived atom the outputs depend on (functional.py)."""
    dead_rules: tuple[str, ...] = ()
    """The sheet's rules ("position: rule") that fire in no reachable state where the
    outputs ask for them (grounder.py): a misspelt constant, a relation that never holds,
    a goal no line of play can reach."""

    def __post_init__(self) -> None:
        self.fluent_index = {fluent: i for i, fluent in enumerate(self.fluents)}
        self.node_fluent = {node: i for i, node in enumerate(self.fluent_nodes)}
        self.node_action = {
            node: (role, action)
            for role, nodes in enumerate(self.action_nodes)
            for action, node in enumerate(nodes)
        }

    @cached_property
    def layer_plan(self) -> LayerPlan:
        """How unrollings build whole layers of this system (solvers/ground/layers.py)."""
        return LayerPlan(self)

    @cached_property
    def readers(self) -> list[list[int]]:
        """Per node, the gates that have it as a child, in the circuit as first asked
        (gates built after that come after every output's node)."""
        readers: list[list[int]] = [[] for _ in self.circuit.children]
        for gate, children in enumerate(self.circuit.children):
            for child in children:
                readers[abs(child)].append(gate)
        return readers

    def evaluate(self, state: Iterable[int], joint: Sequence[int] | None = None) -> list[bool]:
        """Every node's value in a state (fluent indexes) under a joint action (action
        indexes in role order; None leaves every action false, and `next` meaningless)."""
        inputs = {self.fluent_nodes[i]: True for i in state}
        if joint is not None:
            for role, action in enumerate(joint):
                inputs[self.action_nodes[role][action]] = True
        return self.circuit.evaluate(inputs)

    def successor(self, state: Iterable[int], joint: Sequence[int]) -> frozenset[int]:
        """The fluent indexes of the next state."""
        values = self.evaluate(state, joint)
        return frozenset(i for i, literal in enumerate(self.next) if value(values, literal))

    def legal_actions(self, state: Iterable[int]) -> list[list[int]]:
        """Per role, the indexes of its legal actions."""
        values = self.evaluate(state)
        return [
            [a for a, literal in enumerate(literals) if value(values, literal)]
            for literals in self.legal
        ]

    def state_text(self, state: Iterable[int]) -> list[str]:
        """The state as sorted GDL facts."""
        return sorted(term_text(self.fluents[i]) for i in state)

    def action_text(self, role: int, action: int) -> str:
        return term_text(self.actions[role][action])

    def size(self) -> dict[str, int]:
        """Counts for reports: fluents, actions, gates."""
        return {
            "fluents": len(self.fluents),
            "actions": sum(len(actions) for actions in self.actions),
            "gates": len(self.circuit) - len(self.fluents) - sum(map(len, self.actions)) - 1,
        }
