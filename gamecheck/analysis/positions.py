"""Positions a user writes down: a state, and a history of joint moves that leads to one.

A state is read from either of two formats, told apart by the first character:
- GDL facts, one a line (`(cell 1 1 red)`, or `(true (cell 1 1 red))`; `;` starts a comment);
- the JSON objects `gamecheck play GAME --json` prints, one a line: the last one counts. A
  step's line holds the state before its joint action, so it gives the state *after* that
  step (its joint action played, legality checked); the closing line gives the final state.

A history holds one joint move a line, from the initial state (or a given state): each role's
action as a GDL term, in role order (`(mark 1 1) noop noop`), or a `play --json` line, whose
joint action is taken (its closing line, which has none, is skipped). So the whole output of
`play --json` is a history too. Every move is checked legal on the game's move generator.

Errors are one sentence naming the file, the line and what is wrong (GamecheckError).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

from gamecheck.errors import GamecheckError
from gamecheck.files import input_name, read_text
from gamecheck.gdl.terms import canonical, parse_term, term_text
from gamecheck.models.base import Game, State

COMMENT = ";"
LEGAL_SHOWN = 5
"""How many legal actions the error about an illegal one lists."""
_TOKEN = re.compile(r"\(|\)|[^\s()]+")


@dataclass(frozen=True)
class Position:
    """A state and how it was reached: the joint actions played (GDL text, role order)
    from the start the user gave (the initial state unless a state was read)."""

    state: State
    moves: tuple[tuple[str, ...], ...] = ()


def read_state(game: Game, path: str) -> State:
    """The state written in the file `path` (`-`: standard input), as GDL facts or as
    `play --json` lines (see the module docstring)."""
    return parse_state(game, read_text(path), input_name(path))


def parse_state(game: Game, text: str, source: str = "<text>") -> State:
    """The state written in `text` (named `source` in errors): GDL facts or JSON lines."""
    lines = _content_lines(text)
    if not lines:
        raise GamecheckError(f"{source} holds no state: no fact and no JSON line")
    if lines[-1][1].startswith("{"):
        number, line = lines[-1]
        return _state_of_json(game, _json_object(line, source, number), f"{source}, line {number}")
    facts = []
    names = _fluent_names(game)
    for number, line in lines:
        try:
            facts.append(_fact_text(line, names))
        except GamecheckError as error:
            raise GamecheckError(f"{source}, line {number}: {error}") from None
    return state_from_facts(game, facts, source)


def state_from_facts(game: Game, facts: Sequence[str], source: str) -> State:
    """The game's state made of `facts`; GamecheckError naming the first fact that is none
    of the game's."""
    names = _fluent_names(game)
    try:
        return game.state_from_facts([_fact_text(fact, names) for fact in facts])
    except GamecheckError as error:
        raise GamecheckError(f"{source}: {error}") from None


def read_moves(game: Game, path: str, start: State | None = None) -> Position:
    """Play the joint moves written in `path` (`-`: standard input) from `start` (default
    the initial state), each checked legal; the position they reach."""
    return play_moves(game, read_text(path), input_name(path), start)


def play_moves(
    game: Game, text: str, source: str = "<text>", start: State | None = None
) -> Position:
    """Play the joint moves written in `text` (named `source` in errors); see read_moves."""
    state = game.initial_state() if start is None else start
    played: list[tuple[str, ...]] = []
    for number, line in _content_lines(text):
        where = f"{source}, line {number} (move {len(played) + 1})"
        if line.startswith("{"):
            step = _json_object(line, source, number)
            if "joint" not in step:
                continue  # the closing line of play --json
            texts = _joint_of_json(step, where)
        else:
            try:
                texts = split_terms(line)
            except GamecheckError as error:
                raise GamecheckError(f"{where}: {error}") from None
        state, joint = _play(game, state, texts, where)
        played.append(tuple(map(game.action_text, joint)))
    if not played:
        raise GamecheckError(f"{source} holds no move")
    return Position(state, tuple(played))


def split_terms(line: str) -> list[str]:
    """The GDL terms written side by side on a line, e.g. `(mark 1 1) noop` -> two terms."""
    terms: list[list[str]] = []
    depth = 0
    for token in _TOKEN.findall(line):
        if depth == 0:
            terms.append([])
        terms[-1].append(token)
        depth += {"(": 1, ")": -1}.get(token, 0)
        if depth < 0:
            raise GamecheckError(f"unbalanced ')' in {line!r}")
    if depth:
        raise GamecheckError(f"unbalanced '(' in {line!r}")
    return [canonical(" ".join(term)) for term in terms]


def _play(game: Game, state: State, texts: Sequence[str], where: str) -> tuple[State, tuple]:
    """The state after the joint action `texts` (role order), each action checked legal,
    and the joint action."""
    if len(texts) != len(game.roles):
        raise GamecheckError(
            f"{where}: a joint move needs {len(game.roles)} action(s), one per role in the "
            f"order {', '.join(game.roles)}; found {len(texts)}"
        )
    if game.is_terminal(state):
        raise GamecheckError(f"{where}: the game is already over, so no move is legal")
    joint = _actions(game, texts, where)
    for role, action in zip(game.roles, joint, strict=True):
        legal = game.legal(state, role)
        if action not in legal:
            shown = ", ".join(game.action_text(a) for a in legal[:LEGAL_SHOWN])
            more = f" ... ({len(legal)} in all)" if len(legal) > LEGAL_SHOWN else ""
            raise GamecheckError(
                f"{where}: {game.action_text(action)} is not a legal action of {role} here; "
                f"legal: {shown or 'none'}{more}"
            )
    return game.apply(state, joint), joint


def _actions(game: Game, texts: Sequence[str], where: str) -> tuple:
    try:
        return tuple(game.parse_action(r, t) for r, t in zip(game.roles, texts, strict=True))
    except GamecheckError as error:
        raise GamecheckError(f"{where}: {error}") from None


def _state_of_json(game: Game, line: dict, where: str) -> State:
    facts = line.get("state")
    if not isinstance(facts, list) or not all(isinstance(fact, str) for fact in facts):
        raise GamecheckError(f"{where}: the JSON object has no 'state' list of facts")
    state = state_from_facts(game, facts, where)
    if "joint" not in line:
        return state
    return _play(game, state, _joint_of_json(line, where), where)[0]


def _joint_of_json(line: dict, where: str) -> list[str]:
    joint = line.get("joint")
    if not isinstance(joint, list) or not all(isinstance(action, str) for action in joint):
        raise GamecheckError(f"{where}: 'joint' is not a list of actions")
    return joint


def _json_object(line: str, source: str, number: int) -> dict:
    try:
        value = json.loads(line)
    except json.JSONDecodeError as error:
        raise GamecheckError(f"{source}, line {number}: not JSON ({error.msg})") from None
    if not isinstance(value, dict):
        raise GamecheckError(f"{source}, line {number}: not a JSON object")
    return value


def _fact_text(text: str, names: set[str] | None) -> str:
    """A fact in canonical text, `(true X)` read as X; GamecheckError if `names` (those a
    rule sheet's init and next rules make) are known and it has none of them."""
    term = parse_term(text)
    if isinstance(term, tuple) and term[0] == "true" and len(term) == 2:
        term = term[1]
    name = term if isinstance(term, str) else term[0]
    if names is not None and name not in names:
        raise GamecheckError(
            f"{term_text(term)} is not a fact of this game: no init or next rule makes a "
            f"{name} fact"
        )
    return term_text(term)


def _fluent_names(game: Game) -> set[str] | None:
    """The names of the facts the rules of a rule sheet can make; None when unknown (a
    built-in game, or a rule whose fact is a variable)."""
    rules = getattr(game, "rules", None)
    if rules is None:
        return None
    made = [rule.head.args[0] for rule in rules if rule.head.relation in ("init", "next")]
    names = {term if isinstance(term, str) else term[0] for term in made}
    return None if any(name.startswith("?") for name in names) else names


def _content_lines(text: str) -> list[tuple[int, str]]:
    """The numbered lines that hold something, comments (`;`, outside JSON) removed."""
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped.startswith("{"):
            stripped = stripped.split(COMMENT, 1)[0].strip()
        if stripped:
            lines.append((number, stripped))
    return lines
