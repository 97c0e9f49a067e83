"""The one stdout/stderr pair of rich consoles, the verbosity, and the one error guard.

Every command runs its work through :func:`guard` (or :func:`exit_code_of` when the work
returns an exit code): a :class:`~commitdigest.errors.CommitdigestError` becomes
``error: <message>`` on one line and its exit code; standard output closed by its reader
(a broken pipe) the output error's code 4; any other exception one line and exit 70 (the
traceback only with ``-v``); Ctrl-C exit 130.
"""

from __future__ import annotations

import contextlib
import os
import sys
import traceback
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path
from typing import Protocol, TypeVar

import typer
from rich.console import Console

from commitdigest.errors import EXIT_INTERNAL, EXIT_INTERRUPTED, CommitdigestError, OutputError


class _Console(Console):
    def on_broken_pipe(self) -> None:  # rich's own exits 1 without a word
        self.quiet = True
        raise SystemExit(_output_closed())


err = _Console(stderr=True, highlight=False, soft_wrap=True)
out = _Console(highlight=False, soft_wrap=True)
state = {"verbose": False}


T = TypeVar("T")


def exit_code_of(action: Callable[[], int]) -> int:
    """Run ``action``; our errors become one line on stderr and their exit code."""
    try:
        code = action()
        sys.stdout.flush()  # a closed output shows here, not at exit
        return code
    except CommitdigestError as exc:
        if state["verbose"]:
            traceback.print_exc()
        err.print(f"error: {exc.message}", markup=False)
        return exc.exit_code
    except KeyboardInterrupt:
        err.print("interrupted", markup=False)
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # whoever read our output stopped reading (`| head`)
        return _output_closed()
    except Exception as exc:  # a bug: say so plainly, keep the traceback for -v
        if state["verbose"]:
            traceback.print_exc()
        err.print(
            f"internal error: {type(exc).__name__}: {exc} (run with -v for details)", markup=False
        )
        return EXIT_INTERNAL


def _output_closed() -> int:
    """Our standard output was closed by its reader: one line on stderr (if it is still
    open), the output error's code, and no second complaint when Python flushes at exit."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    with contextlib.suppress(OSError, ValueError):
        err.print("error: the output was closed before everything was written", markup=False)
    return OutputError.exit_code


def guard(action: Callable[[], T]) -> T:
    """Run ``action``; on any error print one line and exit with its code."""
    result: list[T] = []

    def wrapped() -> int:
        result.append(action())
        return 0

    code = exit_code_of(wrapped)
    if code:
        raise typer.Exit(code)
    return result[0]


def exit_with(action: Callable[[], int]) -> None:
    """Run ``action`` (which returns an exit code) through the guard; exit when not 0."""
    code = exit_code_of(action)
    if code:
        raise typer.Exit(code)


class _Degradable(Protocol):
    @property
    def degraded(self) -> str | None: ...


def degraded_code(outcome: _Degradable) -> int:
    """A run that fell back too often (:attr:`ReportOutcome.degraded`): its ``error:`` line
    and exit code 8; 0 for a run that did not."""
    from commitdigest.errors import LLMDegradedError

    if not outcome.degraded:
        return 0
    err.print(f"error: {outcome.degraded}", markup=False)
    return LLMDegradedError.exit_code


class _Closable(Protocol):
    async def aclose(self) -> None: ...


async def closing(resource: _Closable, work: Awaitable[T]) -> T:
    """Await ``work``, then close ``resource`` whatever happened."""
    try:
        return await work
    finally:
        await resource.aclose()


def print_written(
    out: Console, err: Console, written: Iterable[Path], kept: Mapping[Path, str]
) -> None:
    """The report files a command wrote (stdout, one per line) and those it kept, with why
    the new one is worse (stderr)."""
    for path in written:
        out.print(str(path), markup=False)
    for path, why in kept.items():
        err.print(
            f"kept {path}: the new report is less complete ({why}); a report is replaced "
            "only by one at least as complete",
            markup=False,
        )
