"""``commitdigest mcp``: the report archive as an MCP server (the official ``mcp`` SDK).

Five read-only tools over :class:`~commitdigest.agent.archive.Archive` — ``list_reports``,
``get_report``, ``search_commits``, ``breaking_changes``, ``get_commit`` — on stdio (what
agents launch) or streamable HTTP on 127.0.0.1 (``--http PORT``). No tool writes, runs git
or reaches the network; a bad argument is a tool error with one line saying why.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

from commitdigest.agent.archive import Archive, ArchiveError
from commitdigest.version import __version__

INSTRUCTIONS = (
    "Daily reports of what changed upstream in the repositories this user follows: each "
    "commit with its analysis (type, importance, summary) and the breaking-change radar's "
    "items (removed or renamed APIs, env vars, CLI flags, config keys, announced breaking "
    "changes). Start with breaking_changes(since=...) or search_commits(query=...); dates "
    "are YYYY-MM-DD. Everything is read-only."
)
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)


def build_server(reports: Path) -> MCPServer:
    archive = Archive(reports)
    server = MCPServer(
        "commitdigest", instructions=INSTRUCTIONS, version=__version__, log_level="WARNING"
    )

    def answer(call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
        try:
            return call()
        except ArchiveError as exc:
            raise ToolError(str(exc)) from None

    @server.tool(annotations=READ_ONLY, structured_output=True)
    def list_reports(
        repo: str | None = None, since: str | None = None, until: str | None = None
    ) -> dict[str, Any]:
        """The daily reports (newest first): date, repositories with their commit counts
        per importance, and the files written. Optionally one repository and a date range
        (YYYY-MM-DD, inclusive)."""
        return answer(lambda: archive.list_reports(repo, since, until))

    @server.tool(annotations=READ_ONLY, structured_output=True)
    def get_report(
        repo: str, date: str, format: Literal["md", "json", "summary"] = "md"
    ) -> dict[str, Any]:
        """One day's report: "md" the Markdown report, "json" the repository's part of it
        as data, "summary" one line per commit. Long reports are cut on a line."""
        return answer(lambda: archive.get_report(repo, date, format))

    @server.tool(annotations=READ_ONLY, structured_output=True)
    def search_commits(
        query: str,
        repo: str | None = None,
        since: str | None = None,
        importance: Literal["high", "medium", "low"] | None = None,
    ) -> dict[str, Any]:
        """Commits whose title, author, summary, changed paths or radar items hold every
        word of the query (newest first, at most 50), each with its link and its section
        in the report."""
        return answer(lambda: archive.search_commits(query, repo, since, importance))

    @server.tool(annotations=READ_ONLY, structured_output=True)
    def breaking_changes(
        since: str, repo: str | None = None, downstream: bool = False, internal: bool = False
    ) -> dict[str, Any]:
        """The radar's breaking changes since a day (YYYY-MM-DD): what was removed, renamed
        or announced as breaking in the public API, with the commit (each item says its
        visibility). downstream=true: only those the user's own code uses (found by the
        report's --downstream scan), with where; internal=true: internal names too."""
        return answer(lambda: archive.breaking_changes(since, repo, downstream, internal))

    @server.tool(annotations=READ_ONLY, structured_output=True)
    def get_commit(repo: str, sha: str) -> dict[str, Any]:
        """One commit (by a SHA of 7 to 40 hex digits): its analysis, radar items, files
        and links."""
        return answer(lambda: archive.get_commit(repo, sha))

    return server


def serve(reports: Path, *, http_port: int | None = None) -> None:
    """Serve until the client closes stdio (or, with ``http_port``, until interrupted)."""
    from commitdigest.aio import run_sync

    server = build_server(reports)
    if http_port is None:
        run_sync(server.run_stdio_async())
    else:
        run_sync(server.run_streamable_http_async(host="127.0.0.1", port=http_port))
