"""One time budget per command: a deadline, and cancellation by Ctrl-C or SIGTERM (and, where
asked, a memory limit: `limit_memory`).

Every phase of a command (loading, grounding, playouts, invariants, each query, replay) gets
the same `Budget`, or a `part` of it, and calls `check()` between steps: once the deadline
has passed or the run is interrupted it raises `OutOfBudget`, and the phase returns what it
settled, the rest `unknown`. That is the one timeout convention of the code.

A solver call that blocks in C cannot look at the clock, so it names how to stop it:
`with budget.stopping(solver.interrupt): solver.solve_limited(...)`. One watchdog thread
calls that at the deadline, or at once when a signal arrives (`on_signals` has Python write
signal numbers to a pipe the watchdog reads, which works while the main thread is in C). The
same thread looks at the process's resident memory (Linux: /proc/self/statm) where a budget
limits it, and past the limit ends that budget like a deadline. A call that runs on long
after it was stopped can only be ended with the process: `on_stuck_calls` says how.

>>> budget = Budget(None)
>>> budget.expired, budget.remaining()
(False, inf)
>>> Budget(0).check()
Traceback (most recent call last):
gamecheck.budget.OutOfBudget: the time limit ran out
"""

from __future__ import annotations

import math
import os
import select
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

WATCH_INTERVAL = 0.05
"""Seconds between two looks of the watchdog at the deadlines of the calls it guards."""
STUCK_SECONDS = 10.0
"""A guarded call still running this long after the watchdog first stopped it, once the
whole budget has ended, ignores its stop: the action of `on_stuck_calls` is then taken."""


class OutOfBudget(Exception):
    """The time limit passed or the run was interrupted: what is not settled is unknown."""


class Budget:
    """A deadline (None: no time limit) shared by every phase of one command; a `part` of it
    ends no later than the whole, and an interruption ends them all."""

    def __init__(
        self,
        seconds: float | None = None,
        *,
        parent: Budget | None = None,
        start: float | None = None,
    ):
        self.start = time.monotonic() if start is None else start
        """When the budget began (`time.monotonic()`): now, unless it counts from earlier."""
        self.deadline = None if seconds is None else self.start + seconds
        self.parent = parent
        if parent is not None and parent.deadline is not None:
            self.deadline = min(self.deadline or math.inf, parent.deadline)
        self._interrupted: int | None = None
        self._exhausted: str | None = None

    @property
    def root(self) -> Budget:
        return self if self.parent is None else self.parent.root

    @property
    def interrupted(self) -> int | None:
        """The number of the signal that interrupted the run, or None."""
        return self.root._interrupted

    def interrupt(self, signal_number: int) -> None:
        """End this budget and every part of it now, as `signal_number` asked."""
        root = self.root
        if root._interrupted is None:
            root._interrupted = signal_number
        _watchdog().stop_all()

    def limit_memory(self, most_bytes: int) -> None:
        """End this budget and every part of it once the process holds more than
        `most_bytes` of memory (its resident set; not watched where /proc is missing)."""
        watchdog = _watchdog()
        watchdog.memory_watch = (self.root, most_bytes)
        watchdog.look_at_memory()

    def exhaust(self, reason: str) -> None:
        """End this budget and every part of it now, for `reason` (what `check` raises)."""
        root = self.root
        if root._exhausted is None:
            root._exhausted = reason
        _watchdog().stop_all()

    def remaining(self) -> float:
        """Seconds left (math.inf without a time limit, 0 once expired)."""
        root = self.root
        if root._interrupted is not None or root._exhausted is not None:
            return 0.0
        if self.deadline is None:
            return math.inf
        return max(0.0, self.deadline - time.monotonic())

    @property
    def expired(self) -> bool:
        return self.remaining() == 0.0

    @property
    def seconds(self) -> float:
        """Seconds since the budget started."""
        return time.monotonic() - self.start

    def check(self) -> None:
        """Raise OutOfBudget, with the `stop_reason`, if the budget has ended."""
        root = self.root
        stopped = root._interrupted is not None or root._exhausted is not None
        if stopped or self.deadline is not None and time.monotonic() >= self.deadline:
            raise OutOfBudget(self.stop_reason())

    def check_room(self, seconds: float) -> None:
        """`check`, and raise OutOfBudget too where less than `seconds` are left: work that
        long, which cannot be stopped in the middle or is wasted if it is, would not finish."""
        self.check()
        if self.remaining() < seconds:
            raise OutOfBudget(self.stop_reason())

    def stop_reason(self) -> str:
        """Why the budget ends: an interruption, the memory limit, or else the time limit."""
        root = self.root
        if root._interrupted is not None:
            return "the run was interrupted"
        return root._exhausted or "the time limit ran out"

    def part(self, seconds: float | None = None, *, share: float | None = None) -> Budget:
        """A budget that ends after `seconds`, or after `share` of what is left, and no later
        than this one; without either, the same deadline."""
        if share is not None:
            left = self.remaining()
            seconds = None if left == math.inf else share * left
        return Budget(seconds, parent=self)

    @contextmanager
    def stopping(self, stop: Callable[[], object]) -> Iterator[None]:
        """Around a blocking call: `stop()` is called from the watchdog thread at the
        deadline or when the run is interrupted (at once if that has already happened)."""
        if self.expired:
            stop()
        guard = _watchdog().guard(self, stop)
        try:
            yield
        finally:
            _watchdog().release(guard)


@contextmanager
def on_signals(budget: Budget) -> Iterator[None]:
    """While inside: SIGINT and SIGTERM interrupt `budget` (the command then ends with what it
    settled); a second signal raises KeyboardInterrupt at once. Main thread only."""
    watchdog = _watchdog()
    received = []

    def handle(number: int, _frame) -> None:
        received.append(number)
        if len(received) > 1:
            raise KeyboardInterrupt
        budget.interrupt(number)

    previous = {number: signal.signal(number, handle) for number in (signal.SIGINT, signal.SIGTERM)}
    previous_fd = signal.set_wakeup_fd(watchdog.write_end)
    watchdog.listener = budget
    try:
        yield
    finally:
        watchdog.listener = None
        signal.set_wakeup_fd(previous_fd)
        for number, handler in previous.items():
            signal.signal(number, handler)


@contextmanager
def on_stuck_calls(action: Callable[[], object]) -> Iterator[None]:
    """While inside: `action` is called, from the watchdog thread, once a guarded call has
    run on STUCK_SECONDS after it was stopped (a solver that does not look at its interrupt
    flag); nothing in the process can end that call, so the command line then exits. Inside
    another such block, `action` is taken instead of the outer one's."""
    watchdog = _watchdog()
    previous, watchdog.on_stuck = watchdog.on_stuck, action
    try:
        yield
    finally:
        watchdog.on_stuck = previous


class _Watchdog:
    """One daemon thread: stops guarded calls at their deadline, or all of them when a
    signal number arrives on its wakeup pipe (open as long as the process runs) or the
    process holds more memory than `memory_watch` allows its budget."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        """Held while a guard is added or released and while stops are called, so that no
        stop runs after its guard is released: a solver may be deleted right after, and
        python-sat's interrupt then writes into freed memory. Reentrant: a signal handler
        may stop all while the main thread holds it."""
        self.guards: dict[int, tuple[Budget, Callable[[], object]]] = {}
        self.first_stopped: dict[int, float] = {}
        """Per guard stopped at its deadline, when that first happened."""
        self.on_stuck: Callable[[], object] | None = None
        self.next_id = 0
        self.read_end, self.write_end = os.pipe()
        os.set_blocking(self.write_end, False)
        self.listener: Budget | None = None
        self.memory_watch: tuple[Budget, int] | None = None
        threading.Thread(target=self._run, name="gamecheck-watchdog", daemon=True).start()

    def guard(self, budget: Budget, stop: Callable[[], object]) -> int:
        with self.lock:
            self.next_id += 1
            self.guards[self.next_id] = (budget, stop)
            return self.next_id

    def release(self, guard: int) -> None:
        with self.lock:
            self.guards.pop(guard, None)
            self.first_stopped.pop(guard, None)

    def stop_all(self) -> None:
        with self.lock:
            for _, stop in list(self.guards.values()):
                stop()

    def look_at_memory(self) -> None:
        """End the watched budget if the process holds more memory than it allows."""
        watch = self.memory_watch
        if watch is not None and resident_bytes() > watch[1]:
            self.memory_watch = None
            watch[0].exhaust(f"the memory limit ({watch[1] / 2**20:,.0f} MB) was reached")

    def _run(self) -> None:
        while True:
            ready, _, _ = select.select([self.read_end], [], [], WATCH_INTERVAL)
            numbers = os.read(self.read_end, 64) if ready else b""
            listener = self.listener
            for number in numbers:
                if number in (signal.SIGINT, signal.SIGTERM) and listener is not None:
                    listener.interrupt(number)
            self.look_at_memory()
            action = self.on_stuck
            if self._stop_due() and action is not None:
                action()

    def _stop_due(self) -> bool:
        """Stop every guarded call whose budget has ended; whether one of them has run on
        STUCK_SECONDS since it was first stopped, and the whole command's budget has ended
        too (a call stopped early may still end of itself before that)."""
        stuck = False
        with self.lock:
            now = time.monotonic()
            for guard, (budget, stop) in list(self.guards.items()):
                if budget.expired:
                    stop()
                    since = now - self.first_stopped.setdefault(guard, now)
                    stuck |= since > STUCK_SECONDS and budget.root.expired
        return stuck


def physical_bytes() -> int:
    """The machine's memory (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError):
        return 0


def resident_bytes() -> int:
    """The process's resident memory (0 where /proc/self/statm is missing)."""
    try:
        with open("/proc/self/statm") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


_WATCHDOG: _Watchdog | None = None
_WATCHDOG_LOCK = threading.Lock()


def _watchdog() -> _Watchdog:
    global _WATCHDOG
    with _WATCHDOG_LOCK:
        if _WATCHDOG is None:
            _WATCHDOG = _Watchdog()
        return _WATCHDOG
