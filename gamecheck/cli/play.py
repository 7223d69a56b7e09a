"""`gamecheck play GAME`: one random playout, as a readable trace or as JSON lines."""

from __future__ import annotations

import json

from gamecheck.analysis.loading import load_game
from gamecheck.analysis.playouts import Step, final_state, random_steps
from gamecheck.cli.options import seed
from gamecheck.models.base import Game, State


def register(subparsers) -> None:
    parser = subparsers.add_parser("play", help="play one random game and print its trace")
    parser.add_argument("game", metavar="GAME", help="a built-in game name or a GDL rule sheet")
    parser.add_argument("--seed", type=seed, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--json", action="store_true", help="one JSON object per step, the outcome last"
    )
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    game = load_game(args.game)
    steps = list(random_steps(game, args.seed))
    final = final_state(game, steps)
    if args.json:
        for step in steps:
            print(json.dumps(step_json(game, step)))
        print(json.dumps(outcome_json(game, final, len(steps) + 1)))
    else:
        print(trace_text(game, args.seed, steps, final))
    return 0


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


def outcome_json(game: Game, state: State, number: int) -> dict:
    """The state the playout ends in, with its goals per role."""
    return {
        "step": number,
        "state": sorted(game.state_facts(state)),
        "terminal": game.is_terminal(state),
        "goals": dict(zip(game.roles, game.goals(state), strict=True)),
    }


def trace_text(game: Game, seed: int, steps: list[Step], final: State) -> str:
    """Each step's board and joint action, then the final board and the goals."""
    lines = [f"{game.name}, random playout with seed {seed}; roles {', '.join(game.roles)}"]
    for step in steps:
        joint = ", ".join(
            f"{role} {game.action_text(action)}"
            for role, action in zip(game.roles, step.joint, strict=True)
        )
        lines += ["", f"step {step.number}", game.picture(step.state), f"joint: {joint}"]
    goals = ", ".join(
        f"{role} {value}" for role, value in zip(game.roles, game.goals(final), strict=True)
    )
    lines += ["", f"terminal after {len(steps)} steps", game.picture(final), f"goals: {goals}"]
    return "\n".join(lines)
