"""The reasoner and GdlGame on the small rule sheets, against positions worked out by hand."""

from pathlib import Path

import pytest

from gamecheck.errors import BadTermError, GamecheckError, IllegalActionError
from gamecheck.gdl.syntax import GdlError
from gamecheck.gdl.terms import parse_term, term_text
from gamecheck.models.sheet import GdlGame

DATA = Path(__file__).parent / "data" / "gdl"


def load(name: str) -> GdlGame:
    return GdlGame.from_file(DATA / f"{name}.kif")


def play(game: GdlGame, moves: list[str]):
    """Play `moves` (actions of the role in control, alternating roles from the first; noop
    for the others) from the initial state."""
    state = game.initial_state()
    for number, move in enumerate(moves):
        mover = number % len(game.roles)
        joint = tuple(
            game.parse_action(role, move if index == mover else "noop")
            for index, role in enumerate(game.roles)
        )
        state = game.next(state, joint)
    return state


def legal_text(game: GdlGame, state, role: str) -> list[str]:
    return [game.action_text(action) for action in game.legal(state, role)]


# --- tic-tac-toe -----------------------------------------------------------------------------


def test_tictactoe_initial_state():
    game = load("tictactoe")
    assert game.name == "tictactoe"
    assert game.roles == ("xplayer", "oplayer")
    state = game.initial_state()
    cells = {f"(cell {m} {n} b)" for m in (1, 2, 3) for n in (1, 2, 3)}
    assert game.state_facts(state) == frozenset(cells | {"(control xplayer)"})
    assert legal_text(game, state, "xplayer") == [
        f"(mark {m} {n})" for m in (1, 2, 3) for n in (1, 2, 3)
    ]
    assert legal_text(game, state, "oplayer") == ["noop"]
    assert not game.is_terminal(state)
    assert game.goals(state) == (50, 50)  # no line yet: the draw rule holds


def test_tictactoe_after_two_moves():
    game = load("tictactoe")
    state = play(game, ["(mark 2 2)", "(mark 1 1)"])
    facts = game.state_facts(state)
    assert {"(cell 2 2 x)", "(cell 1 1 o)", "(control xplayer)", "(cell 3 3 b)"} <= facts
    assert "(cell 2 2 b)" not in facts and len(facts) == 10
    free = [
        f"(mark {m} {n})" for m in (1, 2, 3) for n in (1, 2, 3) if (m, n) not in {(1, 1), (2, 2)}
    ]
    assert legal_text(game, state, "xplayer") == free
    assert legal_text(game, state, "oplayer") == ["noop"]


def test_tictactoe_won_row():
    game = load("tictactoe")
    state = play(game, ["(mark 1 1)", "(mark 2 1)", "(mark 1 2)", "(mark 2 2)", "(mark 1 3)"])
    assert game.is_terminal(state)
    assert game.goals(state) == (100, 0)
    # The rules still derive legal moves here (control has passed to oplayer), but a terminal
    # state has none for the Game interface.
    derived = sorted(map(term_text, game.reasoner.legal(state, "oplayer")))
    assert derived == ["(mark 2 3)", "(mark 3 1)", "(mark 3 2)", "(mark 3 3)"]
    assert game.legal(state, "oplayer") == game.legal(state, "xplayer") == []


def test_tictactoe_draw():
    # X O X / X O O / O X X: no line, board full.
    moves = [
        "(mark 1 1)",
        "(mark 2 2)",
        "(mark 1 3)",
        "(mark 1 2)",
        "(mark 3 2)",
        "(mark 2 3)",
        "(mark 2 1)",
        "(mark 3 1)",
        "(mark 3 3)",
    ]
    game = load("tictactoe")
    state = play(game, moves[:-1])
    assert not game.is_terminal(state)
    assert legal_text(game, state, "xplayer") == ["(mark 3 3)"]
    state = play(game, moves)
    assert game.is_terminal(state)
    assert game.goals(state) == (50, 50)


def test_illegal_move_is_refused():
    game = load("tictactoe")
    state = play(game, ["(mark 2 2)"])
    with pytest.raises(IllegalActionError, match=r"\(mark 1 1\) is not a legal action of xplayer"):
        game.next(state, (parse_term("(mark 1 1)"), parse_term("(mark 2 2)")))


# --- connect four (5 x 4) --------------------------------------------------------------------


def test_connect4_initial_legal():
    game = load("connect4_small")
    state = game.initial_state()
    assert legal_text(game, state, "red") == [f"(drop {c})" for c in range(1, 6)]
    assert legal_text(game, state, "yellow") == ["noop"]


def test_connect4_discs_fall_onto_each_other_and_fill_a_column():
    game = load("connect4_small")
    state = play(game, ["(drop 3)", "(drop 3)", "(drop 3)"])
    facts = game.state_facts(state)
    assert {"(cell 3 1 red)", "(cell 3 2 yellow)", "(cell 3 3 red)", "(cell 3 4 b)"} <= facts
    assert "(cell 2 1 b)" in facts
    fallsto = game.reasoner.state_model(state)["fallsto"].known
    assert {(c, r) for c, r in fallsto if c == "3"} == {("3", "4")}
    assert {(c, r) for c, r in fallsto if c == "1"} == {
        ("1", "4"),
        ("1", "3"),
        ("1", "2"),
        ("1", "1"),
    }
    state = play(game, ["(drop 3)"] * 4)
    assert legal_text(game, state, "red") == ["(drop 1)", "(drop 2)", "(drop 4)", "(drop 5)"]


def test_connect4_vertical_win():
    game = load("connect4_small")
    state = play(game, ["(drop 1)", "(drop 2)"] * 3 + ["(drop 1)"])
    assert game.is_terminal(state)
    assert game.goals(state) == (100, 0)


def test_connect4_diagonal_win():
    moves = [
        "(drop 1)",
        "(drop 2)",
        "(drop 2)",
        "(drop 3)",
        "(drop 4)",
        "(drop 3)",
        "(drop 3)",
        "(drop 4)",
        "(drop 5)",
        "(drop 4)",
        "(drop 4)",
    ]
    game = load("connect4_small")
    before = play(game, moves[:-1])
    assert not game.is_terminal(before)
    assert game.goals(before) == (50, 50)
    state = play(game, moves)
    assert {
        "(cell 1 1 red)",
        "(cell 2 2 red)",
        "(cell 3 3 red)",
        "(cell 4 4 red)",
    } <= game.state_facts(state)
    assert game.is_terminal(state)
    assert game.goals(state) == (100, 0)


# --- towers of hanoi -------------------------------------------------------------------------


def test_hanoi_static_recursive_relation():
    game = load("hanoi")
    smaller = game.reasoner.static_model["smaller"].known
    discs_under_pegs = {(d, p) for d in "123" for p in "abc"}
    assert smaller == {("1", "2"), ("2", "3"), ("1", "3")} | discs_under_pegs


def test_hanoi_legal_moves_and_recursive_state_relation():
    game = load("hanoi")
    state = game.initial_state()
    assert legal_text(game, state, "solver") == ["(move 1 b)", "(move 1 c)"]
    onpeg = game.reasoner.state_model(state)["onpeg"].known
    assert onpeg == {("1", "a"), ("2", "a"), ("3", "a")}
    state = play(game, ["(move 1 c)"])
    assert legal_text(game, state, "solver") == ["(move 1 2)", "(move 1 b)", "(move 2 b)"]
    assert game.goals(state) == (0,)


def test_hanoi_solved_in_seven_moves():
    moves = [
        "(move 1 c)",
        "(move 2 b)",
        "(move 1 2)",
        "(move 3 c)",
        "(move 1 a)",
        "(move 2 3)",
        "(move 1 2)",
    ]
    game = load("hanoi")
    state = play(game, moves[:-1])
    assert not game.is_terminal(state)
    state = play(game, moves)
    assert game.state_facts(state) == {"(on 3 c)", "(on 2 3)", "(on 1 2)", "(step 7)"}
    assert game.is_terminal(state)
    assert game.goals(state) == (100,)


def test_hanoi_runs_out_of_moves():
    game = load("hanoi")
    state = play(game, ["(move 1 b)", "(move 1 c)"] * 5)
    assert "(step 10)" in game.state_facts(state)
    assert game.is_terminal(state)
    assert game.goals(state) == (0,)


# --- GdlGame around the reasoner -------------------------------------------------------------

GOALS_SHEET = """
(role a) (role b)
(init s)
(<= (legal ?r wait) (role ?r))
(<= (next s) (true s))
(<= terminal (true s))
(<= (goal a 100) (true s))
(<= (goal a 0) (true s))
"""


def test_goals_name_the_role_without_exactly_one_value():
    game = GdlGame.from_text(GOALS_SHEET, "two_goals")
    state = game.initial_state()
    assert game.goal_values(state) == {"a": frozenset({0, 100}), "b": frozenset()}
    with pytest.raises(
        GamecheckError,
        match="role a must have exactly one goal value in this state, but has 0, 100",
    ):
        game.goals(state)
    one = GdlGame.from_text(GOALS_SHEET.replace("(goal a 0)", "(goal b 0)"), "one_each")
    assert one.goals(one.initial_state()) == (100, 0)
    missing = GdlGame.from_text(
        GOALS_SHEET.replace("(goal a 0) (true s)", "(goal a 0) (true t)"), "missing"
    )
    with pytest.raises(
        GamecheckError, match="role b must have exactly one goal value in this state, but has none"
    ):
        missing.goals(missing.initial_state())


def test_facts_and_actions_round_trip_through_text():
    game = load("tictactoe")
    state = play(game, ["(mark 1 3)"])
    assert game.state_from_facts(game.state_facts(state)) == state
    action = game.parse_action("xplayer", "( mark 1  2 )")
    assert game.action_text(action) == "(mark 1 2)"
    with pytest.raises(BadTermError, match="has a variable"):
        game.parse_action("xplayer", "(mark ?m 1)")
    with pytest.raises(GamecheckError, match="has no role 'zplayer'"):
        game.legal(state, "zplayer")


def test_base_and_input_declarations_restrict_facts_and_actions():
    sheet = GOALS_SHEET + "(base s) (input a wait) (input b wait)"
    game = GdlGame.from_text(sheet, "declared")
    assert game.state_from_facts(["s"]) == frozenset({"s"})
    with pytest.raises(BadTermError, match="t is not a base fact"):
        game.state_from_facts(["t"])
    with pytest.raises(BadTermError, match="go is not an input of a"):
        game.parse_action("a", "go")


def test_sheet_with_errors_is_refused_with_the_first_one():
    with pytest.raises(GdlError) as raised:
        GdlGame.from_file(DATA / "bad_unsafe.kif")
    message = str(raised.value)
    assert message.startswith(f"{DATA / 'bad_unsafe.kif'}:10:5: unsafe variable ?k")
    assert message.endswith("(and 1 more error; see gamecheck lint)")
    with pytest.raises(GdlError, match=r"^bad\.kif:1:9: unbalanced parenthesis"):
        GdlGame.from_text("(role a))", "bad.kif")


def test_goal_defined_through_the_negation_of_another_goal():
    # tests/data/gdl/form_stratified.kif: (goal robot 100) holds exactly when (goal robot 0)
    # does not, and (goal robot 0) holds unless the counter stands at 2 (worked out from the
    # sheet: the counter starts at 0 and each inc adds one).
    game = load("form_stratified")
    state = game.initial_state()
    for _ in range(2):
        state = game.next(state, ["inc"])
    assert game.goal_values(state) == {"robot": {100}}
    finished = game.next(state, ["stop"])
    assert game.is_terminal(finished) and game.goals(finished) == (100,)
    once = game.next(game.next(game.initial_state(), ["inc"]), ["stop"])
    assert game.goals(once) == (0,)


SQUARES = """
(role p)
(index 1) (index 2) (index 3) (index 4)
(succ 1 2) (succ 2 3) (succ 3 4)
(<= (init (cell ?x ?y x)) (index ?x) (index ?y))
(<= (square ?x ?y ?x ?y2 ?x2 ?y ?x2 ?y2) (succ ?x ?x2) (succ ?y ?y2))
(<= quad (true (cell ?x1 ?y1 x)) (true (cell ?x2 ?y2 x)) (true (cell ?x3 ?y3 x))
    (true (cell ?x4 ?y4 x)) (square ?x1 ?y1 ?x2 ?y2 ?x3 ?y3 ?x4 ?y4))
(legal p noop)
(<= (next (cell ?x ?y ?m)) (true (cell ?x ?y ?m)))
(<= terminal quad)
(<= (goal p 100) quad)
(<= (goal p 0) (not quad))
"""


def test_four_cells_of_a_square_are_joined_through_the_square_not_multiplied_out():
    # A full 4 x 4 board of x holds 9 unit squares. Joined through the square, the rule looks
    # up 16 first corners, the square at each (9 found), then the other three corners of
    # each square: 1 + 16 + 9 * 3 = 44 lookups. Any order that pairs two cells before the
    # square looks up a second cell for each of the 16 first ones and a third for each of
    # the 16 * 16 pairs: more than 256.
    game = GdlGame.from_text(SQUARES, "squares")
    before = game.reasoner.statistics.lookups
    assert game.is_terminal(game.initial_state())
    assert game.reasoner.statistics.lookups - before < 16 * 16
