"""Method lines: tictactoe3d's threat-space proof at the level of marks (the cube's lines and
symmetries, the threat solver on hand-made positions, the independent checker against broken
strategies, a small position proved, checked and replayed) and its command line."""

from __future__ import annotations

import random

import pytest

from gamecheck.analysis.forced_win_lines import lines_apply
from gamecheck.analysis.forced_wins import solve_forced_win
from gamecheck.analysis.loading import load_rule_sheet
from gamecheck.budget import Budget
from gamecheck.cli import main
from gamecheck.models import get_game
from gamecheck.models.tictactoe3d import LINES as MODEL_LINES
from gamecheck.models.tictactoe3d import Tictactoe3dState, make_game
from gamecheck.solvers.forced_win.lines import checker, cube, threats
from gamecheck.solvers.forced_win.lines.checker import MarkStrategyFailure, check_mark_strategy
from gamecheck.solvers.forced_win.lines.prover import prove_mark_win
from gamecheck.solvers.forced_win.lines.threats import ThreatSolver, replay_threats
from gamecheck.solvers.forced_win.search import Status

X_TEAM = ["xrow", "xcolumn", "xlevel"]


def cell(r: int, c: int, level: int) -> int:
    """Cell (r c l), coordinates 0..3."""
    return 16 * r + 4 * c + level


def marks(*cells: tuple[int, int, int]) -> int:
    return sum(1 << cell(*at) for at in cells)


# X (1 1 1), (2 2 2) and O (1 1 2), (1 2 3) in the model's 1-based coordinates, X to move:
# after two marks a side, team x's turn opens with xlevel (xrow -> xcolumn -> xlevel).
SMALL_X = marks((0, 0, 0), (1, 1, 1))
SMALL_O = marks((0, 0, 1), (0, 1, 2))
SMALL_STATE = Tictactoe3dState(SMALL_X, SMALL_O, (0, 0, 0), 2, (2, 5), 0)


@pytest.fixture(scope="module")
def small_proof():
    proof = prove_mark_win(SMALL_X, SMALL_O, 0, Budget(120))
    assert proof is not None
    return proof


# -- the cube ----------------------------------------------------------------------------------


def test_lines_are_the_models_76():
    assert len(MODEL_LINES) == len(set(MODEL_LINES)) == 76
    assert all(line.bit_count() == 4 for line in MODEL_LINES)
    assert set(checker.own_lines()) == set(MODEL_LINES) == set(cube.LINES)
    # 7 lines through each corner and inner cell (16 cells), 4 through each other cell (48)
    seven = {c for c in range(64) if len(cube.LINES_THROUGH[c]) == 7}
    corners = {cell(r, c, v) for r in (0, 3) for c in (0, 3) for v in (0, 3)}
    inner = {cell(r, c, v) for r in (1, 2) for c in (1, 2) for v in (1, 2)}
    assert seven == corners | inner
    assert all(len(cube.LINES_THROUGH[c]) == 4 for c in set(range(64)) - seven)


def test_group_of_192_maps_lines_onto_lines():
    line_set = set(MODEL_LINES)
    assert len(cube.GROUP) == len(set(cube.GROUP)) == 192
    assert set(cube.GROUP) == set(checker.own_group())
    for image in cube.GROUP:
        assert {sum(1 << image[c] for c in cube.cells_of(line)) for line in MODEL_LINES} == (
            line_set
        )
    # closed under composition, and the corner (0 0 0) goes to all 16 seven-line cells
    group = set(cube.GROUP)
    rng = random.Random(0)
    for _ in range(200):
        a, b = rng.choice(cube.GROUP), rng.choice(cube.GROUP)
        assert tuple(a[b[c]] for c in range(64)) in group
    assert len({image[0] for image in cube.GROUP}) == 16
    # the map 0 1 2 3 -> 1 0 3 2 on every axis keeps lines: corner (0 0 0) -> inner (1 1 1)
    swap = (1, 0, 3, 2)
    assert tuple(cell(swap[c >> 4], swap[c >> 2 & 3], swap[c & 3]) for c in range(64)) in group


def test_canonical_form_is_equal_for_symmetric_positions():
    rng = random.Random(1)
    for _ in range(200):
        cells = rng.sample(range(64), 12)
        x, o = sum(1 << c for c in cells[:6]), sum(1 << c for c in cells[6:])
        key, s = cube.canonical(x, o)
        assert key == cube.pack(cube.image(s, x), cube.image(s, o))
        g = rng.randrange(192)
        assert cube.canonical(cube.image(g, x), cube.image(g, o))[0] == key
    # not symmetric: one more mark
    assert cube.canonical(1, 0)[0] != cube.canonical(3, 0)[0]


# -- the threat solver on hand-made positions ---------------------------------------------------


def test_a_three_is_completed():
    x = marks((0, 0, 0), (0, 0, 1), (0, 0, 2))
    assert ThreatSolver().solve(x, marks((3, 3, 3))) == 1 << cell(0, 0, 3)


def test_the_one_double_threat_is_found():
    # X's only two-lines: (0 0 *) with (0 0 0), (0 0 1) and (* 0 3) with (1 0 3), (2 0 3).
    # (0 0 3) makes both threes at once: threats (0 0 2) and (3 0 3). Each other move making
    # a three, (0 0 2) or (3 0 3), forces O onto (0 0 3), which kills the other line: no win.
    x = marks((0, 0, 0), (0, 0, 1), (1, 0, 3), (2, 0, 3))
    o = marks((3, 3, 3), (2, 2, 1))
    solver = ThreatSolver()
    assert solver.solve(x, o) == 1 << cell(0, 0, 3)
    assert solver.line(x, o) == [(1 << cell(0, 0, 3), marks((0, 0, 2), (3, 0, 3)))]
    assert replay_threats(x, o, [1 << cell(0, 0, 3)])
    # with O on (0 0 2), the move makes one three only, O blocks (3 0 3), nothing is left
    assert not replay_threats(x, o | 1 << cell(0, 0, 2), [1 << cell(0, 0, 3)])


def test_a_reply_off_the_sensitive_cells_leaves_the_threat_sequence_as_it_was():
    # On random positions where X (to move) has a VCF and O no three: every blank cell the
    # filter lets through unreplayed is one where the full replay still wins, as without it.
    rng = random.Random(7)
    solver, tried = ThreatSolver(budget=threats.UNLIMITED), 0
    while tried < 40:
        cells = rng.sample(range(64), rng.randrange(8, 24))
        x = sum(1 << c for c in cells[::2])
        o = sum(1 << c for c in cells[1::2])
        line = solver.line(x, o)
        if cube.win_cells(o, x) or cube.win_cells(x, o) or not line:
            continue
        tried += 1
        sequence = [move for move, _ in line]
        sensitive = threats.sensitive_cells(x, o, sequence)
        assert replay_threats(x, o, sequence) and sensitive != cube.FULL
        for z in cube.cells_of(cube.FULL & ~(x | o | sensitive)):
            assert replay_threats(x, o | 1 << z, sequence)


def test_no_two_line_no_win():
    assert ThreatSolver().solve(marks((0, 0, 0)), marks((1, 1, 1))) == 0


def test_the_defenders_threes_come_first():
    # O threatens (3 3 3); X's block there is on the diagonal with (0 0 0) only: no three.
    x = marks((0, 0, 0), (0, 1, 1))
    assert ThreatSolver().solve(x, marks((3, 3, 0), (3, 3, 1), (3, 3, 2))) == 0
    # O threatens twice, (3 3 3) and (2 3 0): X, who can make a three but not complete a
    # line, cannot block both.
    x = marks((0, 0, 0), (0, 0, 1))
    o = marks((3, 3, 0), (3, 3, 1), (3, 3, 2), (2, 0, 0), (2, 1, 0), (2, 2, 0))
    assert ThreatSolver().solve(x, o) == 0


def test_a_block_that_makes_a_defender_three_stops_the_sequence():
    # X's only two-line is (0 0 *). (0 0 2) forces O onto (0 0 3), giving O the three
    # (0..2 0 3) whose block (3 0 3) makes no X three; (0 0 3) forces O onto (0 0 2) and X
    # has no two-line left. No VCF.
    x = marks((0, 0, 0), (0, 0, 1), (2, 3, 1))
    o = marks((1, 0, 3), (2, 0, 3), (3, 3, 0))
    assert ThreatSolver().solve(x, o) == 0


# -- the independent checker --------------------------------------------------------------------


def test_small_position_proved_and_checked(small_proof):
    check = check_mark_strategy(small_proof.strategy, SMALL_X, SMALL_O)
    assert check == small_proof.check
    assert check.positions > check.classes > 0
    assert 2 <= check.longest <= 64 - 4


def _blank_but(move, x, o):
    return next(c for c in cube.cells_of(cube.FULL & ~(x | o)) if c != move)


@pytest.mark.parametrize(
    ("choose", "words"),
    [
        (lambda move, x, o: None, "no move"),
        (lambda move, x, o: next(cube.cells_of(o)), "taken cell"),
        (_blank_but, None),  # another blank cell: any failure
    ],
    ids=["missing entry", "marked cell", "wrong move"],
)
def test_checker_rejects_a_broken_move_at_the_root(small_proof, choose, words):
    # The root's move replaced by choose(move, x, o) in the root key's coordinates (None:
    # the entry removed).
    broken = dict(small_proof.strategy)
    key, _ = cube.canonical(SMALL_X, SMALL_O)
    move = broken.pop(key)
    replacement = choose(move, *cube.unpack(key))
    if replacement is not None:
        broken[key] = replacement
    with pytest.raises(MarkStrategyFailure, match=words):
        check_mark_strategy(broken, SMALL_X, SMALL_O)


def test_checker_rejects_a_strategy_that_lets_the_defender_complete_a_line():
    # O threatens (0 0 2), the lowest blank cell, which the checker tries first; a strategy
    # that marks (1 2 0) instead lets O complete its line.
    x = marks((1, 1, 1), (2, 2, 2), (3, 3, 0))
    o = marks((0, 0, 0), (0, 0, 1), (0, 0, 3))
    key, s = cube.canonical(x, o)
    with pytest.raises(MarkStrategyFailure, match="defender completes"):
        check_mark_strategy({key: cube.GROUP[s][cell(1, 2, 0)]}, x, o)


# -- the question: found, replayed on both move generators ---------------------------------------


def test_small_position_found_and_replayed():
    result = solve_forced_win(
        "tictactoe3d", team=X_TEAM, start=SMALL_STATE, method="lines", budget=Budget(120)
    )
    assert result.status is Status.FOUND and result.method == "lines"
    assert not result.fewest and result.to_json()["depth_is_fewest"] is False
    assert result.searched_depth == -1
    assert result.depth % 3 == 0 and 6 <= result.depth <= 3 * 60
    assert result.first_action.startswith("xlevel (select level ")
    assert result.strategy_size > 0


def test_team_o_to_move_wins_by_a_double_threat():
    # O's only two-lines are (0 0 *) and (* 0 3); (0 0 3) makes two threes, X blocks one and
    # O completes the other: 3 marks, 9 steps. After 5 marks of X and 4 of O, team o's turn
    # opens with olevel (orow -> ocolumn -> olevel -> orow), which selects level 4.
    o = marks((0, 0, 0), (0, 0, 1), (1, 0, 3), (2, 0, 3))
    x = marks((3, 3, 3), (2, 2, 1), (1, 2, 0), (3, 1, 0), (2, 3, 2))
    assert cube.win_cells(x, o) == 0 and cube.win_cells(o, x) == 0
    start = Tictactoe3dState(x, o, (0, 0, 0), 5, (1, 5), 0)
    team = ["orow", "ocolumn", "olevel"]
    result = solve_forced_win(
        "tictactoe3d", team=team, start=start, method="lines", budget=Budget(60)
    )
    assert (result.status, result.depth, result.first_action) == (
        Status.FOUND,
        9,
        "olevel (select level 4)",
    )


# -- the abstraction: a team completes exactly the blank cells ------------------------------------


def _completable(game, state) -> int:
    """The cells a team can mark from a mark boundary through its roles' legal selects (the
    others noop), read off the (cell r c l M) facts."""
    before = {f for f in game.state_facts(state) if f.startswith("(cell") and f.endswith(" b)")}
    found = 0
    pending = [(state, 0)]
    while pending:
        current, depth = pending.pop()
        if depth == 3:
            now = {f for f in game.state_facts(current) if f.startswith("(cell")}
            for fact in before - now:  # a blank cell that is no longer blank
                r, c, level = (int(v) for v in fact.split()[1:4])
                found |= 1 << cell(r - 1, c - 1, level - 1)
            continue
        control = next(f for f in game.state_facts(current) if f.startswith("(control "))
        mover = control[len("(control ") : -1]
        for action in game.legal(current, mover):
            joint = tuple(
                action if role == mover else game.legal(current, role)[0] for role in game.roles
            )
            pending.append((game.next(current, joint), depth + 1))
    return found


def _random_mark_boundaries(count: int, seed: int) -> list[Tictactoe3dState]:
    game = make_game()
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.initial_state()
        stop = rng.randrange(0, 40)
        for _ in range(3 * stop):
            if game.is_terminal(state):
                break
            joint = tuple(rng.choice(game.legal(state, role)) for role in game.roles)
            state = game.next(state, joint)
        if not game.is_terminal(state):
            states.append(state)
    return states


def test_a_team_can_complete_exactly_the_blank_cells():
    game = make_game()
    for state in _random_mark_boundaries(30, seed=3):
        assert not any(state.selected)
        assert _completable(game, state) == state.blanks


def test_on_the_rule_sheet_too():
    game = make_game()
    sheet = load_rule_sheet(game)
    for state in _random_mark_boundaries(3, seed=4):
        sheet_state = sheet.state_from_facts(game.state_facts(state))
        assert _completable(sheet, sheet_state) == state.blanks


# -- the command line ---------------------------------------------------------------------------


def _errors(capsys) -> list[str]:
    """The lines of stderr but the stages' progress (`[   0.1s] teams`)."""
    return [line for line in capsys.readouterr().err.splitlines() if not line.startswith("[")]


def _state_file(tmp_path, state) -> str:
    path = tmp_path / "state.kif"
    path.write_text("\n".join(sorted(make_game().state_facts(state))) + "\n")
    return str(path)


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["ttcc4", "--role", "red"], "tictactoe3d only"),
        (["tictactoe3d", "--team", "xrow,xcolumn"], "one whole side"),
        (["tictactoe3d", "--team", "xrow,orow,xcolumn,xlevel"], "one whole side"),
        (["tictactoe3d", "--team", "orow,ocolumn,olevel"], "side to move"),
    ],
)
def test_cli_refuses_what_the_method_does_not_apply_to(capsys, argv, words):
    status = main(["forced-win", *argv, "--method", "lines", "--time-limit", "30"])
    err = _errors(capsys)
    assert status == 2
    assert len(err) == 1 and words in err[0]


def test_cli_refuses_a_selection_under_way_and_a_finished_game(capsys, tmp_path):
    game = make_game()
    state = game.next(
        game.initial_state(), (game.legal(game.initial_state(), "xrow")[0],) + ("noop",) * 5
    )
    line = marks((0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3))
    over = Tictactoe3dState(line, marks((1, 1, 1), (2, 2, 2), (3, 3, 1)), (0, 0, 0), 3, (1, 3), 1)
    for start, words in ((state, "mark boundary"), (over, "not over")):
        argv = ["forced-win", "tictactoe3d", "--team", ",".join(X_TEAM), "--method", "lines"]
        status = main([*argv, "--state", _state_file(tmp_path, start)])
        err = _errors(capsys)
        assert status == 2
        assert len(err) == 1 and words in err[0]


def test_cli_time_limit_gives_unknown(capsys):
    argv = ["forced-win", "tictactoe3d", "--team", ",".join(X_TEAM), "--method", "lines"]
    status = main([*argv, "--time-limit", "1"])
    out = capsys.readouterr().out
    assert status == 4
    assert "unknown: no strategy proved" in out


@pytest.mark.parametrize(
    ("game", "team", "applies"),
    [
        ("tictactoe3d", X_TEAM, True),
        ("tictactoe3d", ["orow", "ocolumn", "olevel"], False),  # x moves first
        ("tictactoe3d", ["xrow", "xcolumn"], False),
        ("ttcc4", ["red"], False),
    ],
)
def test_the_report_tries_the_method_only_where_it_applies(game, team, applies):
    assert lines_apply(get_game(game), team) is applies
