"""The ``site`` and ``serve`` commands, added to the main app by :func:`register`."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from commitdigest.cli.console import err, guard, out
from commitdigest.cli.options import ConfigOption
from commitdigest.errors import EXIT_CODES_HELP

if TYPE_CHECKING:
    from commitdigest.site.build import BuildResult


def register(app: typer.Typer) -> None:
    """Add ``site`` and ``serve`` to ``app``."""

    @app.command(name="site", epilog=EXIT_CODES_HELP)
    def site_command(
        out_dir: Annotated[Path, typer.Option("--out", help="Folder of the site.")] = Path("site"),
        reports: Annotated[
            Path | None,
            typer.Option(
                "--reports", help="Folder of the reports (default: config output_dir, reports)."
            ),
        ] = None,
        base_url: Annotated[
            str | None,
            typer.Option(
                "--base-url",
                help="Where the site will be published (https://…/): absolute feed links.",
            ),
        ] = None,
        title: Annotated[str | None, typer.Option("--title", help="The site's title.")] = None,
        config: ConfigOption = None,
    ) -> None:
        """Build a static site from the reports: an index by date, a page per repository,
        the report pages and an Atom feed. Rebuilding rewrites only what changed."""

        def action() -> BuildResult:
            from commitdigest.config import find_config, load_settings
            from commitdigest.site.build import build_site

            folder = (
                reports if reports is not None else load_settings(find_config(config)).output_dir
            )
            return build_site(folder, out_dir, base_url=base_url, title=title)

        result = guard(action)
        for warning in result.warnings:
            err.print(f"warning: {warning}", markup=False)
        out.print(f"{result.out_dir}: {result.days} days; {result.summary()}", markup=False)

    @app.command(name="serve", epilog=EXIT_CODES_HELP)
    def serve_command(
        directory: Annotated[Path, typer.Option("--dir", help="Folder of a built site.")] = Path(
            "site"
        ),
        port: Annotated[
            int, typer.Option(min=0, max=65535, help="Port on 127.0.0.1 (0: any free port).")
        ] = 8000,
    ) -> None:
        """Serve a built site on 127.0.0.1 only; Ctrl-C stops it."""

        def ready(url: str) -> None:
            out.print(f"serving {directory} at {url} (Ctrl-C to stop)", markup=False)

        def action() -> None:
            from commitdigest.site.serve import serve

            serve(directory, port, on_ready=ready)

        guard(action)
        err.print("stopped", markup=False)
