"""tictacchess (RULES.md section 5) against hand-worked positions and a reference generator."""

from __future__ import annotations

import random

import pytest

from gamecheck.errors import BadTermError, IllegalActionError
from gamecheck.models import get_game
from tests.game_checks import (
    check_random_playouts,
    check_rejects_illegal_joints,
    legal_texts,
    load_data,
    perft,
    perft_breakdown,
    position,
)

GAME = get_game("tictacchess")
DATA = load_data("tictacchess")
ROLES = ("red", "yellow", "blue")
SPAWNS = {(1, 4, "red"), (4, 1, "yellow"), (7, 4, "blue")}
START = frozenset(SPAWNS)


def state_of(name: str):
    return GAME.state_from_facts(position(DATA, name)["facts"])


def play(state, text: str):
    """The next state after the controller plays `text` and everyone else noop."""
    (controller,) = [f[9:-1] for f in GAME.state_facts(state) if f.startswith("(control ")]
    joint = tuple(GAME.parse_action(r, text if r == controller else "noop") for r in ROLES)
    return GAME.next(state, joint)


# A reference generator written straight from RULES.md over (x, y, role) triples.


def on_board(x: int, y: int) -> bool:
    return 2 <= x <= 6 and 2 <= y <= 6


def reference_moves(pieces: frozenset, role: str) -> list[str]:
    """`role`'s legal actions: king captures and knight jumps on board, else noop."""
    moves = []
    for x1, y1, owner in pieces:
        if owner != role:
            continue
        for dx in range(-2, 3):
            for dy in range(-2, 3):
                x2, y2 = x1 + dx, y1 + dy
                if not on_board(x2, y2):
                    continue
                holders = {r for x, y, r in pieces if (x, y) == (x2, y2)}
                king = max(abs(dx), abs(dy)) == 1
                knight = sorted([abs(dx), abs(dy)]) == [1, 2]
                if (king and holders - {role}) or (knight and not holders):
                    moves.append(f"(move {x1} {y1} {x2} {y2})")
    return sorted(moves) or ["noop"]


def reference_next(pieces: frozenset, role: str, action: str) -> frozenset:
    if action != "noop":
        x1, y1, x2, y2 = map(int, action[6:-1].split())
        pieces = {p for p in pieces if p[:2] != (x2, y2) and p != (x1, y1, role)}
        pieces = pieces | {(x2, y2, role)}
    return frozenset(pieces) | START


def reference_winners(pieces: frozenset) -> set[str]:
    centre = range(3, 6)
    lines = [[(x, y) for x in centre] for y in centre] + [[(x, y) for y in centre] for x in centre]
    lines += [[(3, 3), (4, 4), (5, 5)], [(3, 5), (4, 4), (5, 3)]]
    return {role for role in ROLES for line in lines if all((*c, role) in pieces for c in line)}


def reference_perft(pieces: frozenset, turn: int, step: int, depth: int) -> int:
    if depth == 0:
        return 1
    if step == 31 or reference_winners(pieces):
        return 0
    role = ROLES[turn % 3]
    return sum(
        reference_perft(reference_next(pieces, role, move), turn + 1, step + 1, depth - 1)
        for move in reference_moves(pieces, role)
    )


def reference_facts(pieces: frozenset, turn: int, step: int) -> frozenset[str]:
    cells = {f"(cell {x} {y} {r})" for x, y, r in pieces}
    return frozenset(cells | {f"(control {ROLES[turn % 3]})", f"(step {step})"})


def test_initial_state():
    facts = {"(cell 1 4 red)", "(cell 4 1 yellow)", "(cell 7 4 blue)", "(control red)", "(step 1)"}
    assert GAME.state_facts(GAME.initial_state()) == frozenset(facts)
    assert GAME.roles == ROLES
    assert GAME.step_bound == 30


@pytest.mark.parametrize("data", DATA["position"], ids=lambda p: p["name"])
def test_hand_built_position(data):
    state = GAME.state_from_facts(data["facts"])
    assert GAME.is_terminal(state) == data["terminal"]
    waiting = [] if data["terminal"] else ["noop"]
    expected = {role: sorted(data["legal"].get(role, waiting)) for role in ROLES}
    assert legal_texts(GAME, state) == expected
    if data["terminal"]:
        assert list(GAME.goals(state)) == data["goals"]


@pytest.mark.parametrize("data", DATA["perft"], ids=lambda p: f"depth{p['depth']}")
def test_perft(data):
    start = GAME.initial_state()
    nodes = perft(GAME, start, data["depth"])
    assert nodes == data["nodes"], perft_breakdown(GAME, start, data["depth"])
    assert reference_perft(START, 0, 1, data["depth"]) == data["nodes"]


def test_king_capture_removes_the_captured_piece_and_control_passes():
    state = play(state_of("king captures"), "(move 3 3 4 4)")
    expected = {
        "(cell 1 4 red)",
        "(cell 4 4 red)",
        "(cell 3 4 red)",
        "(cell 4 1 yellow)",
        "(cell 7 4 blue)",
        "(cell 2 3 blue)",
        "(control yellow)",
        "(step 6)",
    }
    assert GAME.state_facts(state) == frozenset(expected)


def test_a_piece_leaving_its_spawn_cell_is_replaced():
    state = play(GAME.initial_state(), "(move 1 4 3 3)")
    expected = {
        "(cell 3 3 red)",
        "(cell 1 4 red)",
        "(cell 4 1 yellow)",
        "(cell 7 4 blue)",
        "(control yellow)",
        "(step 2)",
    }
    assert GAME.state_facts(state) == frozenset(expected)


def test_spawning_refills_a_captured_spawn_piece_even_after_a_noop():
    # red captures yellow's only piece off board; yellow, with no piece, spawns one at (4 1)
    facts = ["(cell 1 4 red)", "(cell 2 3 yellow)", "(cell 7 4 blue)", "(control red)", "(step 9)"]
    state = play(GAME.state_from_facts(facts), "(move 1 4 2 3)")
    assert {"(cell 2 3 red)", "(cell 1 4 red)", "(cell 4 1 yellow)"} <= GAME.state_facts(state)
    assert "(cell 2 3 yellow)" not in GAME.state_facts(state)
    # a blocked controller's noop step still spawns, counts the step and passes control
    blocked = state_of("red blocked")
    after = play(blocked, "noop")
    facts = set(position(DATA, "red blocked")["facts"]) - {"(control red)", "(step 7)"}
    assert GAME.state_facts(after) == frozenset(facts | {"(control yellow)", "(step 8)"})


def test_another_roles_piece_on_a_spawn_cell_stays_beside_the_spawned_piece():
    state = play(state_of("yellow on red's spawn cell"), "noop")
    assert {"(cell 1 4 red)", "(cell 1 4 yellow)"} <= GAME.state_facts(state)


def test_a_jump_that_completes_a_centre_line_wins():
    state = play(state_of("red completes a column"), "(move 1 4 3 5)")
    assert GAME.is_terminal(state)
    assert GAME.goals(state) == (100, 0, 0)


def test_the_step_after_30_ends_the_game_with_nothing_for_anyone():
    state = play(state_of("step 30"), "(move 7 4 5 5)")
    assert "(step 31)" in GAME.state_facts(state)
    assert GAME.is_terminal(state)
    assert GAME.goals(state) == (0, 0, 0)


def test_noop_rules():
    with pytest.raises(IllegalActionError):  # the controller may not noop while it has a move
        play(GAME.initial_state(), "noop")
    with pytest.raises(IllegalActionError):  # a blocked controller has nothing but noop
        play(state_of("red blocked"), "(move 1 4 2 2)")
    with pytest.raises(IllegalActionError):  # a king step onto an empty cell
        play(state_of("king captures"), "(move 3 3 4 3)")
    move = GAME.parse_action("yellow", "(move 1 4 2 2)")
    with pytest.raises(IllegalActionError):  # only the controller moves
        GAME.next(GAME.initial_state(), (move, move, "noop"))


@pytest.mark.parametrize(
    "facts",
    [
        ["(cell 1 4 red)", "(step 1)"],  # no controller
        ["(cell 1 4 red)", "(control red)"],  # no step
        ["(control red)", "(control blue)", "(step 1)"],
        ["(control red)", "(step 1)", "(step 2)"],
        ["(control red)", "(step 0)"],
        ["(control red)", "(step 32)"],
        ["(control red)", "(step 1)", "(cell 8 1 red)"],
        ["(control red)", "(step 1)", "(cell 1 1 green)"],
        ["(control red)", "(step 1)", "(cell 1 1)"],
        ["(control red)", "(step 1)", "(selected row 1)"],
        ["(control green)", "(step 1)"],
    ],
)
def test_state_from_facts_rejects_bad_fact_sets(facts):
    with pytest.raises(BadTermError):
        GAME.state_from_facts(facts)


@pytest.mark.parametrize(
    "text", ["(move 1 4 2)", "(move 0 1 2 2)", "(move 1 4 2 x)", "(drop 3)", "(noop)", "noop)"]
)
def test_parse_action_rejects_unknown_actions(text):
    with pytest.raises(BadTermError):
        GAME.parse_action("red", text)


def test_random_playouts_agree_with_the_reference_generator():
    for seed in range(30):
        rng = random.Random(seed)
        pieces, turn, step = START, 0, 1
        state = GAME.initial_state()
        while True:
            assert GAME.state_facts(state) == reference_facts(pieces, turn, step)
            terminal = step == 31 or bool(reference_winners(pieces))
            assert GAME.is_terminal(state) == terminal
            if terminal:
                winners = reference_winners(pieces)
                assert GAME.goals(state) == tuple(100 if r in winners else 0 for r in ROLES)
                break
            role = ROLES[turn % 3]
            moves = reference_moves(pieces, role)
            assert legal_texts(GAME, state)[role] == moves
            move = rng.choice(moves)
            state = play(state, move)
            pieces, turn, step = reference_next(pieces, role, move), turn + 1, step + 1


def test_random_playouts_keep_the_interface_promises():
    check_random_playouts(GAME, range(40))


def test_next_rejects_illegal_joint_actions():
    check_rejects_illegal_joints(GAME, range(10))
