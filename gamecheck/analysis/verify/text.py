"""Text of `gamecheck verify` answers, shared by the command line and the reports: the
questions in order, values with their units, goal vectors, sizes, numbered lines of play
(folded when long) and the boards they end on."""

from __future__ import annotations

from collections.abc import Sequence

from gamecheck.analysis.replay import replay_line
from gamecheck.analysis.verify.results import Answer, Verification
from gamecheck.models.base import Game

NOOP = "noop"
FOLD_KEEP = 3
"""A long line of play shows its first and last FOLD_KEEP steps."""
NEVER_FIRES = "legal, next, terminal and goal see no instance of them in any reachable state"
DEAD_RULES_SHOWN = 10
"""Rules that never fire listed in the text (the JSON lists them all)."""


def answer_rows(result: Verification) -> list[tuple[str, Answer, str]]:
    """(question, answer, unit of its value) for every question but the outcome set."""
    rows = [
        ("termination", result.termination, "steps at most"),
        ("longest game", result.longest_game, "steps"),
        ("shortest game", result.shortest_game, "steps"),
        ("playability", result.playability, ""),
        ("goal definedness", result.goal_definedness, ""),
    ]
    rows += [
        (f"earliest win {role}", answer, "steps") for role, answer in result.earliest_win.items()
    ]
    return rows


def value_text(answer: Answer, unit: str) -> str:
    """The answer's value with its unit, or the empty string when it has none."""
    return f"{answer.value} {unit}".strip() if answer.value is not None else ""


def goal_text(goal) -> str:
    """A role's goal in an outcome: its value, or all its values (`0/100`, `-` for none)."""
    if isinstance(goal, tuple):
        return "/".join(map(str, goal)) or "-"
    return str(goal)


def vector_text(vector: Sequence) -> str:
    """A goal vector in role order, e.g. `100 0 0`."""
    return " ".join(map(goal_text, vector))


def sizes_text(counts: dict) -> str:
    """`{"state_invariants": 41}` as `41 state invariants`."""
    return ", ".join(f"{value} {key.replace('_', ' ')}" for key, value in counts.items())


def joint_text(roles: Sequence[str], joint: Sequence[str]) -> str:
    """A joint action as the moves that are not noop, each after its role (the action alone
    in a one-role game); `all noop` when every role passes."""
    if len(roles) == 1:
        return joint[0]
    moves = [
        f"{role} {action}" for role, action in zip(roles, joint, strict=True) if action != NOOP
    ]
    return ", ".join(moves) or "all noop"


def numbered_line(roles: Sequence[str], witness: Sequence[Sequence[str]]) -> list[str]:
    """A line of play, one numbered step a line: `1. red (move 1 4 3 3)`."""
    return [f"{number}. {joint_text(roles, joint)}" for number, joint in enumerate(witness, 1)]


def folded_line(
    roles: Sequence[str], witness: Sequence[Sequence[str]], keep: int = FOLD_KEEP
) -> list[str]:
    """A numbered line of play with only its first and last `keep` steps when it is long."""
    steps = numbered_line(roles, witness)
    if len(steps) <= 2 * keep + 1:
        return steps
    return [*steps[:keep], f"... ({len(steps) - 2 * keep} more steps)", *steps[-keep:]]


def verification_text(result: Verification, game: Game | None = None) -> str:
    """A readable account of every answer, each with its line of play (folded, shown once:
    a line met again names where it was shown) and, given the game to replay it on, the
    board it ends on."""
    lines = [
        f"verify {result.game} ({len(result.roles)} roles: {', '.join(result.roles)}) "
        f"with {result.backend}, horizon {result.horizon}",
        "  system: "
        + "; ".join(
            filter(None, map(sizes_text, (result.system_size, result.invariant_statistics)))
        ),
    ]
    lines += _dead_rules_text(result.dead_rules)
    shown: dict[tuple, str] = {}

    def line_of_play(label: str, witness, indent: str = "    ") -> list[str]:
        if witness is None:
            return []
        if witness in shown:
            return [f"{indent}(the line of {shown[witness]})"]
        shown[witness] = label
        lines = [indent + step for step in folded_line(result.roles, witness)]
        if game is not None:
            board = game.picture(_last_state(result, witness, game))
            lines += [indent + "| " + row for row in board.splitlines()]
        return lines

    rows = answer_rows(result)
    for label, answer, unit in rows[:5]:
        lines.append(_answer_line(label, answer, unit))
        lines += line_of_play(label, answer.witness)
    outcomes = result.outcomes
    vectors = " | ".join(map(vector_text, outcomes.vectors)) or "none"
    lines.append(f"  {'outcomes':18} {outcomes.status:8} {vectors}")
    for vector, witness in zip(outcomes.vectors, outcomes.witnesses, strict=True):
        lines.append(f"    {vector_text(vector)} after {_steps(len(witness))}:")
        lines += line_of_play(f"outcome {vector_text(vector)}", witness, indent="      ")
    for label, answer, unit in rows[5:]:
        lines.append(_answer_line(label, answer, unit))
        lines += line_of_play(label, answer.witness)
    teams = " | ".join(" ".join(team) for team in result.teams.value or []) or "none"
    lines.append(f"  {'teams':18} {result.teams.status:8} {teams}")
    if not result.complete:
        lines.append(
            "  (not every game is proved to end within the horizon: answers hold up to it only)"
        )
    if result.interrupted:
        lines.append("  (interrupted: what is unknown was not reached)")
    lines.append(f"  total {result.seconds:.1f} s")
    return "\n".join(lines)


def _answer_line(label: str, answer: Answer, unit: str) -> str:
    value = value_text(answer, unit)
    return f"  {label:18} {answer.status:8} {value:12} {answer.detail}".rstrip()


def _last_state(result: Verification, witness, game: Game):
    """The state a witness ends in on `game`: kept from verify's replay if it was on this
    game, else replayed."""
    replayed_on, state = result.last_states.get(witness, (None, None))
    return state if replayed_on is game else replay_line(game, witness).states[-1]


def _steps(count: int) -> str:
    return f"{count} step{'' if count == 1 else 's'}"


def _dead_rules_text(rules: Sequence[str]) -> list[str]:
    """The rules that never fire, DEAD_RULES_SHOWN at most, under a heading (none: no line)."""
    if not rules:
        return []
    lines = [f"  rules that never fire ({len(rules)}): {NEVER_FIRES}"]
    lines += [f"    {rule}" for rule in rules[:DEAD_RULES_SHOWN]]
    if len(rules) > DEAD_RULES_SHOWN:
        lines.append(f"    ... ({len(rules) - DEAD_RULES_SHOWN} more)")
    return lines
