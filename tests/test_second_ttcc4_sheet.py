"""A second rule sheet of ttcc4 (issue 11, item 6): tests/data/gdl/ttcc4_pttc_style.kif is the
same game as the built-in ttcc4, written independently in the style of the GGP repository's
board-game sheets (legal and next per piece and move, frame axioms over moves).

The built-in move generator (models/ttcc4.py) is the second method: along seeded random
playouts and along every joint move of the first three plies, both must give the same state
facts, legal actions (as text), terminal flag and goals in every state. The perft counts and
hand-worked positions of tests/data/ttcc4.toml (RULES.md section 2) hold for the sheet too,
and verify gives the same answers on both (slow).
"""

from __future__ import annotations

import functools
import itertools
import random
import tomllib
from collections import Counter
from pathlib import Path

import pytest

import gamecheck
from gamecheck.models.base import Game

SHEET = Path(__file__).parent / "data" / "gdl" / "ttcc4_pttc_style.kif"
DATA = tomllib.loads((Path(__file__).parent / "data" / "ttcc4.toml").read_text())
BUILTIN = gamecheck.load("ttcc4")
PLAYOUTS = 40
SEED = 11


@functools.cache
def second_sheet() -> Game:
    return gamecheck.load(str(SHEET))


def legal_texts(game: Game, state) -> dict[str, list[str]]:
    """Every role's legal actions, as sorted text."""
    return {
        role: sorted(game.action_text(action) for action in game.legal(state, role))
        for role in game.roles
    }


def play(game: Game, state, joint: tuple[str, ...]):
    actions = [game.parse_action(role, text) for role, text in zip(game.roles, joint, strict=True)]
    return game.next(state, actions)


def assert_same_position(builtin_state, sheet_state, where: str) -> dict[str, list[str]]:
    """The two games agree on the state's facts, terminal flag, goals and legal actions; the
    legal actions are returned."""
    sheet = second_sheet()
    assert sheet.state_facts(sheet_state) == BUILTIN.state_facts(builtin_state), where
    assert sheet.is_terminal(sheet_state) == BUILTIN.is_terminal(builtin_state), where
    assert sheet.goals(sheet_state) == BUILTIN.goals(builtin_state), where
    legal = legal_texts(BUILTIN, builtin_state)
    assert legal_texts(sheet, sheet_state) == legal, where
    return legal


def test_lint_finds_nothing():
    lint = gamecheck.lint(str(SHEET))
    assert lint.findings == ()
    assert lint.rules


def test_roles_and_initial_state_are_those_of_rules_md():
    sheet = second_sheet()
    assert sheet.roles == ("red", "yellow", "blue")
    assert sheet.state_facts(sheet.initial_state()) == {
        "(cell 1 5 redPawn)", "(cell 1 4 redChecker)", "(cell 1 3 redKnight)",
        "(cell 3 1 yellowPawn)", "(cell 4 1 yellowChecker)", "(cell 5 1 yellowKnight)",
        "(cell 7 3 bluePawn)", "(cell 7 4 blueChecker)", "(cell 7 5 blueKnight)",
        "(control red)", "(step 1)",
    }  # fmt: skip


@pytest.mark.parametrize("position", DATA["position"], ids=lambda p: p["name"])
def test_hand_worked_positions(position):
    sheet = second_sheet()
    state = sheet.state_from_facts(position["facts"])
    for role, expected in position["legal"].items():
        assert sorted(map(sheet.action_text, sheet.legal(state, role))) == sorted(expected), role


def column_after_drop(facts: list[str], column: int) -> list[str]:
    """The pieces on rows 2..6 of a drop column after red drops a disc into it."""
    sheet = second_sheet()
    state = sheet.state_from_facts([*facts, "(control red)", "(step 4)"])
    after = sheet.state_facts(play(sheet, state, (f"(drop {column})", "noop", "noop")))
    return sorted(
        fact
        for fact in after
        if fact.startswith(f"(cell {column} ") and not fact.startswith(f"(cell {column} 1 ")
    )


def test_a_disc_falls_onto_the_highest_piece_of_its_column_or_to_row_2():
    # RULES.md: the disc enters at (x 6) and falls while the cell below it is empty.
    assert column_after_drop([], 4) == ["(cell 4 2 redDisc)"]
    # A hole under a piece stays a hole: the disc stops on the piece at (4 3).
    assert column_after_drop(["(cell 4 3 blueDisc)"], 4) == [
        "(cell 4 3 blueDisc)",
        "(cell 4 4 redDisc)",
    ]
    assert column_after_drop(["(cell 5 2 yellowPawn)", "(cell 5 5 redKnight)"], 5) == [
        "(cell 5 2 yellowPawn)",
        "(cell 5 5 redKnight)",
        "(cell 5 6 redDisc)",
    ]
    # The yellow pieces on their start cells (x 1) lie below the floor, row 2.
    start = ["(cell 3 1 yellowPawn)", "(cell 4 1 yellowChecker)", "(cell 5 1 yellowKnight)"]
    assert column_after_drop(start, 3) == ["(cell 3 2 redDisc)"]


# Red pawn (3 3), checker (2 5), knight (1 3); a yellow pawn on (3 4), a blue disc on (4 4).
CAPTURES = ["(cell 3 3 redPawn)", "(cell 2 5 redChecker)", "(cell 1 3 redKnight)",
            "(cell 3 4 yellowPawn)", "(cell 4 4 blueDisc)"]  # fmt: skip
AFTER_CAPTURE = {
    # the pawn takes the blue disc diagonally: the disc is gone
    "(pawnMove 3 3 4 4)": ["(cell 4 4 redPawn)", "(cell 2 5 redChecker)", "(cell 1 3 redKnight)",
                           "(cell 3 4 yellowPawn)"],
    # the checker jumps the yellow pawn, which goes back to its start cell (3 1)
    "(jump 2 5 3 4 4 3)": ["(cell 3 3 redPawn)", "(cell 4 3 redChecker)", "(cell 1 3 redKnight)",
                           "(cell 3 1 yellowPawn)", "(cell 4 4 blueDisc)"],
    # the knight takes the yellow pawn, which goes back to (3 1)
    "(knightMove 1 3 3 4)": ["(cell 3 3 redPawn)", "(cell 2 5 redChecker)", "(cell 3 4 redKnight)",
                             "(cell 3 1 yellowPawn)", "(cell 4 4 blueDisc)"],
}  # fmt: skip


@pytest.mark.parametrize("action", sorted(AFTER_CAPTURE))
def test_captured_pieces_go_home_and_captured_discs_are_gone(action):
    sheet = second_sheet()
    state = sheet.state_from_facts([*CAPTURES, "(control red)", "(step 9)"])
    after = sheet.state_facts(play(sheet, state, (action, "noop", "noop")))
    assert after == {*AFTER_CAPTURE[action], "(control yellow)", "(step 10)"}


CENTRE_LINES = {
    "row 3": ((3, 3), (4, 3), (5, 3)),
    "row 4": ((3, 4), (4, 4), (5, 4)),
    "row 5": ((3, 5), (4, 5), (5, 5)),
    "column 3": ((3, 3), (3, 4), (3, 5)),
    "column 4": ((4, 3), (4, 4), (4, 5)),
    "column 5": ((5, 3), (5, 4), (5, 5)),
    "rising diagonal": ((3, 3), (4, 4), (5, 5)),
    "falling diagonal": ((3, 5), (4, 4), (5, 3)),
}
"""RULES.md: the rows, columns and diagonals of the centre square 3 <= x, y <= 5."""
LINE_PIECES = {"red": ("redPawn", "redDisc", "redKnight"),
               "yellow": ("yellowDisc", "yellowChecker", "yellowDisc"),
               "blue": ("blueKnight", "bluePawn", "blueDisc")}  # fmt: skip


@pytest.mark.parametrize("cells", CENTRE_LINES.values(), ids=list(CENTRE_LINES))
@pytest.mark.parametrize("role", LINE_PIECES)
def test_three_pieces_of_a_role_on_a_centre_line_win(cells, role):
    sheet = second_sheet()
    facts = [
        f"(cell {x} {y} {piece})" for (x, y), piece in zip(cells, LINE_PIECES[role], strict=True)
    ]
    state = sheet.state_from_facts([*facts, "(control red)", "(step 12)"])
    assert sheet.is_terminal(state)
    assert sheet.goals(state) == tuple(100 if r == role else 0 for r in sheet.roles)
    (x, y), enemy = cells[2], "redDisc" if role != "red" else "blueDisc"
    broken = [*facts[:2], f"(cell {x} {y} {enemy})", "(control red)", "(step 12)"]
    assert not sheet.is_terminal(sheet.state_from_facts(broken))
    assert sheet.goals(sheet.state_from_facts(broken)) == (0, 0, 0)


def test_every_joint_move_of_the_first_three_plies():
    """Walk the game tree to depth 3 on both games at once; the number of joint-action
    sequences of each length is the perft of tests/data/ttcc4.toml (depth 2 by hand)."""
    sheet = second_sheet()
    sequences = Counter()

    def walk(builtin_state, sheet_state, line: tuple, depth: int) -> None:
        legal = assert_same_position(builtin_state, sheet_state, f"after {line}")
        if depth == 3 or BUILTIN.is_terminal(builtin_state):
            return
        for joint in itertools.product(*legal.values()):
            sequences[depth + 1] += 1
            walk(play(BUILTIN, builtin_state, joint), play(sheet, sheet_state, joint),
                 (*line, joint), depth + 1)  # fmt: skip

    walk(BUILTIN.initial_state(), sheet.initial_state(), (), 0)
    expected = {case["depth"]: case["nodes"] for case in DATA["perft"] if case["depth"] <= 3}
    assert dict(sequences) == expected == {1: 10, 2: 99, 3: 978}


def events(before: frozenset[str], action: str, after: frozenset[str]) -> list[str]:
    """What the controller's action did, for the coverage of the playouts: its kind, whether
    it captured (a disc, or a piece sent home), whether a dropped disc stopped above row 2."""
    kind, *numbers = action.strip("()").split()
    found = [kind]
    if kind in ("pawnMove", "knightMove", "jump"):
        x, y = numbers[2:4]  # the destination of a move, the jumped cell of a jump
        captured = [fact for fact in before if fact.startswith(f"(cell {x} {y} ")]
        if captured:
            found.append(f"{kind} capture")
            found.append("disc captured" if "Disc" in captured[0] else "piece sent home")
    if kind == "drop":
        (landed,) = {fact for fact in after - before if "Disc" in fact}
        if not landed.startswith(f"(cell {numbers[0]} 2 "):
            found.append("drop onto a piece")
    return found


COVERED = [
    *("drop", "pawnMove", "knightMove", "checkerMove", "jump"),
    *("pawnMove capture", "knightMove capture", "jump capture", "disc captured"),
    *("piece sent home", "drop onto a piece"),
    *("goals (100, 0, 0)", "goals (0, 100, 0)", "goals (0, 0, 100)", "goals (0, 0, 0)"),
]
"""What the random playouts must have met for their agreement to mean something."""


def test_seeded_random_playouts_agree_step_by_step():
    sheet = second_sheet()
    rng = random.Random(SEED)
    seen = Counter()
    for playout in range(PLAYOUTS):
        builtin_state, sheet_state = BUILTIN.initial_state(), sheet.initial_state()
        line: list[tuple[str, ...]] = []
        while not BUILTIN.is_terminal(builtin_state):
            legal = assert_same_position(builtin_state, sheet_state, f"playout {playout}: {line}")
            joint = tuple(rng.choice(actions) for actions in legal.values())
            line.append(joint)
            before = BUILTIN.state_facts(builtin_state)
            builtin_state = play(BUILTIN, builtin_state, joint)
            sheet_state = play(sheet, sheet_state, joint)
            after = BUILTIN.state_facts(builtin_state)
            for action in set(joint) - {"noop"}:
                seen.update(events(before, action, after))
        assert_same_position(builtin_state, sheet_state, f"playout {playout}: {line}")
        seen[f"goals {BUILTIN.goals(builtin_state)}"] += 1
    assert [event for event in COVERED if not seen[event]] == [], seen


def answers(result: dict) -> dict[str, tuple]:
    """Every answer of a verify run (its JSON) as (status, value, detail), without the
    witnesses and times, the outcome set sorted; and the run's completeness."""
    questions = {
        **{q: result[q] for q in ("termination", "longest_game", "shortest_game")},
        "playability": result["playability"],
        **{q: result[q] for q in ("goal_definedness", "outcomes", "teams")},
        **{f"earliest win {role}": answer for role, answer in result["earliest_win"].items()},
    }
    found = {
        question: (answer["status"], answer.get("value"), answer.get("detail"))
        for question, answer in questions.items()
    }
    status, outcomes, detail = found["outcomes"]
    found["outcomes"] = (status, sorted(map(tuple, outcomes)), detail)
    found["run"] = (result["complete"], result["defects"], result["unknown"])
    return found


@pytest.mark.slow
def test_verify_answers_the_same_on_both_sheets():
    ours = answers(gamecheck.verify("ttcc4").to_json())
    second = answers(gamecheck.verify(str(SHEET)).to_json())
    assert second == ours
    # By hand (RULES.md): all noops reach (step 31) after 30 steps; only the mover can complete
    # a line, which ends the game, so a role needs three of its own moves (red moves at steps
    # 1, 4, 7, yellow 2, 5, 8, blue 3, 6, 9) and no two roles win together; noop is always
    # legal; every role has goal 100 or 0, and no two roles always share theirs.
    assert {question: answer[:2] for question, answer in ours.items() if question != "run"} == {
        "termination": ("proved", 30),
        "longest_game": ("proved", 30),
        "shortest_game": ("proved", 7),
        "playability": ("proved", None),
        "goal_definedness": ("proved", None),
        "outcomes": ("proved", [(0, 0, 0), (0, 0, 100), (0, 100, 0), (100, 0, 0)]),
        "teams": ("proved", []),
        "earliest win red": ("found", 7),
        "earliest win yellow": ("found", 8),
        "earliest win blue": ("found", 9),
    }
    assert ours["run"] == (True, [], [])
