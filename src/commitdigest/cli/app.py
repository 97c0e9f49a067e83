"""The command line: parses arguments, calls the library, maps our errors to exit codes."""

from __future__ import annotations

import asyncio
import logging
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from commitdigest import __version__
from commitdigest.cli.common import closing, err, guard, out, state
from commitdigest.cli.config import config_app, repos_app
from commitdigest.cli.deliver import register as register_deliver_command
from commitdigest.cli.run import register as register_run_commands
from commitdigest.cli.site import register as register_site_commands
from commitdigest.config import find_config, load_settings
from commitdigest.errors import EXIT_CODES_HELP
from commitdigest.pipeline.report import (
    LANGS,
    ReportOptions,
    check_lang,
    generate_reports,
    parse_formats,
    render_file,
)
from commitdigest.progress import RichProgress
from commitdigest.sources.open import RepositoryOpener
from commitdigest.store import Store, default_home
from commitdigest.window import plan_windows

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
log = logging.getLogger("commitdigest")


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


@app.command(epilog=EXIT_CODES_HELP)
def report(
    repositories: Annotated[
        list[str],
        typer.Argument(help="Local git repositories (paths), or GitHub owner/repo or URLs."),
    ],
    date: Annotated[
        str | None, typer.Option("--date", help="One calendar day (YYYY-MM-DD) in --tz.")
    ] = None,
    since: Annotated[
        str | None,
        typer.Option(help="Start: a date or ISO datetime (inclusive). One report per day."),
    ] = None,
    until: Annotated[
        str | None, typer.Option(help="End: a date or ISO datetime (exclusive); default now.")
    ] = None,
    days: Annotated[
        int | None, typer.Option(help="The last N complete days, one report per day.")
    ] = None,
    tz: Annotated[
        str | None,
        typer.Option(help="IANA time zone of the days, e.g. Asia/Shanghai (default: local)."),
    ] = None,
    branch: Annotated[
        str | None, typer.Option(help="Branch to read (default: the current HEAD).")
    ] = None,
    lang: Annotated[
        str | None, typer.Option(help=f"Report language: {', '.join(LANGS)} (default zh).")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", help="Comma-separated formats: md, json, html (default md)."),
    ] = None,
    out_dir: Annotated[
        Path | None,
        typer.Option("--out", help="Folder for YYYY-MM-DD.<format> files (default reports)."),
    ] = None,
    analyser: Annotated[
        str | None,
        typer.Option(help="rules (offline, default) or llm (OpenAI-compatible endpoint)."),
    ] = None,
    model: Annotated[str | None, typer.Option(help="LLM model name (llm.model).")] = None,
    concurrency: Annotated[
        int | None,
        typer.Option(min=1, max=64, help="Concurrent LLM requests (llm.max_concurrency)."),
    ] = None,
    overview: Annotated[
        bool | None,
        typer.Option("--overview/--no-overview", help="A daily overview per repository."),
    ] = None,
    config: Annotated[
        Path | None,
        typer.Option(help="Config file (default ./commitdigest.toml, then the home folder)."),
    ] = None,
    home: Annotated[
        Path | None,
        typer.Option(
            envvar="COMMITDIGEST_HOME", help="Folder of the SQLite store (cache and run records)."
        ),
    ] = None,
) -> None:
    """Write the report of each day in the window (default: yesterday) and print the paths.

    Without --date, --since/--until or --days the window is yesterday in --tz. Options
    given here override the config file; OPENAI_API_KEY / OPENAI_BASE_URL configure the LLM.
    """

    def action() -> None:
        settings = load_settings(find_config(config))
        llm = settings.llm.model_copy(
            update={
                k: v
                for k, v in (("model", model), ("max_concurrency", concurrency))
                if v is not None
            }
        )
        windows = plan_windows(
            tz=tz or settings.timezone, on_date=date, since=since, until=until, days=days
        )
        given = {
            "lang": lang,
            "formats": fmt,
            "out_dir": out_dir,
            "analyser": analyser,
            "overview": overview,
        }
        options = ReportOptions.from_settings(
            settings,
            repositories=repositories,
            windows=windows,
            branch=branch,
            llm=llm,
            **{k: v for k, v in given.items() if v is not None},
        )
        check_lang(options.lang)  # bad values fail before the store is touched
        parse_formats(options.formats)
        home_dir = home or default_home()
        with Store.open(home_dir) as store, RichProgress(err) as progress:
            opener = RepositoryOpener(store=store, home=home_dir, github=settings.github)
            outcome = asyncio.run(
                closing(opener, generate_reports(options, store, progress=progress, opener=opener))
            )
        for path in outcome.paths:
            out.print(str(path), markup=False)
        if outcome.fallback:
            err.print(
                f"warning: the LLM failed on {outcome.fallback} commit(s); rule-based "
                "analysis stands in (marked in the report)",
                markup=False,
            )
        log.debug(
            "analysed %d, cached %d, timings %s", outcome.analysed, outcome.cached, outcome.timings
        )

    guard(action)


@app.command(epilog=EXIT_CODES_HELP)
def render(
    source: Annotated[Path, typer.Argument(help="A report's JSON context (--format json).")],
    fmt: Annotated[str, typer.Option("--format", help="Formats to write: md, json, html.")] = "md",
    out_dir: Annotated[
        Path | None, typer.Option("--out", help="Output folder (default: beside the JSON).")
    ] = None,
) -> None:
    """Render a report again from its JSON context, without git or analysis."""
    for path in guard(lambda: render_file(source, parse_formats(fmt), out_dir)):
        out.print(str(path), markup=False)


@app.command()
def runs(
    limit: Annotated[int, typer.Option(help="How many recent runs to list.")] = 10,
    home: Annotated[
        Path | None, typer.Option(envvar="COMMITDIGEST_HOME", help="Folder of the store.")
    ] = None,
) -> None:
    """List recent report runs recorded in the store."""

    def action() -> None:
        with Store.open(home) as store:
            records = store.runs(limit)
        table = Table(
            "id", "started (UTC)", "window", "repositories", "commits", "new", "cached", "status"
        )
        for r in records:
            table.add_row(
                str(r.id),
                r.started_at,
                f"{r.window_start} → {r.window_end}",
                ", ".join(r.repositories),
                str(r.commits),
                str(r.analysed),
                str(r.cached),
                r.status if not r.error else f"{r.status}: {r.error}",
            )
        out.print(table)

    guard(action)


register_run_commands(app)
register_deliver_command(app)
register_site_commands(app)
app.add_typer(config_app, name="config")
app.add_typer(repos_app, name="repos")


def main() -> None:
    app()


if __name__ == "__main__":
    main()
