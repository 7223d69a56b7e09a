"""The watchdog never stops a call after its guard is released: the solver it stops may be
deleted at once (python-sat's interrupt on a deleted solver writes into freed memory)."""

from __future__ import annotations

import threading
import time

from gamecheck.budget import Budget


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
