"""Running the library's async work from synchronous code.

:func:`run_sync` is ``asyncio.run`` that also works where the calling thread already runs an
event loop — a notebook, an async caller of a command, a test under Playwright's sync API —
by running the work on a worker thread with a loop of its own. Every synchronous entry point
(the command line, the MCP server) goes through it, so none ends in "asyncio.run() cannot be
called from a running event loop".
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


def loop_running() -> bool:
    """Whether this thread is running an event loop now."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def run_sync(work: Coroutine[Any, Any, T]) -> T:
    """Run ``work`` to completion and return its result (its exception propagates).

    Without a loop in this thread: ``asyncio.run``. With one: a worker thread runs
    ``asyncio.run(work)`` while this thread waits, so the caller's loop is left alone.
    """
    result: list[T] = []

    async def kept() -> None:
        # the main task returns nothing: Python 3.11's asyncio.run formats the task's repr,
        # result included, when it restores the SIGINT handler (a second for a big window)
        result.append(await work)

    if not loop_running():
        asyncio.run(kept())
        return result[0]
    failure: list[BaseException] = []

    def worker() -> None:
        try:
            asyncio.run(kept())
        except BaseException as exc:  # handed to the caller's thread below
            failure.append(exc)

    thread = threading.Thread(target=worker, name="commitdigest-run-sync", daemon=True)
    thread.start()
    thread.join()
    if failure:
        raise failure[0]
    return result[0]
