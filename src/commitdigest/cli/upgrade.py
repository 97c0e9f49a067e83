"""``upgrade``: what breaks your code between the version you run and the next one."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer

from commitdigest.cli.console import err, exit_with, out, print_written
from commitdigest.cli.options import (
    ConfigOption,
    DownstreamOption,
    FormatOption,
    HomeOption,
    LangOption,
    OutOption,
    takes_options,
)
from commitdigest.errors import EXIT_CODES_HELP


@dataclass(frozen=True, kw_only=True)
class UpgradeArgs:
    """``upgrade``'s arguments and options (each field one of them, in ``--help`` order)."""

    repository: Annotated[
        str,
        typer.Argument(help="A local clone, or a git URL / GitHub owner/repo (mirrored)."),
    ]
    from_ref: Annotated[
        str,
        typer.Option(
            "--from", help="The version you run: a tag (0.27.2 finds v0.27.2), branch or SHA."
        ),
    ]
    to_ref: Annotated[
        str,
        typer.Option("--to", help="The version to move to: a tag, a branch (main) or a SHA."),
    ]
    downstream: DownstreamOption = None
    lang: LangOption = None
    fmt: FormatOption = None
    out_dir: OutOption = None
    fail_on: Annotated[
        str,
        typer.Option(
            "--fail-on",
            help="Exit 9 when a breaking change is used in your code (affected), when "
            "there is any breaking change (breaking), or never.",
        ),
    ] = "never"
    config: ConfigOption = None
    home: HomeOption = None


def register(app: typer.Typer) -> None:
    @app.command(epilog=EXIT_CODES_HELP)
    @takes_options(UpgradeArgs)
    def upgrade(args: UpgradeArgs) -> None:
        """Compare two versions of an upstream and find where your code breaks.

        The two endpoints are compared once (a name added and removed inside the range is
        no change), plus everything the range's releases announce in their changelogs.
        With --downstream, every use in your checkouts is listed with what to write instead
        when the project says it: the Markdown reads like a migration checklist. Writes
        upgrade-FROM-TO.md (.json, .html) into --out and prints the paths.
        """

        def action() -> int:
            from commitdigest.aio import run_sync
            from commitdigest.cli.report import checkouts
            from commitdigest.config import find_config, load_settings
            from commitdigest.pipeline.report import check_lang, parse_formats
            from commitdigest.pipeline.upgrade import UpgradeOptions, run_upgrade
            from commitdigest.render.upgrade import verdict_line
            from commitdigest.store import default_home

            settings = load_settings(find_config(args.config))
            language = args.lang or settings.report_language()
            check_lang(language)
            formats = parse_formats(args.fmt or ",".join(settings.formats))
            options = UpgradeOptions(
                repository=args.repository,
                from_ref=args.from_ref,
                to_ref=args.to_ref,
                downstream=checkouts(args.downstream) or (),
                lang=language,
                formats=formats,
                out=args.out_dir or settings.output_dir,
                fail_on=args.fail_on,
            )
            outcome, code = run_sync(run_upgrade(options, settings, args.home or default_home()))
            print_written(out, err, outcome.paths, {})
            err.print(verdict_line(outcome.context).replace("`", ""), markup=False)
            return code

        exit_with(action)
