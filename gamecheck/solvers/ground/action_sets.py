"""Disjunctions of actions written the short way round, so that frame axioms over moves grow
with the moves, not with cells times moves.

A rule sheet that keeps a cell's piece when "some move not touching the cell" is done
(frame axioms over moves, split per cell by gdl/split.py) defines, for each cell,
an OR of nearly all the actions of every role. At every step each role does exactly one of
its actions, so for one role r with actions A and a subset S

    OR(does r a for a in S) == NOT OR(does r a for a in A - S)

and the right side is short when S covers most of A. Here the ground rule instances are
rewritten before the circuit is built: the bodies of one atom that differ only in the
action they ask for (a `does` atom, or an atom that is an OR of `does` atoms) become one
body over a new atom for the union of those actions, defined per role by the shorter side,
where some role's side is the complement and the circuit gets smaller for it (counted in
gate inputs, each shared definition split among its users).

The rewrite is valid wherever each role does exactly one action, and every reader of
`next` asks only there: the unrollings read layer t+1 only where the line of play is alive
there (each role did exactly one legal action at step t), the invariant finder's steps
likewise, random playouts, GroundGame and the forced-win SAT method choose one action per
role. Legal, terminal and goal never depend on `does` (the static checks refuse such
sheets), so only `next` changes.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from gamecheck.budget import Budget
from gamecheck.gdl.terms import Term, term_text

GroundLiteral = tuple[bool, Term]
"""(positive?, ground atom) of a dynamic relation: `('true', f)`, `('does', r, a)`, ..."""
Bodies = dict[Term, list[list[GroundLiteral]]]
PREFIX = "#actions"
"""Atoms that stand for a union of actions are (PREFIX, number)."""
CHECK_EVERY = 1000


def shorten_action_disjunctions(
    instances: Bodies, actions: Mapping[str, Sequence[Term]], budget: Budget
) -> Bodies:
    """The instances with the bodies of an atom that differ only in their action merged
    into one over the union of the actions, each role's share of the union written by the
    shorter side (`actions`: each role's actions, in order), where that makes the circuit
    smaller (by `_pays`)."""
    unions = _action_unions(instances, budget)
    order = {
        ("does", role, action): (number, index)
        for number, (role, role_actions) in enumerate(actions.items())
        for index, action in enumerate(role_actions)
    }
    grouped = [(atom, *_groups(bodies, unions, budget)) for atom, bodies in instances.items()]
    references = Counter(
        literal[1] for bodies in instances.values() for body in bodies for literal in body
    )
    uses = Counter(union for _, _, groups in grouped for union, _ in groups)
    short_forms: dict[frozenset[Term], list[list[GroundLiteral]] | None] = {}
    names: dict[frozenset[Term], Term] = {}
    result: Bodies = {}
    for atom, kept, groups in grouped:
        for union, group in groups:
            if union not in short_forms:
                if len(short_forms) % CHECK_EVERY == 0:
                    budget.check()
                short_forms[union] = _short_form(union, actions, order)
            short = short_forms[union]
            if short is None or not _pays(short, uses[union], group, instances, references):
                kept.extend(body for body, _ in group)
                continue
            if union not in names:
                names[union] = (PREFIX, len(names))
                result[names[union]] = short
            body, action = group[0]
            kept.append(
                [literal for literal in body if literal is not action] + [(True, names[union])]
            )
        result[atom] = kept
    return result


def _groups(
    bodies: list[list[GroundLiteral]], unions: dict[Term, frozenset[Term]], budget: Budget
) -> tuple[list[list[GroundLiteral]], list[tuple[frozenset[Term], list]]]:
    """The bodies that ask for no action or several, and the others grouped by the rest of
    the body, each group with the union of the actions its bodies ask for. An atom may have
    millions of bodies (amazons: a cell's next), so the budget is looked at between them."""
    kept, groups = [], {}
    for count, body in enumerate(bodies):
        if count % CHECK_EVERY == 0:
            budget.check()
        action = _action_literal(body, unions)
        if action is None:
            kept.append(body)
        else:
            rest = frozenset(literal for literal in body if literal is not action)
            groups.setdefault(rest, []).append((body, action))
    return kept, [(_union_of(group, unions), group) for group in groups.values()]


def _union_of(
    group: list[tuple[list, GroundLiteral]], unions: dict[Term, frozenset[Term]]
) -> frozenset[Term]:
    """The actions the group's bodies ask for; a group of one union atom shares its set
    (the union of a cell's frame axiom over moves can hold nearly every action)."""
    if len(group) == 1:
        return _actions_of(group[0][1], unions)
    union: set[Term] = set()
    for _, literal in group:
        union |= _actions_of(literal, unions)
    return frozenset(union)


def _pays(
    short: list[list[GroundLiteral]],
    uses: int,
    group: list[tuple[list, GroundLiteral]],
    instances: Bodies,
    references: Counter,
) -> bool:
    """Whether one body over the union written short (its definition shared by the `uses`
    groups of that union) makes a smaller circuit than the group's bodies as they are, with
    their share of the definitions of the unions they name (sizes are gate inputs)."""
    rest = len(group[0][0]) - 1
    named = {action[1] for _, action in group if action[1] in instances}
    now = len(group) * _body_size(rest + 1) + sum(
        len(instances[atom]) / references[atom] for atom in named
    )
    return _body_size(rest + 1) + sum(_body_size(len(body)) for body in short) / uses < now


def _body_size(literals: int) -> int:
    """Gate inputs a body adds to an OR: one, and its AND gate's inputs if it has one."""
    return 1 + (literals if literals > 1 else 0)


def _action_unions(instances: Bodies, budget: Budget) -> dict[Term, frozenset[Term]]:
    """The atoms that are ORs of actions (every body one positive `does` atom or such an
    atom), each with its `does` atoms; found dependencies first (atoms in a cycle are
    left out)."""
    waiting: dict[Term, int] = {}
    users: dict[Term, list[Term]] = {}
    for atom, bodies in instances.items():
        if bodies and all(len(body) == 1 and body[0][0] for body in bodies):
            needed = {body[0][1] for body in bodies if not _is_does(body[0][1])}
            waiting[atom] = len(needed)
            for other in needed:
                users.setdefault(other, []).append(atom)
    ready = [atom for atom, count in waiting.items() if count == 0]
    unions: dict[Term, frozenset[Term]] = {}
    while ready:
        if len(unions) % CHECK_EVERY == 0:
            budget.check()
        atom = ready.pop()
        unions[atom] = frozenset().union(
            *(_actions_of(body[0], unions) for body in instances[atom])
        )
        for user in users.get(atom, ()):
            waiting[user] -= 1
            if waiting[user] == 0:
                ready.append(user)
    return unions


def _action_literal(
    body: list[GroundLiteral], unions: dict[Term, frozenset[Term]]
) -> GroundLiteral | None:
    """The body's one positive literal that asks for an action (a `does` atom or a union),
    None if it has none or several."""
    found = None
    for literal in body:
        if literal[0] and (literal[1] in unions or _is_does(literal[1])):
            if found is not None:
                return None
            found = literal
    return found


def _actions_of(literal: GroundLiteral, unions: dict[Term, frozenset[Term]]) -> frozenset[Term]:
    atom = literal[1]
    return frozenset((atom,)) if _is_does(atom) else unions[atom]


def _short_form(
    union: frozenset[Term],
    actions: Mapping[str, Sequence[Term]],
    order: dict[Term, tuple[int, int]],
) -> list[list[GroundLiteral]] | None:
    """Bodies whose OR is the OR of the `does` atoms of `union` when every role does exactly
    one action: per role the negations of its actions outside the union where they are
    fewer than those in it, else those in it; None if no role's are fewer."""
    by_role: dict[str, list[Term]] = {}
    for does in sorted(union, key=lambda does: order.get(does) or (len(order), term_text(does))):
        by_role.setdefault(does[1], []).append(does)
    bodies, shorter = [], False
    for role, chosen in by_role.items():
        named = {does[2] for does in chosen}
        others = [action for action in actions.get(role, ()) if action not in named]
        if role in actions and len(others) < len(chosen):
            bodies.append([(False, ("does", role, action)) for action in others])
            shorter = True
        else:
            bodies.extend([(True, does)] for does in chosen)
    return bodies if shorter else None


def _is_does(atom: Term) -> bool:
    return isinstance(atom, tuple) and atom[0] == "does"
