"""``mcp``: the report archive for coding agents (MCP, stdio or HTTP on 127.0.0.1)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from commitdigest.cli.console import exit_with
from commitdigest.cli.options import ConfigOption
from commitdigest.errors import EXIT_CODES_HELP


def register(app: typer.Typer) -> None:
    @app.command(epilog=EXIT_CODES_HELP)
    def mcp(
        reports: Annotated[
            Path | None,
            typer.Option(
                "--reports", help="Folder of the reports [default: the config's output_dir]."
            ),
        ] = None,
        http: Annotated[
            int | None,
            typer.Option(
                "--http",
                metavar="PORT",
                min=1,
                max=65535,
                help="Serve streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio.",
            ),
        ] = None,
        config: ConfigOption = None,
    ) -> None:
        """Serve the report archive to coding agents over MCP, read-only.

        Tools: list_reports, get_report, search_commits, breaking_changes, get_commit.
        Add it to an agent as a stdio server: `commitdigest mcp --reports PATH`.
        """

        def action() -> int:
            from commitdigest.config import find_config, load_settings
            from commitdigest.errors import UsageError

            folder = reports
            if folder is None:
                folder = load_settings(find_config(config)).output_dir
            if not folder.is_dir():
                raise UsageError(f"reports folder {folder} does not exist")
            from commitdigest.agent.server import serve

            serve(folder.resolve(), http_port=http)
            return 0

        exit_with(action)
