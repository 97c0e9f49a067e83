"""The command line: the typer app, its global options, and the registration of each group.

One module per command group (``report``, ``run``, ``deliver``, ``site``, ``config``);
each imports its stage inside the command function, so ``--help`` stays fast.
"""

from __future__ import annotations

import atexit
import gc
import logging
import os
import sys
from typing import Annotated, NoReturn

import typer

from commitdigest.cli import config as config_commands
from commitdigest.cli import deliver, mcp, report, run, site, upgrade, weekly
from commitdigest.cli.console import out, state
from commitdigest.cli.llm import llm_app
from commitdigest.errors import EXIT_CODES_HELP
from commitdigest.version import __version__

app = typer.Typer(
    name="commitdigest",
    help="Daily reports of what changed upstream: every commit of a time window, analysed, "
    "grouped by importance, as Markdown or JSON.",
    epilog=EXIT_CODES_HELP,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"commitdigest {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Debug logs on stderr (and tracebacks).")
    ] = False,
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Print version.")
    ] = False,
) -> None:
    state["verbose"] = verbose
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


report.register(app)
run.register(app)
deliver.register(app)
site.register(app)
weekly.register(app)
upgrade.register(app)
mcp.register(app)
app.add_typer(config_commands.config_app, name="config")
app.add_typer(config_commands.repos_app, name="repos")
app.add_typer(llm_app, name="llm")


# a young collection every 20,000 new objects, not every 700: a report makes millions of
# short-lived objects (parsed commits, patches, radar items) and next to no reference
# cycles; the default collections cost 0.1 s of a 2 s plain report of vllm-ascend's 12 weeks
# and 0.19 s with the radar (0.03 s and 0.07 s now); mypy's build raises it too (200,000)
GC_THRESHOLD = (20_000, 20, 20)


def main() -> None:
    """The command line: runs the command and raises ``SystemExit`` with its exit code (as
    typer does)."""
    gc.set_threshold(*GC_THRESHOLD)
    app()


def script() -> NoReturn:
    """The ``commitdigest`` script and ``python -m commitdigest``: :func:`main`, then the
    process ends without the interpreter's teardown once the command is over — what it
    wrote is flushed and the exit handlers have run, but the run's objects are not freed one
    by one (a 12-week report with the radar spent 0.1-0.2 s on that after its work was
    done). Under a profiler or a tracer it ends as usual, so that they can write what they
    found."""
    try:
        main()
    except SystemExit as exc:
        _leave(exc.code)
    _leave(0)


def _leave(code: object) -> NoReturn:
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:  # SystemExit("message"): printed, status 1 (as Python does)
        print(code, file=sys.stderr)
        status = 1
    if sys.getprofile() is not None or sys.gettrace() is not None:
        raise SystemExit(status)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:  # (as Python ends when its last flush fails)
            status = status or 120
    os._exit(status)


if __name__ == "__main__":
    main()
