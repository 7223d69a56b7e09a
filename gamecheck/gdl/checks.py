"""Static checks of a rule sheet against the GDL specification (Love et al., Stanford 2008).

Errors are violations of the specification: a syntax error, a relation or function used with
two arities, an unsafe variable, recursion through `not` (a warning where the negation is
stratified by sentence form, as GGP engines accept), a breach of the recursion
restriction, a keyword where the specification does not allow it, no role, a goal value
outside 0..100. Warnings are legal GDL that is probably a mistake: a relation used but never
defined (always false), one defined but never used, `(true X)` or `(does R X)` that no
init/next or legal rule can produce, names that differ only in case, no init/legal/goal/
terminal rule at all, a duplicate role, legal or goal for a constant that is not a role.

How the specification is read here:
- Safety, stratification and the recursion restriction are checked on the normal rules
  (syntax.normal_rules: each `or` expanded), since the spec states them for rules without `or`.
- Recursion restriction: for a rule with head p(a1..an) and a positive body atom q(t1..tm)
  where q lies on a cycle with p, every tj must be ground, or equal to some ai, or have all
  its variables in positive body atoms whose relations are not on a cycle with p. The spec says
  "tj appears in" such an atom; gamecheck reads that per variable (it keeps the model finite).
- `role` may appear in rule bodies (as in `(role ?p)`); as a head only in facts.
- `base` and `input` (later additions to GDL) must not depend on `true` or `does`.
- Roles must be constants: gamecheck names roles by text (an error, though GDL allows terms).
- GDL-II (Thielscher 2010: `sees`, and the role `random` that moves by chance) is refused
  with one error at its first use: gamecheck would play it as a different, GDL game.

>>> lint = lint_text("(role r) (<= (legal r (go ?x)) (true (at ?y)))", "g.kif")
>>> for finding in lint.errors: print(finding)
g.kif:1:14: error: unsafe variable ?x: it appears in no positive literal of the rule body
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from gamecheck.gdl.dependencies import (
    DependencyGraph,
    rule_strata,
    strongly_connected_components,
)
from gamecheck.gdl.parser import parse_rules, read_rules
from gamecheck.gdl.syntax import (
    Atom,
    Distinct,
    GdlError,
    Literal,
    Not,
    Or,
    Position,
    Rule,
    is_ground,
    literal_variables,
    normal_rules,
    relation_of,
    unnegated,
    variables,
)
from gamecheck.gdl.terms import Term, term_text

KEYWORD_ARITY = {
    "role": 1,
    "init": 1,
    "true": 1,
    "does": 2,
    "next": 1,
    "legal": 2,
    "goal": 2,
    "terminal": 0,
    "base": 1,
    "input": 2,
}
FORBIDDEN_DEPENDENCIES = {
    "legal": ("does",),
    "terminal": ("does",),
    "goal": ("does",),
    "init": ("true", "does", "next", "legal", "goal", "terminal"),
    "base": ("true", "does"),
    "input": ("true", "does"),
}
"""Relations a keyword relation must not depend on, directly or not (the spec's restrictions;
base and input, from GDL 2.0's additions, are state-independent)."""
BODY_ONLY = ("true", "does")
HEAD_ONLY = ("init", "next")
GOAL_RANGE = range(0, 101)
GDL_II = "GDL-II (sees/random) is not supported"
"""The start of the message of the one finding a GDL-II sheet gets (see `is_gdl_ii`)."""
GDL_II_ROLE = "random"
GDL_II_RELATION = "sees"


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    """One problem found in a rule sheet."""

    severity: Severity
    message: str
    position: Position

    def __str__(self) -> str:
        return f"{self.position}: {self.severity.value}: {self.message}"


@dataclass(frozen=True)
class Lint:
    """The rules of a sheet (None if it could not be parsed) and every finding, in file order."""

    rules: tuple[Rule, ...] | None
    findings: tuple[Finding, ...]

    @property
    def errors(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.ERROR)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity is Severity.WARNING)


def is_gdl_ii(finding: Finding) -> bool:
    """Whether `finding` is the one that refuses a GDL-II sheet."""
    return finding.message.startswith(GDL_II)


def lint_file(path: str) -> Lint:
    """Parse and check the rule sheet at `path`; GdlError only if the file cannot be read."""
    try:
        rules = read_rules(path)
    except GdlError as error:
        if error.position is None:
            raise
        return Lint(None, (Finding(Severity.ERROR, error.reason, error.position),))
    return Lint(rules, tuple(check_rules(rules, str(path))))


def lint_text(text: str, file: str = "<text>") -> Lint:
    """Parse and check a rule sheet given as text."""
    try:
        rules = parse_rules(text, file)
    except GdlError as error:
        return Lint(None, (Finding(Severity.ERROR, error.reason, error.position),))
    return Lint(rules, tuple(check_rules(rules, file)))


def check_rules(rules: Iterable[Rule], file: str) -> list[Finding]:
    """Every finding of the static checks, sorted by position."""
    rules = tuple(rules)
    try:
        sheet = _Sheet(rules, file)
    except GdlError as error:
        return [_error(error.reason, error.position)]
    findings: dict[tuple, Finding] = {}
    for check in (
        _gdl_ii,
        _arities,
        _safety,
        _stratification,
        _recursion_restriction,
        _term_growth,
        _keyword_placement,
        _keyword_dependencies,
        _roles,
        _goal_values,
        _undefined_and_unused,
        _unreachable_true_and_does,
        _missing_keywords,
        _case_only_differences,
    ):
        for finding in check(sheet):
            findings.setdefault((finding.position, finding.message), finding)
    return sorted(findings.values(), key=lambda f: (f.position.line, f.position.column))


class _Sheet:
    """A rule sheet with what several checks need: its normal rules and dependency graph."""

    def __init__(self, rules: tuple[Rule, ...], file: str):
        self.rules = rules
        self.start = Position(file, 1, 1)
        self.normal = [(rule, normal) for rule in rules for normal in normal_rules(rule)]
        self.graph = DependencyGraph(normal for _, normal in self.normal)
        self.defined = {rule.head.relation for rule in rules}

    def heads(self, relation: str) -> Iterator[Rule]:
        return (rule for rule in self.rules if rule.head.relation == relation)


def _error(message: str, position: Position) -> Finding:
    return Finding(Severity.ERROR, message, position)


def _warning(message: str, position: Position) -> Finding:
    return Finding(Severity.WARNING, message, position)


def _atoms(literal: Literal) -> Iterator[Atom]:
    """The atoms of a literal as written, inside not and or included."""
    if isinstance(literal, Atom):
        yield literal
    elif isinstance(literal, Not):
        yield from _atoms(literal.literal)
    elif isinstance(literal, Or):
        for part in literal.literals:
            yield from _atoms(part)


def _body_atoms(rules: Iterable[Rule]) -> Iterator[Atom]:
    for rule in rules:
        for literal in rule.body:
            yield from _atoms(literal)


def _all_atoms(rules: Iterable[Rule]) -> Iterator[Atom]:
    for rule in rules:
        yield rule.head
        yield from _body_atoms((rule,))


def _terms_with_positions(rules: Iterable[Rule]) -> Iterator[tuple[Term, Position]]:
    """Every argument term (of atoms and distincts), with the position of its literal."""

    def walk(literal: Literal) -> Iterator[tuple[Term, Position]]:
        if isinstance(literal, Atom):
            yield from ((arg, literal.position) for arg in literal.args)
        elif isinstance(literal, Distinct):
            yield literal.left, literal.position
            yield literal.right, literal.position
        elif isinstance(literal, Not):
            yield from walk(literal.literal)
        else:
            for part in literal.literals:
                yield from walk(part)

    for rule in rules:
        for literal in (rule.head, *rule.body):
            yield from walk(literal)


def _subterms(term: Term) -> Iterator[Term]:
    yield term
    if isinstance(term, tuple):
        for part in term[1:]:
            yield from _subterms(part)


def _gdl_ii(sheet: _Sheet) -> Iterator[Finding]:
    """The first use of GDL-II: a `sees` atom or the role `random` (one error)."""
    for atom in _all_atoms(sheet.rules):
        if atom.relation == GDL_II_RELATION:
            yield _error(
                f"{GDL_II}: sees says what a role observes in GDL-II's games of imperfect "
                "information, which gamecheck does not model",
                atom.position,
            )
            return
        if atom.relation == "role" and atom.args == (GDL_II_ROLE,):
            yield _error(
                f"{GDL_II}: (role random) declares GDL-II's chance player, which gamecheck "
                "would play as an ordinary role",
                atom.position,
            )
            return


def _arities(sheet: _Sheet) -> Iterator[Finding]:
    """Each relation and each function used with one number of arguments; keywords with theirs."""
    first: dict[tuple[str, str], tuple[int, Position]] = {}

    def clash(kind: str, name: str, arity: int, position: Position) -> Finding | None:
        known = first.setdefault((kind, name), (arity, position))
        if known[0] == arity:
            return None
        return _error(
            f"{kind} {name} is used with {_arguments(arity)} here "
            f"but with {_arguments(known[0])} at {known[1]}",
            position,
        )

    for atom in _all_atoms(sheet.rules):
        relation, arity = atom.relation, len(atom.args)
        if relation in KEYWORD_ARITY and KEYWORD_ARITY[relation] != arity:
            yield _error(
                f"{relation} takes {_arguments(KEYWORD_ARITY[relation])}, not {arity}",
                atom.position,
            )
        elif finding := clash("relation", relation, arity, atom.position):
            yield finding
    for term, position in _terms_with_positions(sheet.rules):
        for sub in _subterms(term):
            if isinstance(sub, tuple) and (
                finding := clash("function", sub[0], len(sub) - 1, position)
            ):
                yield finding


def _arguments(count: int) -> str:
    return f"{count} argument" + ("" if count == 1 else "s")


def _safety(sheet: _Sheet) -> Iterator[Finding]:
    """Every variable of a rule appears in a positive atom of its body (checked per disjunct)."""
    for rule, normal in sheet.normal:
        bound = {
            var
            for literal in normal.body
            if isinstance(literal, Atom)
            for var in literal_variables(literal)
        }
        for literal in (normal.head, *normal.body):
            for var in literal_variables(literal):
                if var in bound:
                    continue
                if rule.body:
                    message = (
                        f"unsafe variable {var}: it appears in no positive literal of the rule body"
                    )
                else:
                    message = f"unsafe variable {var}: a fact must be ground"
                yield _error(message, literal.position or rule.position)
                bound.add(var)


def _stratification(sheet: _Sheet) -> Iterator[Finding]:
    """No relation depends on itself through `not`; where one does but the negation is
    stratified at the level of sentence forms, a warning (GGP engines accept it)."""
    graph = sheet.graph
    stratified: dict[int, bool] = {}
    for _, normal in sheet.normal:
        head = normal.head.relation
        for literal in normal.body:
            if isinstance(literal, Not) and isinstance(literal.literal, Atom):
                relation = literal.literal.relation
                if not graph.recursive_with(head, relation):
                    continue
                component = graph.component_of[head]
                if component not in stratified:
                    members = graph.components[component]
                    rules = [n for _, n in sheet.normal if n.head.relation in members]
                    stratified[component] = rule_strata(rules) is not None
                negation = f"(not {term_text(literal.literal.term)})"
                position = literal.position or literal.literal.position
                if stratified[component]:
                    yield _warning(
                        f"{head} depends on itself through {negation}: the GDL specification "
                        "(Love et al. 2008) asks for negation stratified on the dependency "
                        "graph of relations; this one is stratified only by sentence form, "
                        "which GGP engines and gamecheck accept",
                        position,
                    )
                else:
                    yield _error(
                        f"unstratifiable negation: {head} depends on itself through {negation}",
                        position,
                    )


def _recursion_restriction(sheet: _Sheet) -> Iterator[Finding]:
    """The spec's recursion restriction, read per variable (see the module docstring)."""
    graph = sheet.graph
    for _, normal in sheet.normal:
        head = normal.head
        positive = [literal for literal in normal.body if isinstance(literal, Atom)]
        outside = {
            var
            for atom in positive
            if not graph.recursive_with(head.relation, atom.relation)
            for var in variables(atom.term)
        }
        for atom in positive:
            if not graph.recursive_with(head.relation, atom.relation):
                continue
            for arg in atom.args:
                if is_ground(arg) or arg in head.args or set(variables(arg)) <= outside:
                    continue
                yield _error(
                    f"recursion restriction: argument {term_text(arg)} of the recursive literal "
                    f"{term_text(atom.term)} is not ground, not an argument of the head and "
                    f"not bound by a positive literal outside the recursion",
                    atom.position,
                )


FLOWS = {"true": "next", "does": "legal"}
"""Over time a `next` fact becomes a `true` fact and a `legal` action a `does`."""


def _term_growth(sheet: _Sheet) -> Iterator[Finding]:
    """Terms that may grow without bound: a cycle of rules (through next -> true across
    steps) along which a variable ends up nested deeper in a function term each time round,
    as in `(<= (next (count (s ?n))) (true (count ?n)))`. A variable also bound by a literal
    off the cycle is bounded by it. GDL requires a finite game, so this is an error once
    nothing else stops the growth; lint cannot tell, so it warns."""
    edges: dict[str, set[str]] = {r: set(sheet.graph.edges[r]) for r in sheet.graph.edges}
    for later, earlier in FLOWS.items():
        edges.setdefault(later, set()).add(earlier)
        edges.setdefault(earlier, set())
    components = strongly_connected_components(sorted(edges), lambda r: sorted(edges[r]))
    component_of = {r: number for number, members in enumerate(components) for r in members}
    flows: list[tuple[tuple, tuple, int, Rule]] = []
    for rule, normal in sheet.normal:
        head = next((k for k, v in FLOWS.items() if v == normal.head.relation), None)
        head = head or normal.head.relation
        places = {}
        for literal in normal.body:
            if not isinstance(literal, Atom):
                continue
            relation = literal.relation
            cyclic = component_of.get(relation) == component_of.get(head)
            for place, depth, var in _variable_places(literal.args):
                places.setdefault(var, []).append(((relation, place), depth, cyclic))
        for place, depth, var in _variable_places(normal.head.args):
            found = places.get(var, [])
            if found and all(cyclic for _, _, cyclic in found):
                for source, body_depth, _ in found:
                    flows.append((source, (head, place), depth - body_depth, rule))
    for rule in _growing_cycles(flows):
        yield _warning(
            "this rule may build ever deeper terms (a variable is nested deeper each time "
            "round a cycle of rules): GDL requires a finite game, so unless other conditions "
            "stop it, the sheet has no finite ground form",
            rule.position,
        )


def _variable_places(args: tuple) -> Iterator[tuple[int, int, str]]:
    """(argument index, nesting depth, variable) for every variable in the arguments."""

    def walk(term: Term, depth: int) -> Iterator[tuple[int, str]]:
        if isinstance(term, str):
            if term.startswith("?"):
                yield depth, term
        else:
            for part in term[1:]:
                yield from walk(part, depth + 1)

    for index, arg in enumerate(args):
        for depth, var in walk(arg, 0):
            yield index, depth, var


def _growing_cycles(flows: list[tuple[tuple, tuple, int, Rule]]) -> list[Rule]:
    """The rules of the positive-weight edges in every strongly connected part of the flow
    graph that has a cycle of positive total weight (Bellman-Ford on longest paths: a part
    whose distances still rise after as many rounds as it has nodes has one)."""
    successors: dict[tuple, list[tuple]] = {}
    for source, target, _, _ in flows:
        successors.setdefault(source, []).append(target)
        successors.setdefault(target, [])
    parts = strongly_connected_components(list(successors), lambda node: successors[node])
    part_of = {node: number for number, part in enumerate(parts) for node in part}
    found: dict[int, Rule] = {}
    for number, part in enumerate(parts):
        inside = [f for f in flows if part_of[f[0]] == number == part_of[f[1]]]
        if not any(weight > 0 for _, _, weight, _ in inside):
            continue
        distance = dict.fromkeys(part, 0)
        for _ in range(len(part) + 1):
            changed = False
            for source, target, weight, _ in inside:
                if distance[source] + weight > distance[target]:
                    distance[target] = distance[source] + weight
                    changed = True
            if not changed:
                break
        else:
            for _, _, weight, rule in inside:
                if weight > 0:
                    found.setdefault(id(rule), rule)
    return list(found.values())


def _keyword_placement(sheet: _Sheet) -> Iterator[Finding]:
    """true/does only in bodies, init/next only in heads, role only in facts."""
    for rule in sheet.rules:
        head = rule.head.relation
        if head in BODY_ONLY:
            yield _error(
                f"{head} cannot be a rule head or a fact, only part of a rule body",
                rule.head.position,
            )
        if head == "role" and rule.body:
            yield _error(
                "role can only appear in facts such as (role white), not as a rule head",
                rule.head.position,
            )
        for atom in _body_atoms((rule,)):
            if atom.relation in HEAD_ONLY:
                yield _error(
                    f"{atom.relation} cannot appear in a rule body, only in rule heads and facts",
                    atom.position,
                )


def _keyword_dependencies(sheet: _Sheet) -> Iterator[Finding]:
    """legal, terminal and goal do not depend on does; init depends on no state or move
    relation; base and input on neither true nor does."""
    graph = sheet.graph
    for _, normal in sheet.normal:
        head = normal.head.relation
        forbidden = FORBIDDEN_DEPENDENCIES.get(head)
        if not forbidden:
            continue
        for literal in normal.body:
            atom = unnegated(literal)
            if not isinstance(atom, Atom):
                continue
            if atom.relation in forbidden:
                yield _error(
                    f"{atom.relation} cannot appear in the body of a {head} rule "
                    f"({head} must not depend on {atom.relation})",
                    atom.position,
                )
                continue
            reached = sorted(set(forbidden) & graph.reaches(atom.relation))
            if reached:
                yield _error(
                    f"{head} must not depend on {reached[0]}, but it does through {atom.relation}",
                    atom.position,
                )


def _roles(sheet: _Sheet) -> Iterator[Finding]:
    """At least one role; each role declared once; legal and goal only for declared roles."""
    roles: dict[Term, Position] = {}
    for rule in sheet.heads("role"):
        if len(rule.head.args) != 1:
            continue
        role = rule.head.args[0]
        if not isinstance(role, str):
            yield _error(
                f"role {term_text(role)} is not a constant (gamecheck needs role names)",
                rule.head.position,
            )
        if role in roles:
            yield _warning(
                f"role {term_text(role)} is declared twice (first at {roles[role]})",
                rule.head.position,
            )
        roles.setdefault(role, rule.head.position)
    if not roles:
        yield _error(
            "the rule sheet declares no role: add a fact such as (role white)", sheet.start
        )
        return
    for relation in ("legal", "goal"):
        for rule in sheet.heads(relation):
            args = rule.head.args
            if args and is_ground(args[0]) and args[0] not in roles:
                yield _warning(
                    f"{relation} is given for {term_text(args[0])}, which is not a role",
                    rule.head.position,
                )


def _goal_values(sheet: _Sheet) -> Iterator[Finding]:
    """Goal values written in goal heads are integers 0..100."""
    for rule in sheet.heads("goal"):
        args = rule.head.args
        if len(args) == 2 and is_ground(args[1]) and not _is_goal_value(args[1]):
            yield _error(
                f"goal value {term_text(args[1])} is not an integer from 0 to 100",
                rule.head.position,
            )


def _is_goal_value(term: Term) -> bool:
    return isinstance(term, str) and term.isdigit() and int(term) in GOAL_RANGE


def _undefined_and_unused(sheet: _Sheet) -> Iterator[Finding]:
    """Relations used but never defined (always false) or defined but never used."""
    used: dict[str, Position] = {}
    for atom in _body_atoms(sheet.rules):
        used.setdefault(atom.relation, atom.position)
    for relation, position in used.items():
        if relation not in sheet.defined and relation not in BODY_ONLY:
            yield _warning(
                f"relation {relation} is used but never defined, so it is always false", position
            )
    for rule in sheet.rules:
        relation = rule.head.relation
        if relation not in used and relation not in (*KEYWORD_ARITY, GDL_II_RELATION):
            yield _warning(f"relation {relation} is defined but never used", rule.head.position)
            used[relation] = rule.head.position


def _unreachable_true_and_does(sheet: _Sheet) -> Iterator[Finding]:
    """`(true X)` whose function no init or next makes; `(does R X)` whose function no legal
    allows (only checked when every such head names its function)."""
    for keyword, sources, argument in (("true", ("init", "next"), 0), ("does", ("legal",), 1)):
        made = [
            rule.head.args[argument]
            for source in sources
            for rule in sheet.heads(source)
            if len(rule.head.args) > argument
        ]
        names = {relation_of(term) for term in made}
        if not names or any(name.startswith("?") for name in names):
            continue
        for atom in _body_atoms(sheet.rules):
            if atom.relation != keyword or len(atom.args) <= argument:
                continue
            name = relation_of(atom.args[argument])
            if not name.startswith("?") and name not in names:
                yield _warning(
                    f"{term_text(atom.term)} never holds: no {' or '.join(sources)} rule "
                    f"makes a {name} term",
                    atom.position,
                )


def _missing_keywords(sheet: _Sheet) -> Iterator[Finding]:
    """A playable game needs init, legal, next, terminal and goal rules."""
    for keyword in ("init", "legal", "next", "terminal", "goal"):
        if keyword not in sheet.defined:
            yield _warning(f"the rule sheet has no {keyword} rule", sheet.start)


APART = "two names, as ggp-base reads them (engines that ignore case read one)"


def _case_only_differences(sheet: _Sheet) -> Iterator[Finding]:
    """Names that differ only in case: two names here, as ggp-base (the engine of the public
    repository's games) reads them; engines that ignore case read one (wargame01's author
    fixed its `timeOut`, used but defined as `timeout`, by respelling it: case mattered)."""
    spellings: dict[str, dict[str, Position]] = defaultdict(dict)
    for atom in _all_atoms(sheet.rules):
        spellings[atom.relation.lower()].setdefault(atom.relation, atom.position)
    for term, position in _terms_with_positions(sheet.rules):
        for sub in _subterms(term):
            name = relation_of(sub)
            if not name.startswith("?"):
                spellings[name.lower()].setdefault(name, position)
    for rule in sheet.rules:
        seen: dict[str, str] = {}
        for literal in (rule.head, *rule.body):
            for var in literal_variables(literal):
                other = seen.setdefault(var.lower(), var)
                if other != var:
                    yield _warning(
                        f"variables {other} and {var} differ only in case: {APART}",
                        literal.position or rule.position,
                    )
    for names in spellings.values():
        if len(names) > 1:
            (first, _), *others = names.items()
            for name, position in others:
                yield _warning(
                    f"{first} and {name} differ only in case: {APART}",
                    position,
                )
