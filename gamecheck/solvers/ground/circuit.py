"""And-inverter circuits with n-ary AND gates: the Boolean definitions of a ground game.

A node is an input or an AND gate over literals; a literal is a node number, negative for
its negation. Node 1 is the constant TRUE, so `FALSE == -TRUE`. Gates are built children
first, so node numbers are a topological order, and `conj` folds constants and shares
identical gates (structural hashing).

>>> c = Circuit()
>>> a, b = c.input("a"), c.input("b")
>>> c.conj([a, TRUE]) == a, c.conj([a, -a]), c.disj([a, b]) == -c.conj([-a, -b])
(True, -1, True)
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

TRUE = 1
FALSE = -1
INPUT = ()
"""The children of an input node (it has none); gates always have two or more."""


class Circuit:
    """Inputs and AND gates; `children[n]` are the literals node n is the AND of."""

    def __init__(self) -> None:
        self.children: list[tuple[int, ...]] = [(), ()]
        self.labels: list[Hashable] = [None, "TRUE"]
        self._gates: dict[tuple[int, ...], int] = {}

    def __len__(self) -> int:
        """The number of nodes, the constant included."""
        return len(self.children) - 1

    def input(self, label: Hashable) -> int:
        """A new input node (a fluent or an action)."""
        self.children.append(INPUT)
        self.labels.append(label)
        return len(self.children) - 1

    def is_input(self, node: int) -> bool:
        return node > TRUE and not self.children[node]

    def conj(self, literals: Iterable[int]) -> int:
        """A literal equal to the AND of `literals` (TRUE when there are none)."""
        kept: set[int] = set()
        for literal in literals:
            if literal == FALSE or -literal in kept:
                return FALSE
            if literal != TRUE:
                kept.add(literal)
        if not kept:
            return TRUE
        if len(kept) == 1:
            return kept.pop()
        key = tuple(sorted(kept))
        node = self._gates.get(key)
        if node is None:
            self.children.append(key)
            self.labels.append(None)
            node = self._gates[key] = len(self.children) - 1
        return node

    def disj(self, literals: Iterable[int]) -> int:
        """A literal equal to the OR of `literals` (FALSE when there are none)."""
        return -self.conj(-literal for literal in literals)

    def at_most_one(self, literals: Sequence[int]) -> int:
        """A literal true when at most one of `literals` is: no literal holds together with
        one before it (a chain of "some before", linear in the literals)."""
        clashes, before = [], FALSE
        for literal in literals:
            clashes.append(-self.conj((literal, before)))
            before = self.disj((before, literal))
        return self.conj(clashes)

    def evaluate(self, inputs: dict[int, bool]) -> list[bool]:
        """The value of every node, given the value of every input node (others False)."""
        values = [False] * len(self.children)
        values[TRUE] = True
        for node in range(TRUE + 1, len(self.children)):
            children = self.children[node]
            if not children:
                values[node] = inputs.get(node, False)
            else:
                values[node] = all(values[c] if c > 0 else not values[-c] for c in children)
        return values

    def cone(self, literals: Iterable[int]) -> set[int]:
        """The nodes the given literals depend on, themselves included."""
        seen: set[int] = set()
        stack = [abs(literal) for literal in literals]
        while stack:
            node = stack.pop()
            if node not in seen:
                seen.add(node)
                stack.extend(abs(child) for child in self.children[node])
        return seen


def value(values: Sequence[bool], literal: int) -> bool:
    """The value of a literal given the values of all nodes."""
    return values[literal] if literal > 0 else not values[-literal]
