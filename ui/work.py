"""The server's work, shared fairly between the sessions of one server.

- One budget (:data:`BUDGET`, the engine's default: about 30 s of resampling) for every run of every page.
- One queue: runs take turns, ``SLOTS`` at a time (each already uses every core through the engine's threads), in
  the order they asked; a run that waits is told how many are ahead of it. Eight runs at once each got an eighth
  of the cores and none had its verdict after 19 minutes; in turn, each ends in its own half-minute.
- Progress in blocks: the engine calls back after each block of resamples (or pair), and the bar is redrawn there.
  Streamlit ends a script at its next call into Streamlit, so a Stop, a rerun or a closed tab ends the wait or the
  run at the next block, and frees its turn.
- One store of finished results, shared by the sessions (a class's forty students on the same sample compute it
  once), bounded in entries and age.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

import streamlit as st

from sigcore import budget

BUDGET = budget.DEFAULT
SLOTS = max(1, (os.cpu_count() or 1) // 2)  # runs at once
BEYOND = (" This server gives each run about 30 s; the command line runs longer ones (sigcore compare, many or "
          "seeds with --budget).")
KEEP, AGE = 16, 600  # finished results kept, and for how many seconds

_turns = threading.Condition()
_waiting: deque = deque()  # the runs that wait, in the order they asked
_running = [0]


def explain(error: Exception) -> str:
    """An error as the page shows it: a run beyond the budget also says where it can run."""
    return str(error) + (BEYOND if isinstance(error, budget.BudgetError) else "")


@contextmanager
def turn(area, what: str):
    """Wait for a turn on the server, saying in ``area`` how many runs are ahead; then run, and free the turn
    however the run ends (its result, an error, a Stop or a closed tab)."""
    ticket = object()
    with _turns:
        _waiting.append(ticket)
    try:
        while True:
            with _turns:
                ahead = _waiting.index(ticket)
                if ahead == 0 and _running[0] < SLOTS:
                    _waiting.popleft()
                    _running[0] += 1
                    break
                _turns.wait(0.5)
                ahead = _waiting.index(ticket) + _running[0] - SLOTS + 1
            area.info(f"{what}: waiting for the server, {max(ahead, 1)} run{'s' * (max(ahead, 1) != 1)} ahead of "
                      "yours (each at most about 30 s). It starts by itself; Stop or a new setting cancels it.",
                      icon="⏳")  # a call into Streamlit: where a Stop or a closed tab ends the wait
    except BaseException:
        with _turns:
            if ticket in _waiting:
                _waiting.remove(ticket)
            _turns.notify_all()
        raise
    try:
        area.empty()
        yield
    finally:
        with _turns:
            _running[0] -= 1
            _turns.notify_all()


def progress_bar(area, what: str) -> Callable[[float], None]:
    """The engine's ``progress`` callback: a bar in ``area``, redrawn at most four times a second."""
    bar, last = area.progress(0.0, text=what), [0.0]

    def report(done: float) -> None:
        now = time.monotonic()
        if done >= 1 or now - last[0] >= 0.25:
            last[0] = now
            bar.progress(min(max(done, 0.0), 1.0), text=f"{what}: {done:.0%}")
    return report


@st.cache_resource
def _store() -> tuple[threading.Lock, OrderedDict]:
    return threading.Lock(), OrderedDict()


def kept(key: str, area, what: str, compute: Callable[[Callable[[float], None]], Any]) -> Any:
    """The result stored under ``key``, or ``compute(progress)`` in its turn, with a bar in ``area``, then stored.
    Results are shared by every session: treat them as read-only."""
    lock, store = _store()
    now = time.monotonic()
    with lock:
        for old in [k for k, (_, at) in store.items() if now - at > AGE]:
            del store[old]
        if key in store:
            store.move_to_end(key)
            return store[key][0]
    with turn(area, what):
        value = compute(progress_bar(area, what))
    area.empty()
    with lock:
        store[key] = (value, time.monotonic())
        while len(store) > KEEP:
            store.popitem(last=False)
    return value
