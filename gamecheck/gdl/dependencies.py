"""The dependency graph of a rule sheet: which relation's rules use which relations.

Relation p depends on q when a rule for p has q in its body; the edge is negative when q
appears under `not`. The graph is built from normal rules (syntax.normal_rules), so `or` and
nested `not` are already resolved. Strongly connected components come out in evaluation
order: every component after all the components it depends on. `rule_strata` orders the
rules inside one component where negation is stratified only at the level of sentence forms.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import TypeVar

from gamecheck.gdl.syntax import Atom, Not, Rule, is_variable, unnegated
from gamecheck.gdl.terms import Term

Node = TypeVar("Node", bound=Hashable)


class DependencyGraph:
    """Relations as nodes; `edges[p]` holds the relations p's rules use, `negative[p]` those
    used under `not`."""

    def __init__(self, normal_rules: Iterable[Rule]):
        self.edges: dict[str, set[str]] = {}
        self.negative: dict[str, set[str]] = {}
        for rule in normal_rules:
            head = rule.head.relation
            self.edges.setdefault(head, set())
            self.negative.setdefault(head, set())
            for literal in rule.body:
                atom = unnegated(literal)
                if isinstance(atom, Atom):
                    self.edges[head].add(atom.relation)
                    self.edges.setdefault(atom.relation, set())
                    self.negative.setdefault(atom.relation, set())
                    if atom is not literal:
                        self.negative[head].add(atom.relation)
        self.components = [
            frozenset(component)
            for component in strongly_connected_components(
                sorted(self.edges), lambda relation: sorted(self.edges[relation])
            )
        ]
        self.component_of = {
            relation: index
            for index, component in enumerate(self.components)
            for relation in component
        }
        self._reach: dict[str, frozenset[str]] = {}

    def recursive_with(self, head: str, relation: str) -> bool:
        """Whether `relation` lies on a cycle through `head` (the same component, or a
        self-loop when head and relation are the same)."""
        if head == relation:
            return head in self.edges.get(head, ())
        return self.component_of.get(head) == self.component_of.get(relation, -1)

    def reaches(self, relation: str) -> frozenset[str]:
        """Every relation `relation` depends on, directly or not (itself only through a cycle)."""
        if relation not in self._reach:
            seen: set[str] = set()
            stack = list(self.edges.get(relation, ()))
            while stack:
                current = stack.pop()
                if current not in seen:
                    seen.add(current)
                    stack.extend(self.edges.get(current, ()))
            self._reach[relation] = frozenset(seen)
        return self._reach[relation]


def relevant_rules(normal_rules: Sequence[Rule], roots: Iterable[str]) -> list[Rule]:
    """The rules of the `roots` and of every relation they depend on: the others cannot
    change what the roots hold (73 of 260 corpus sheets define relations that nothing
    uses: amazons' queen moves written twice, othello's directions)."""
    graph = DependencyGraph(normal_rules)
    kept = set(roots)
    for root in list(kept):
        kept |= graph.reaches(root)
    return [rule for rule in normal_rules if rule.head.relation in kept]


def strongly_connected_components(
    nodes: Iterable[Node], successors: Callable[[Node], Iterable[Node]]
) -> list[list[Node]]:
    """Tarjan's algorithm without recursion: the components of the graph reachable from
    `nodes`, in reverse topological order of the edges, i.e. every component after all the
    components it has edges to."""
    index: dict[Node, int] = {}
    low: dict[Node, int] = {}
    on_stack: set[Node] = set()
    stack: list[Node] = []
    components: list[list[Node]] = []
    for root in nodes:
        if root in index:
            continue
        work = [(root, iter(successors(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, _DONE)
            if child is not _DONE:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(successors(child))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                components.append(component)
    return components


_DONE = object()


def rule_strata(rules: Sequence[Rule]) -> list[list[Rule]] | None:
    """The rules of one component of the relation graph in groups, each group after every
    group whose facts it may read, or None if negation is not stratified even at this level.

    Rule r reads rule s when a body literal of r could match the head of s (variables match
    anything: a sound over-approximation). This is stratification at the level of sentence
    forms: `(<= (goal r 100) (not (goal r 0)))` reads only the rules for `(goal r 0)`."""
    reads = [
        [
            (other, isinstance(literal, Not))
            for literal in rule.body
            if isinstance(inner := unnegated(literal), Atom)
            for other, candidate in enumerate(rules)
            if could_match(inner.term, candidate.head.term)
        ]
        for rule in rules
    ]
    groups = strongly_connected_components(
        range(len(rules)), lambda r: [other for other, _ in reads[r]]
    )
    group_of = {rule: number for number, group in enumerate(groups) for rule in group}
    for rule, edges in enumerate(reads):
        if any(negative and group_of[other] == group_of[rule] for other, negative in edges):
            return None
    return [[rules[r] for r in sorted(group)] for group in groups]


def could_match(left: Term, right: Term) -> bool:
    """Whether two terms could have a common ground instance, taking every variable as
    matching anything (repeated variables are not checked against each other)."""
    if is_variable(left) or is_variable(right):
        return True
    if isinstance(left, str) or isinstance(right, str):
        return left == right
    return len(left) == len(right) and all(map(could_match, left, right))
