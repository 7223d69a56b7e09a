"""`gamecheck play GAME`: one random playout, as a readable trace or as JSON lines.

A playout that does not end in a terminal state with one goal value per role shows the
rules broken (a role without a legal action, undefined goals: exit 1) or ran out of steps
or time (exit 4); either way the steps played are printed, then how it ended.
"""

from __future__ import annotations

import json

from gamecheck.analysis.playouts import (
    MAX_STEPS,
    NO_GOALS,
    STOPPED,
    STUCK,
    TERMINAL,
    TOO_LONG,
    RandomPlayout,
    Step,
)
from gamecheck.cli import status
from gamecheck.cli.options import (
    add_json,
    add_max_steps,
    add_start,
    add_time_limit,
    from_start,
    seed,
    start_state,
)
from gamecheck.models.base import Game

HEADLINES = {
    STUCK: "stuck (the rules are broken)",
    NO_GOALS: "goals undefined (the rules are broken)",
    TOO_LONG: "no end",
    STOPPED: "stopped (time limit or interruption)",
}
"""How the trace names an ending other than a terminal state with goals."""


def register(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play one random game and print its trace")
    parser.add_argument("game", metavar="GAME", help="a built-in game name or a GDL rule sheet")
    parser.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    add_max_steps(parser, MAX_STEPS)
    add_start(parser, "play")
    add_time_limit(parser, "seconds for the playout")
    add_json(parser, "one JSON object per step, the ending last")
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    from gamecheck.analysis.loading import load_game

    game = load_game(args.game)
    start = start_state(game, args)
    playout = RandomPlayout(game, args.seed, max_steps=args.max_steps, budget=budget, start=start)
    steps = list(playout)
    if args.json:
        for step in steps:
            print(json.dumps(step_json(game, step)))
        print(json.dumps(ending_json(game, playout)))
    else:
        print(trace_text(game, args.seed, steps, playout, from_start(args)))
    return status(defective=playout.ending.defective, unknown=playout.ending.reason != TERMINAL)


def step_json(game: Game, step: Step) -> dict:
    """A step as JSON: number, state facts, each role's legal actions, the joint action."""
    return {
        "step": step.number,
        "state": sorted(game.state_facts(step.state)),
        "legal": {
            role: sorted(map(game.action_text, actions))
            for role, actions in zip(game.roles, step.legal, strict=True)
        },
        "joint": [game.action_text(action) for action in step.joint],
    }


def ending_json(game: Game, playout: RandomPlayout) -> dict:
    """The state the playout ends in, whether it is terminal, the goals per role (None
    unless it ended terminal) and how it ended (`terminal`, `stuck`, `goals undefined`,
    `too long`, `stopped`), with what went wrong."""
    goals = playout.goals
    return {
        "step": playout.length + 1,
        "state": sorted(game.state_facts(playout.final)),
        "terminal": playout.ending.reason in (TERMINAL, NO_GOALS),
        "goals": None if goals is None else dict(zip(game.roles, goals, strict=True)),
        "ending": playout.ending.reason,
        "detail": playout.ending.detail,
    }


def trace_text(
    game: Game,
    seed: int,
    steps: list[Step],
    playout: RandomPlayout,
    start: str = "",
) -> str:
    """Each step's board and joint action, then the final board and how the playout ended
    (`start`: options.from_start)."""
    head = f"{game.name}, random playout with seed {seed}{start}"
    lines = [f"{head}; roles {', '.join(game.roles)}"]
    for step in steps:
        joint = ", ".join(
            f"{role} {game.action_text(action)}"
            for role, action in zip(game.roles, step.joint, strict=True)
        )
        lines += ["", f"step {step.number}", game.picture(step.state), f"joint: {joint}"]
    count = f"{len(steps)} step{'' if len(steps) == 1 else 's'}"
    ending = playout.ending
    if playout.goals is None:
        headline, last = HEADLINES[ending.reason], [ending.detail] if ending.detail else []
    else:
        goals = zip(game.roles, playout.goals, strict=True)
        headline, last = "terminal", ["goals: " + ", ".join(f"{r} {v}" for r, v in goals)]
    lines += ["", f"{headline} after {count}", game.picture(playout.final), *last]
    return "\n".join(lines)
