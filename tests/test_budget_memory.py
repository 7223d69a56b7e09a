"""A memory limit ends a budget like a deadline: `Budget.limit_memory` (verify --max-memory)."""

from __future__ import annotations

import threading
import time

import pytest

from gamecheck.budget import Budget, OutOfBudget, resident_bytes


def wait_until_expired(budget: Budget, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if budget.expired:
            return True
        time.sleep(0.01)
    return False


def test_the_resident_memory_is_read():
    # this test process holds the interpreter, pytest and numpy: more than 10 MB, less than 100 GB
    assert 10 * 2**20 < resident_bytes() < 100 * 2**30


def test_a_limit_below_the_process_ends_the_budget_its_parts_and_their_guarded_calls():
    budget = Budget(60)
    part = budget.part(share=0.5)
    stopped = threading.Event()
    with part.stopping(stopped.set):
        budget.limit_memory(2**20)  # 1 MB: the process already holds more
        assert wait_until_expired(part, 2.0)
        assert stopped.wait(2.0)
    with pytest.raises(OutOfBudget, match=r"^the memory limit \(1 MB\) was reached$"):
        budget.check()
    with pytest.raises(OutOfBudget, match="memory limit"):
        part.check()
    assert budget.interrupted is None  # not a signal: the command reports unknown, not 130


def test_a_limit_above_the_process_leaves_the_budget_running():
    budget = Budget(60)
    budget.limit_memory(resident_bytes() + 2**30)
    assert not wait_until_expired(budget, 0.3)
    budget.check()
