"""The index of a day whose reports are separate (one per repository or group): which
reports there are, their counts, what forces action across all of them (the radar's
items) and the high-importance commits, each linking to its section of its report
(``<unit>/<day>.md#<anchor>`` from the Markdown, ``.html`` from the HTML page).

Commit text is escaped by the daily report's Markdown helpers; the HTML page is that
Markdown rendered by the same safe CommonMark renderer as analyser text (no raw HTML).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from markupsafe import escape

from commitdigest.models import Importance, ReportContext, RepositoryEntry
from commitdigest.render.htmltext import SafeMarkdown
from commitdigest.render.jinja_env import template_environment
from commitdigest.render.labels import get_labels
from commitdigest.render.view import MarkdownView, is_calendar_day, report_zone

PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"
_OWN_LINK = re.compile(r"(?:r/)?[a-z0-9][a-z0-9-]*/\d{4}-\d{2}-\d{2}\.html(?:#[a-z0-9-]+)?")


class _IndexMarkdown(SafeMarkdown):
    """The safe renderer, which also lets through this index's own links to the reports."""

    def validateLink(self, url: str) -> bool:  # markdown-it's name
        return _OWN_LINK.fullmatch(url) is not None or super().validateLink(url)


def _markdown(context: ReportContext, units: Mapping[str, str], ext: str) -> str:
    labels = get_labels(context.lang)
    zone = report_zone(context.window)
    view = MarkdownView(labels, zone)
    day = context.window.label

    def href(repo: RepositoryEntry, anchor: str | None = None) -> str:
        target = f"{units.get(repo.name, repo.anchor)}/{day}.{ext}"
        return f"{target}#{anchor or repo.anchor}"

    def counts(repo: RepositoryEntry) -> dict[str, int]:
        return {i.value: sum(1 for c in repo.commits if c.analysis.importance is i)
                for i in Importance}  # fmt: skip

    text = (
        template_environment("commitdigest.render", autoescape=False)
        .get_template("day_index.md.j2")
        .render(
            ctx=context,
            L=labels,
            s=labels.s,
            v=view,
            href=href,
            counts=counts,
            is_day=is_calendar_day(context.window, zone),
        )
    )
    return text.rstrip("\n") + "\n"


def simple_page(title: str, html_lang: str, body: str, policy: str = PAGE_CSP) -> str:
    """A plain self-contained HTML page around ``body`` (HTML from the safe Markdown
    renderer): the day index's, the upgrade report's."""
    return (
        f'<!DOCTYPE html>\n<html lang="{escape(html_lang)}">\n<head>\n'
        f'<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" '
        f'content="{policy}">\n<meta name="viewport" content="width=device-width, '
        f'initial-scale=1">\n<meta name="color-scheme" content="light dark">\n'
        f"<title>{escape(title)}</title>\n<style>body{{font-family:system-ui,sans-serif;"
        "max-width:60rem;margin:0 auto;padding:1rem;line-height:1.5}table{border-collapse:"
        "collapse}th,td{border:1px solid #8884;padding:2px 8px}</style>\n</head>\n<body>\n"
        f"{body}</body>\n</html>\n"
    )


def render_index_markdown(context: ReportContext, units: Mapping[str, str]) -> str:
    """The day's index as Markdown; ``units``: repository name -> its report's folder."""
    return _markdown(context, units, "md")


def render_index_html(
    context: ReportContext, units: Mapping[str, str], *, site_root: str | None = None
) -> str:
    """The day's index as one HTML page, linking to the reports' HTML pages; in the archive
    site (``site_root``: the way to its root), with the archive's search form."""
    labels = get_labels(context.lang)
    body = _IndexMarkdown().enable("table").render(_markdown(context, units, "html"))
    title = labels.report_title(context.window.label)
    policy = PAGE_CSP
    if site_root is not None:
        policy = PAGE_CSP.replace("form-action 'none'", "form-action 'self'")
        form = (
            template_environment("commitdigest.render")
            .get_template("_site_search.html.j2")
            .render(site_root=site_root, s=labels.s)
        )
        body = form + body
    return simple_page(title, labels.s["html_lang"], body, policy)
