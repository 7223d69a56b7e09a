"""`gamecheck verify` on small rule sheets whose answers are worked out by hand."""

import itertools
import json
import re
import time
from pathlib import Path

import pytest

from gamecheck.analysis.loading import load_game
from gamecheck.analysis.replay import replay_line
from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.results import UNKNOWN, Answer
from gamecheck.analysis.verify.search import Verifier
from gamecheck.analysis.verify.text import verification_text
from gamecheck.budget import Budget, OutOfBudget
from gamecheck.cli import main
from gamecheck.solvers.ground.grounder import ground
from gamecheck.solvers.ground.sampling import Playouts, random_playouts
from gamecheck.solvers.ground.unroll import Line, Unrolling, make_unrolling

SHEETS = Path(__file__).parent / "data" / "gdl"


def verify(name: str, backend: str):
    """The solver's answers (not the exhaustive search's: tests/test_explore.py)."""
    return verify_game(str(SHEETS / name), backend=backend, horizon=40, exhaustive=False)


def replays_to(sheet: str, witness) -> object:
    """The last state of a witness replayed on the reasoner, with legality checked."""
    game = load_game(str(SHEETS / sheet))
    return game, replay_line(game, witness).states[-1]


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_tictactoe_answers_match_hand_analysis(backend):
    # By hand: the board holds 9 marks, so no game lasts longer than 9 steps, and a draw
    # fills it; x completes a line with its 3rd mark at step 5 at the earliest, o with its
    # 3rd mark at step 6; x win, o win and draw (50 50) all occur.
    result = verify("tictactoe.kif", backend)
    assert result.complete
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 9)
    assert (result.shortest_game.status, result.shortest_game.value) == ("proved", 5)
    assert result.playability.status == "proved"
    assert result.goal_definedness.status == "proved"
    assert result.outcomes.complete
    assert set(result.outcomes.vectors) == {(100, 0), (0, 100), (50, 50)}
    wins = {role: (a.status, a.value) for role, a in result.earliest_win.items()}
    assert wins == {"xplayer": ("found", 5), "oplayer": ("found", 6)}
    game, last = replays_to("tictactoe.kif", result.earliest_win["oplayer"].witness)
    assert game.is_terminal(last) and game.goals(last) == (0, 100)


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_towers_of_hanoi_is_solved_in_seven_moves(backend):
    # Three discs need 2**3 - 1 = 7 moves; the sheet ends the game at step 10 otherwise.
    result = verify("hanoi.kif", backend)
    assert (result.longest_game.value, result.shortest_game.value) == (10, 7)
    assert (result.earliest_win["solver"].status, result.earliest_win["solver"].value) == (
        "found",
        7,
    )
    assert set(result.outcomes.vectors) == {(100,), (0,)}


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_a_stuck_role_is_refuted_with_the_shortest_counterexample(backend):
    # broken_stuck.kif: p may tick at counts 0 and 1 only; count 2 is not terminal.
    result = verify("broken_stuck.kif", backend)
    assert result.playability.status == "refuted"
    assert result.playability.witness == (("tick",), ("tick",))
    game, last = replays_to("broken_stuck.kif", result.playability.witness)
    assert not game.is_terminal(last) and game.legal(last, "p") == []
    assert result.shortest_game.status == "none"
    assert result.earliest_win["p"].status == "none"


def test_a_counterexample_found_stands_when_the_search_for_a_shorter_one_runs_out(monkeypatch):
    # broken_stuck.kif: the only stuck state is after (tick, tick). No random playout finds
    # it; the solver does, then runs out of time checking that no shorter line exists: the
    # line found still refutes playability.
    monkeypatch.setattr(Playouts, "find", lambda *_: None)
    found = []
    search = Unrolling.find

    def find_then_run_out(self, condition, depths, budget):
        if found and self.question == "playability":
            raise OutOfBudget("the time limit ran out")
        line = search(self, condition, depths, budget)
        if line is not None and self.question == "playability":
            found.append(line)
        return line

    monkeypatch.setattr(Unrolling, "find", find_then_run_out)
    sheet = str(SHEETS / "broken_stuck.kif")
    result = verify_game(sheet, horizon=40, exhaustive=False, time_limit=10)
    assert len(found) == 1
    assert result.playability.status == "refuted"
    assert result.playability.witness == (("tick",), ("tick",))


# p may go on (three goes win for p) or halt at once (a loss for p, a win for q).
HALT_OR_GO = """
(role p) (role q)
(init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(legal p go) (legal p halt) (legal q wait)
(<= (next (step ?m)) (true (step ?n)) (succ ?n ?m) (does p go))
(<= (next halted) (does p halt))
(<= terminal (true halted))
(<= terminal (true (step 3)))
(<= (goal p 100) (true (step 3)))
(<= (goal p 0) (true halted))
(<= (goal q 100) (true halted))
(<= (goal q 0) (true (step 3)))
"""


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_an_earliest_win_is_the_shortest_game_only_where_that_game_is_won(backend):
    # The shortest game is a halt at once: q's win; p's earliest win is three goes.
    result = verify_game(HALT_OR_GO, backend=backend, horizon=10, exhaustive=False)
    assert (result.shortest_game.status, result.shortest_game.value) == ("proved", 1)
    wins = {role: (a.status, a.value, a.witness) for role, a in result.earliest_win.items()}
    assert wins["q"] == ("found", 1, (("halt", "wait"),))
    assert wins["p"] == ("found", 3, (("go", "wait"),) * 3)


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_two_goal_values_are_refuted(backend):
    # broken_goals.kif: after `go`, a has goals 0 and 100 and b has none; `stop` is fine.
    result = verify("broken_goals.kif", backend)
    assert result.goal_definedness.status == "refuted"
    assert result.goal_definedness.witness == (("go", "wait"),)
    assert set(result.outcomes.vectors) == {((0, 100), ()), (50, 50)}
    assert result.playability.status == "proved"


def test_verify_json_has_every_answer(capsys):
    status = main(["verify", str(SHEETS / "tictactoe.kif"), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert status == 0
    expected = {
        "game",
        "roles",
        "backend",
        "horizon",
        "longest_game",
        "shortest_game",
        "playability",
        "goal_definedness",
        "outcomes",
        "earliest_win",
        "seconds",
    }
    assert expected <= set(answer)
    assert answer["earliest_win"]["xplayer"]["witness"][0][1] == "noop"
    assert answer["outcomes"]["status"] == "proved"


def test_verify_text_shows_a_counterexample(capsys):
    assert main(["verify", str(SHEETS / "broken_stuck.kif")]) == 1  # defective
    out = capsys.readouterr().out
    assert "playability" in out and "refuted" in out and "1. tick" in out


def queries_of_icnf(text: str):
    """(clauses before the query, assumptions, comment) for every `a` line of an iCNF."""
    clauses, queries, comment = [], [], ""
    for line in text.splitlines():
        if line.startswith("c query"):
            comment = line
        elif line.startswith("a "):
            queries.append((list(clauses), [int(x) for x in line.split()[1:-1]], comment))
        elif line and line[0] in "-0123456789":
            clauses.append([int(x) for x in line.split()[:-1]])
    return queries


def test_dimacs_holds_every_query_and_another_solver_gives_the_same_answers(tmp_path):
    from pysat.solvers import Solver

    # (tic-tac-toe asks no query of this formula: its playouts' lines meet the bounds that
    # the invariants prove, on a free start)
    path = tmp_path / "pennies.icnf"
    assert main(["verify", str(SHEETS / "pennies.kif"), "--dimacs", str(path)]) == 0
    text = path.read_text()
    assert "p inccnf" in text.splitlines()
    assert "c var " in text and " does matcher (show heads) @0" in text
    queries = queries_of_icnf(text)
    answers = []
    for clauses, assumptions, comment in queries:
        with Solver(name="minisat22", bootstrap_with=clauses) as solver:
            found = "SAT" if solver.solve(assumptions=assumptions) else "UNSAT"
        assert comment.endswith(f": {found}"), comment
        answers.append(found)
    # no game of pennies ends before its second step (the shortest game, proved first), so
    # no terminal state with bad goals is sought sooner
    assert answers and "c query 1: goal definedness: depths 2: UNSAT" in text


def test_cpsat_export_names_variables_and_lists_queries(tmp_path):
    path = tmp_path / "pennies.pb.txt"
    argv = ["verify", str(SHEETS / "pennies.kif"), "--backend", "cpsat"]
    assert main([*argv, "--cpsat-export", str(path)]) == 0
    assert 'name: "does matcher (show tails) @1"' in path.read_text()
    queries = (tmp_path / "pennies.pb.txt.queries.txt").read_text().splitlines()
    assert queries and all(q.startswith("query ") and "; assumes query: " in q for q in queries)


def test_exports_need_their_backend(capsys, tmp_path):
    sheet = str(SHEETS / "tictactoe.kif")
    assert main(["verify", sheet, "--backend", "cpsat", "--dimacs", str(tmp_path / "x")]) == 2
    assert main(["verify", sheet, "--cpsat-export", str(tmp_path / "x")]) == 2
    assert not list(tmp_path.iterdir())


def test_bad_input_exits_2(capsys, tmp_path):
    assert main(["verify", "nosuchgame"]) == 2
    assert main(["verify", str(SHEETS / "bad_unsafe.kif")]) == 2
    assert main(["verify", "tictacchess", "--horizon", "0"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("gamecheck: error:") == 3


def test_verify_text_shows_every_line_of_play_once_with_its_final_board(capsys):
    # tic-tac-toe: 9 steps at the longest (a full board), x wins at step 5 at the earliest.
    assert main(["verify", str(SHEETS / "tictactoe.kif")]) == 0
    out = capsys.readouterr().out.splitlines()
    longest = out.index(next(line for line in out if line.lstrip().startswith("longest game")))
    line_of_play = out[longest + 1 : longest + 8]
    assert [row.split()[0] for row in line_of_play] == [
        "1.",
        "2.",
        "3.",
        "...",
        "7.",
        "8.",
        "9.",
    ]
    assert "(3 more steps)" in line_of_play[3]
    board = list(itertools.takewhile(lambda row: row.startswith("    | "), out[longest + 8 :]))
    marks = [row for row in board if row.startswith("    | (cell") and not row.endswith(" b)")]
    assert len(marks) == 9  # the board of a 9-step game is full
    # x's earliest win at 5 is the line of the shortest game, shown there and named here
    win = out.index(next(line for line in out if "earliest win xplayer" in line))
    assert out[win + 1].strip() == "(the line of shortest game)"


def test_verify_text_draws_the_states_verify_replayed_without_replaying_again(monkeypatch):
    # the text is printed after the time limit: the boards come from verify's own replay
    game = load_game(str(SHEETS / "tictactoe.kif"))
    result = verify_game(game, horizon=40)
    other = load_game(str(SHEETS / "tictactoe.kif"))  # not the game verify replayed on
    replayed = verification_text(result, other)
    assert replayed.count("| (cell") >= 9 * 3  # lines of 5, 6 and 9 steps, a board each

    def replay_again(*args, **kwargs):
        raise AssertionError("a line of play was replayed again")

    monkeypatch.setattr("gamecheck.analysis.verify.text.replay_line", replay_again)
    assert verification_text(result, game) == replayed
    with pytest.raises(AssertionError, match="replayed again"):
        verification_text(result, other)


def test_a_random_playout_that_comes_back_refutes_termination():
    # broken_endless.kif: turning the dial alone never ends the game; the dial is back at 0
    # after 3 turns, and no shorter line comes back (each of the first two steps changes
    # the dial, or sets the flag for good). Of 1024 random playouts some turn three times
    # first (1 in 8): the shortest loop a playout closes is turn x3, back to the start.
    result = verify("broken_endless.kif", "cnf")
    assert result.termination.status == "refuted"
    assert result.termination.witness == (("turn",), ("turn",), ("turn",))
    assert "after step 3 the state is again the one after step 0" in result.termination.detail


def test_what_holds_in_every_state_of_a_game_that_need_not_end_is_claimed_for_all_of_them():
    # broken_endless.kif need not end, so no search reaches its last state; but by hand
    # every state has one dial value (turn keeps one, mark sets 0), so p can always turn,
    # and the flag is set or not, so p's goal is 100 or 0: both hold in every reachable
    # state, not only in those up to the horizon.
    result = verify("broken_endless.kif", "cnf")
    assert result.termination.status == "refuted"
    for answer in (result.playability, result.goal_definedness):
        assert answer.status == "proved"
        assert answer.detail.endswith("(all reachable states)")


@pytest.mark.parametrize("backend", ["cnf", "cpsat"])
def test_a_game_that_need_not_end_is_refuted_with_a_loop(backend, monkeypatch):
    # broken_endless.kif: turning the dial alone never ends the game; the dial is back at 0
    # after 3 turns. With no loop from the random playouts, loops are looked for at 1, 2,
    # 4, ... steps: none closes within 1 or 2 steps (the dial or the flag changes at every
    # step up to then); within 4 it does: turn x4 comes back after step 4 to the state
    # after step 1.
    monkeypatch.setattr("gamecheck.solvers.ground.sampling.Playouts.lasso", lambda *_: None)
    result = verify("broken_endless.kif", backend)
    assert result.longest_game.status == "refuted"
    witness = result.longest_game.witness
    assert len(witness) == 4
    game = load_game(str(SHEETS / "broken_endless.kif"))
    states = replay_line(game, witness).states
    assert not any(game.is_terminal(state) for state in states)
    assert any(states[j] == states[4] for j in range(4))
    assert "the game need not end" in result.longest_game.detail
    assert result.defects == ["termination"]
    assert result.termination.witness == witness
    # a line that ends: mark, then turn twice (dial 0 -> 1 -> 2 with the flag set)
    assert (result.shortest_game.status, result.shortest_game.value) == ("proved", 3)


def test_a_game_longer_than_the_horizon_without_a_loop_stays_unknown():
    # hanoi.kif ends at step 10 at the latest (its step counter): with a horizon of 8, a
    # non-terminal state is reachable at the horizon, and no line comes back to a state it
    # passed (the counter grows at every step), so the longest game is unknown, not refuted.
    # Without invariants nothing more is known; with them the counter proves that every
    # game ends by step 10, beyond the horizon, and the game lasts 9 steps or more.
    sheet = str(SHEETS / "hanoi.kif")
    result = verify_game(sheet, horizon=8, exhaustive=False, invariants=False)
    assert result.longest_game.status == "unknown"
    assert "no line of play up to it comes back" in result.longest_game.detail
    assert (result.longest_game.at_least, result.longest_game.at_most) == (9, None)
    assert result.termination.status == "unknown"
    result = verify_game(sheet, horizon=8, exhaustive=False)
    assert result.longest_game.status == "unknown"
    assert "some game lasts more than 8 steps" in result.longest_game.detail
    assert (result.longest_game.at_least, result.longest_game.at_most) == (9, 10)
    assert (result.termination.status, result.termination.value) == ("proved", 10)
    assert not result.complete


def test_a_line_another_question_played_settles_the_longest_game(monkeypatch):
    # fill_or_stop.kif: every game ends within 8 steps (the counted bound) and some lasts 8
    # (fill every cell). Here no search may look for a non-terminal state after 7 steps, so
    # the first round cannot show that 8 is reached. The outcomes question replays a line of
    # 8 steps (the win); its first 7 steps lead to a non-terminal state with a legal action,
    # which settles the longest game in the second round: 8 steps.
    monkeypatch.setattr(Playouts, "find", lambda *_: None)
    search = Unrolling.find

    def no_search_at_step_7(self, condition, depths, budget):
        if condition == -self.system.terminal and 7 in depths:
            raise OutOfBudget("the time limit ran out")
        return search(self, condition, depths, budget)

    monkeypatch.setattr(Unrolling, "find", no_search_at_step_7)
    result = verify_game(str(SHEETS / "fill_or_stop.kif"), exhaustive=False)
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 8)
    game, last = replays_to("fill_or_stop.kif", result.longest_game.witness)
    assert len(result.longest_game.witness) == 8 and game.is_terminal(last)


@pytest.mark.parametrize("horizon", [300, 8])
def test_a_time_limit_between_the_bounds_keeps_them(monkeypatch, horizon):
    # fill_or_stop.kif: seven of the eight cells filled is still play, eight filled ends the
    # game, so every game ends within 8 steps and some lasts 8. The time runs out as the
    # longest game's last line is looked for: the bounds proved so far are the answer,
    # termination is proved with the same bound, and the other questions hold for all
    # reachable states; also where that bound is the horizon itself (the invariants' own
    # bound, 10, lies beyond it).
    def out_of_time(self, depth):
        raise OutOfBudget("the time limit ran out")

    monkeypatch.setattr(Verifier, "_longest_ending_by", out_of_time)
    result = verify_game(str(SHEETS / "fill_or_stop.kif"), horizon=horizon, exhaustive=False)
    longest = result.longest_game
    assert longest.status == "unknown" and longest.value is None
    assert "every game ends within 8 steps" in longest.detail
    assert "some game lasts 8 or more" in longest.detail
    assert {key: longest.to_json()[key] for key in ("at_least", "at_most")} == {
        "at_least": 8,
        "at_most": 8,
    }
    # that every game ends is proved all the same, with the bound
    assert (result.termination.status, result.termination.value) == ("proved", 8)
    assert result.defects == [] and "termination" not in result.unknown
    assert result.complete and "(all reachable states)" in result.playability.detail


def stalling(asked):
    """`Unrolling.find`, except that a search for a terminal state as such at depths for
    which `asked(depths)` holds runs until its budget ends."""
    search = Unrolling.find

    def find(self, condition, depths, budget):
        if condition == self.system.terminal and asked(depths):
            while not budget.expired:
                time.sleep(0.01)
            raise OutOfBudget("the time limit ran out")
        return search(self, condition, depths, budget)

    return find


def test_time_a_question_leaves_over_goes_to_one_cut_short_again():
    # hanoi.kif: step 10 ends every game, and a game can waste moves up to it, so the
    # longest game is 10 steps (proved once asked). Here the longest game runs until its
    # share ends the first two times it is asked, and goal definedness runs out its share
    # once, then answers unknown at once: the time it leaves over in the second round is a
    # third round for the longest game, which then proves it.
    game = load_game(str(SHEETS / "hanoi.kif"))
    system = ground(game.rules, "hanoi")
    verifier = Verifier(make_unrolling(system, "cnf"), [game], horizon=20, budget=Budget(4.0))
    asked = {"longest_game": 0, "goal_definedness": 0}

    def answers_when(name: str, time_runs_out: int, then):
        def ask():
            asked[name] += 1
            if asked[name] > time_runs_out:
                return then()
            while not verifier.budget.expired:
                time.sleep(0.01)
            raise OutOfBudget("the time limit ran out")

        return ask

    verifier.longest_game = answers_when("longest_game", 2, verifier.longest_game)
    verifier.goal_definedness = answers_when("goal_definedness", 1, lambda: Answer(UNKNOWN))
    result = verifier.run()
    assert asked == {"longest_game": 3, "goal_definedness": 2}
    assert (result.longest_game.status, result.longest_game.value) == ("proved", 10)
    assert result.goal_definedness.status == "unknown"


def test_a_shortest_game_cut_short_tells_the_bounds_it_reached(monkeypatch):
    # hanoi.kif: three discs take 7 moves at least, and step 10 ends every game, so every
    # game ends after 7 to 10 steps. Here a search for a terminal state 5 or more steps deep
    # runs until its budget ends: depths 0 to 4 are searched, and the answer is unknown,
    # with "none in fewer than 5" and the shortest line a random playout played (7 to 10).
    monkeypatch.setattr(Unrolling, "find", stalling(lambda depths: max(depths) >= 5))
    game = load_game(str(SHEETS / "hanoi.kif"))
    system = ground(game.rules, "hanoi")
    playouts = random_playouts(system, 64, max_steps=20)
    verifier = Verifier(make_unrolling(system, "cnf"), [game], horizon=20, playouts=playouts)
    answer = verifier._timed("shortest_game", verifier.shortest_game, Budget(1.0))
    assert answer.status == "unknown"
    bounds = re.fullmatch(
        r"the time limit ran out between bounds: no game ends in fewer than 5 steps, "
        r"and one ends after (\d+) \(a line of play replayed\)",
        answer.detail,
    )
    assert bounds is not None, answer.detail
    assert 7 <= int(bounds.group(1)) <= 10
    assert (answer.at_least, answer.at_most) == (5, int(bounds.group(1)))
    # Asked again with no time left (a second round that starts at the deadline): no line
    # can be replayed now, and the one replayed before bounds the answer still.
    verifier.whole_budget = Budget(0)
    again = verifier._timed("shortest_game", verifier.shortest_game, Budget(0))
    assert (again.status, again.detail) == ("unknown", answer.detail)


def test_a_win_found_bounds_the_shortest_game(monkeypatch):
    # tic-tac-toe: x can win on its third mark, after 5 steps (x, o, x, o, x), and no game
    # ends sooner. Here every search for a terminal state as such runs until its budget
    # ends, and there are no random playouts: the only line to a terminal state is the
    # earliest win's, which must then bound the shortest game from above.
    monkeypatch.setattr(Unrolling, "find", stalling(lambda depths: True))
    game = load_game(str(SHEETS / "tictactoe.kif"))
    system = ground(game.rules, "tictactoe")
    verifier = Verifier(make_unrolling(system, "cnf"), [game], horizon=10)
    win = verifier._timed("xplayer", lambda: verifier.earliest_win(0), Budget(10.0))
    assert (win.status, win.value) == ("found", 5)
    shortest = verifier._timed("shortest_game", verifier.shortest_game, Budget(0.5))
    assert shortest.status == "unknown"
    assert shortest.detail.endswith("one ends after 5 (a line of play replayed)")


def test_a_shortest_game_a_win_search_finds_answers_the_question_that_ran_out():
    # tic-tac-toe: no game ends before x's third mark, after 5 steps (x, o, x, o, x), and
    # x can win then. The shortest game's own question gets no time; the earliest win's
    # search then finds the shortest game first, and that answers the question too.
    game = load_game(str(SHEETS / "tictactoe.kif"))
    system = ground(game.rules, "tictactoe")
    verifier = Verifier(make_unrolling(system, "cnf"), [game], horizon=10)
    ran_out = verifier._timed("shortest_game", verifier.shortest_game, Budget(0.0))
    assert ran_out.status == "unknown"
    verifier.answers["shortest_game"] = ran_out
    verifier._timed("xplayer", lambda: verifier.earliest_win(0), Budget(10.0))
    shortest = verifier.answers["shortest_game"]
    assert (shortest.status, shortest.value) == ("proved", 5)


def test_a_line_that_starts_as_one_replayed_before_is_replayed_from_where_they_part(
    monkeypatch,
):
    game = load_game(str(SHEETS / "tictactoe.kif"))
    system = ground(game.rules, "tictactoe")
    playouts = random_playouts(system, 64, max_steps=9, seed=5)
    verifier = Verifier(make_unrolling(system, "cnf"), [game], horizon=10)
    steps = []
    plain_next = game.next

    def counted_next(state, joint):
        steps.append(joint)
        return plain_next(state, joint)

    monkeypatch.setattr(game, "next", counted_next)

    def replayed(line) -> tuple[int, object]:
        """The steps replayed for the line, and the state it ends in there."""
        steps.clear()
        witness = verifier.replays.checked(line, lambda game, state: True)
        return len(steps), verifier.replays.last_states[witness][1]

    first = playouts.line(0, int(playouts.lengths[0]))
    assert first.depth >= 5  # tic-tac-toe: no game ends before x's third mark
    assert replayed(first)[0] == first.depth
    # its first three steps: all replayed before
    assert replayed(Line(first.steps[:3]))[0] == 0
    # the same two first steps, then another legal third one: that step is replayed
    after_two = system.successor(system.successor(system.initial, first.steps[0]), first.steps[1])
    third = next(
        joint
        for joint in itertools.product(*system.legal_actions(after_two))
        if joint != first.steps[2]
    )
    other = Line((*first.steps[:2], third))
    count, last = replayed(other)
    assert count == 1
    monkeypatch.setattr(game, "next", plain_next)
    assert last == replay_line(game, verifier.replays.texts(other)).states[-1]
