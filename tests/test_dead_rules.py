"""Rules that fire in no reachable state where legal, next, terminal or goal ask for them
(solvers/ground/grounder.py): verify names them, as "position: rule", in its text and JSON."""

from pathlib import Path

from gamecheck.analysis.verify.pipeline import verify_game
from gamecheck.analysis.verify.text import _dead_rules_text, verification_text
from gamecheck.models.sheet import GdlGame
from gamecheck.solvers.ground.grounder import ground

SHEETS = Path(__file__).parent / "data" / "gdl"
DEAD_GOAL = SHEETS / "dead_goal.kif"
# By hand: the robot marks cells 1 and 2 with x, so the reachable facts are (cell 1 blank),
# (cell 2 blank), (cell 1 x) and (cell 2 x); the rule on line 11 asks for (cell 1 o).
NEVER_FIRES = f"{DEAD_GOAL}:11:1: (<= (goal robot 100) (true (cell 1 o)))"


def test_a_goal_rule_asking_for_a_mark_never_made_never_fires():
    system = ground(GdlGame.from_file(DEAD_GOAL).rules, "dead_goal")
    assert system.dead_rules == (NEVER_FIRES,)


def test_every_rule_of_tictactoe_fires_somewhere():
    system = ground(GdlGame.from_file(SHEETS / "tictactoe.kif").rules, "tictactoe")
    assert system.dead_rules == ()


def test_verify_names_the_rule_in_its_text_and_json():
    result = verify_game(str(DEAD_GOAL), time_limit=30)
    assert result.dead_rules == (NEVER_FIRES,)
    text = verification_text(result)
    heading = "rules that never fire (1): legal, next, terminal and goal see no instance of them"
    assert f"  {heading} in any reachable state" in text.splitlines()
    assert f"    {NEVER_FIRES}" in text.splitlines()
    assert result.to_json()["dead_rules"] == [NEVER_FIRES]
    # the rule that can never give 100 is also why the robot can never win
    assert result.earliest_win["robot"].status == "none"


def test_the_text_shows_ten_rules_and_counts_the_rest():
    rules = tuple(f"sheet.kif:{line}:1: (<= terminal (true (never {line})))" for line in range(12))
    lines = _dead_rules_text(rules)
    assert lines[0].startswith("  rules that never fire (12): ")
    assert lines[1:11] == [f"    {rule}" for rule in rules[:10]]
    assert lines[11:] == ["    ... (2 more)"]
    assert _dead_rules_text(()) == []
