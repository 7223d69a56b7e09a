"""The watchdog never stops a call after its guard is released (the solver it stops may be
deleted at once: python-sat's interrupt on a deleted solver writes into freed memory), and it
tells a call that ignores its stop."""

from __future__ import annotations

import threading
import time

from gamecheck import budget as budget_module
from gamecheck.budget import Budget, on_stuck_calls


def test_a_stop_in_progress_ends_before_its_guard_is_released():
    entered = threading.Event()
    ended: list[float] = []

    def stop() -> None:
        if threading.current_thread() is threading.main_thread():
            return  # `stopping` itself stops at once where the budget has already expired
        entered.set()
        time.sleep(0.2)  # the watchdog is in the middle of stopping the call
        ended.append(time.monotonic())

    with Budget(0).stopping(stop):
        assert entered.wait(2.0)
    released = time.monotonic()
    assert ended and max(ended) <= released


def test_a_call_that_ignores_its_stop_is_reported_stuck(monkeypatch):
    monkeypatch.setattr(budget_module, "STUCK_SECONDS", 0.2)
    stuck = threading.Event()
    with on_stuck_calls(stuck.set), Budget(0).stopping(lambda: None):
        assert stuck.wait(2.0)  # the call below the stop goes on as if never stopped


def test_a_call_that_stops_is_not_reported_stuck(monkeypatch):
    monkeypatch.setattr(budget_module, "STUCK_SECONDS", 0.2)
    stuck, stopped = threading.Event(), threading.Event()
    with on_stuck_calls(stuck.set):
        with Budget(0.05).stopping(stopped.set):
            assert stopped.wait(2.0)
        assert not stuck.wait(0.5)


def test_a_call_stopped_early_may_run_on_while_the_whole_budget_lasts(monkeypatch):
    monkeypatch.setattr(budget_module, "STUCK_SECONDS", 0.2)
    stuck = threading.Event()
    with on_stuck_calls(stuck.set), Budget(60).part(0).stopping(lambda: None):
        assert not stuck.wait(0.6)  # the part ended, the command's 60 s have not
