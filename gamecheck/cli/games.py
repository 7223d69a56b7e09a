"""`gamecheck games`: list the built-in games."""

from __future__ import annotations

from gamecheck.models import builtin_names, get_game


def register(subparsers) -> None:
    parser = subparsers.add_parser("games", help="list the built-in games")
    parser.set_defaults(run=run)


def run(args, budget) -> int:
    for name in builtin_names():
        game = get_game(name)
        bound = f"at most {game.step_bound} steps" if game.step_bound else "no step bound"
        print(f"{name:12} {len(game.roles)} role(s): {', '.join(game.roles)}; {bound}")
    return 0
