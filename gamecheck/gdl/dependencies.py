"""The dependency graph of a rule sheet: which relation's rules use which relations.

Relation p depends on q when a rule for p has q in its body; the edge is negative when q
appears under `not`. The graph is built from normal rules (syntax.normal_rules), so `or` and
nested `not` are already resolved. Strongly connected components come out in evaluation
order: every component after all the components it depends on.
"""

from __future__ import annotations

from collections.abc import Iterable

from gamecheck.gdl.syntax import Atom, Not, Rule


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
                atom = literal.literal if isinstance(literal, Not) else literal
                if isinstance(atom, Atom):
                    self.edges[head].add(atom.relation)
                    self.edges.setdefault(atom.relation, set())
                    self.negative.setdefault(atom.relation, set())
                    if atom is not literal:
                        self.negative[head].add(atom.relation)
        self.components = _strongly_connected_components(self.edges)
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


def _strongly_connected_components(edges: dict[str, set[str]]) -> list[frozenset[str]]:
    """Tarjan's algorithm without recursion; components in reverse topological order of the
    edges, i.e. dependencies first."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    components: list[frozenset[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = len(index)
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(sorted(edges[successor]))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[node] = min(low[node], index[successor])
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                components.append(frozenset(component))
    return components
