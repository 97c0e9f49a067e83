"""Render a :class:`ReportContext` as one self-contained HTML page.

The page (``templates/report.html.j2``) holds the Markdown report's content and anchors,
plus a sticky summary bar, client-side filters and a search box. Its CSS and JS
(``templates/report.css``, ``templates/report.js``) are inlined, and a Content-Security-
Policy allows exactly those two (by hash) and nothing else: no fonts, images, scripts or
requests from anywhere.

Jinja2 autoescapes everything; the only markup that is not escaped comes from this
module: analyser text (restricted Markdown) passed through the same sanitisers as the
Markdown report (:mod:`commitdigest.render.mdtext`) and then rendered by markdown-it-py
with raw HTML and images disabled and links restricted to http(s). Filter data goes into
``data-*`` attributes, never into script text. The same context gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources

from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from commitdigest.models import (
    IMPORTANCE_ORDER,
    Analysis,
    ChangeType,
    CommitEntry,
    Importance,
    ReportContext,
)
from commitdigest.render.jinja_env import csp_hash, template_environment
from commitdigest.render.labels import get_labels
from commitdigest.render.markdown import (
    OMITTED_SHOWN,
    ReportView,
    check_anchors,
    is_calendar_day,
    report_zone,
)
from commitdigest.render.mdtext import (
    clean_line,
    safe_url,
    sanitize_block,
    sanitize_inline,
    shorten_title,
)

LABELS_SHOWN = 10  # a pull request's labels shown in a section (as in the Markdown)


class SafeMarkdown(MarkdownIt):
    """CommonMark without raw HTML or images; links only to http(s) URLs."""

    def __init__(self) -> None:
        super().__init__("commonmark", {"html": False})
        self.disable("image")

    def validateLink(self, url: str) -> bool:  # markdown-it's name
        return safe_url(url) is not None


_MD = SafeMarkdown()


def render_inline(text: str) -> Markup:
    """One line of analyser text (restricted Markdown) as safe inline HTML."""
    return Markup(_MD.renderInline(sanitize_inline(text)))


def render_block(text: str) -> Markup:
    """Analyser text (paragraphs, a list, code) as safe HTML blocks."""
    return Markup(_MD.render(sanitize_block(text)))


@cache
def page_assets() -> tuple[str, str]:
    """The page's stylesheet and script, exactly as they are inlined."""
    folder = resources.files("commitdigest.render") / "templates"
    css = (folder / "report.css").read_text(encoding="utf-8")
    js = (folder / "report.js").read_text(encoding="utf-8")
    if "</style" in css.lower() or "</script" in js.lower():  # pragma: no cover
        raise ValueError("an inlined asset would close its own element")
    return css, js


FORM_SELF, FORM_NONE = "'self'", "'none'"


def content_security_policy(css: str, js: str, *, forms: bool = False) -> str:
    """Nothing but the page's own inline style and script; no requests at all (``forms``:
    but the archive's search form, a GET to this site)."""
    return (
        f"default-src 'none'; style-src {csp_hash(css)}; script-src {csp_hash(js)}; "
        f"base-uri 'none'; form-action {FORM_SELF if forms else FORM_NONE}"
    )


def render_html(context: ReportContext, *, site_root: str | None = None) -> str:
    """The HTML report for ``context``: one UTF-8 page with everything inline. In the
    archive site, ``site_root`` is the way to the site's root ("" or "../"): the header
    then has the archive's search form and a link home."""
    labels = get_labels(context.lang)
    check_anchors(context)
    zone = report_zone(context.window)
    css, js = page_assets()
    view = _HtmlView(labels, zone)
    text = (
        template_environment("commitdigest.render")
        .get_template("report.html.j2")
        .render(
            ctx=context,
            L=labels,
            s=labels.s,
            v=view,
            is_day=is_calendar_day(context.window, zone),
            css=Markup(css),
            js=Markup(js),
            csp=content_security_policy(css, js, forms=site_root is not None),
            site_root=site_root,
        )
    )
    return text.rstrip("\n") + "\n"


class _HtmlView(ReportView[Markup]):
    """Helpers the HTML template calls. Plain strings are escaped by the template;
    :class:`Markup` results are HTML this class made safe. What it shares with the
    Markdown report (times, groups, counts, the analyser and overview lines, insights
    and risks) is :class:`~commitdigest.render.markdown.ReportView`'s."""

    # -- what the format decides: analyser text (restricted Markdown) -> HTML -------------
    def inline(self, value: str) -> Markup:
        return render_inline(value)

    def cell_text(self, value: str) -> Markup:
        return render_inline(value)

    def plain(self, text: str) -> Markup:
        return escape(text)

    def fill(self, template: str, **values: str) -> Markup:
        return escape(template).format(**values)  # plain values are escaped too

    def fill_value(self, value: str) -> str:
        return value

    def with_link(self, item: Markup, anchor: str) -> Markup:
        return item + Markup(' <a class="to-commit" href="#{}">↓</a>').format(anchor)

    # -- commit text (plain) -------------------------------------------------------------
    def text(self, value: str) -> str:
        return clean_line(value)

    def title(self, value: str, short: bool = False) -> str:
        value = shorten_title(value) if short else clean_line(value)
        return value or self.labels.s["untitled"]

    def pr_labels(self, values: Iterable[str]) -> list[str]:
        return [label for label in (clean_line(v) for v in list(values)[:LABELS_SHOWN]) if label]

    def search_text(self, commit: CommitEntry) -> str:
        """What the search box matches: title, author and summary, lowercased."""
        parts = (commit.title, commit.author, commit.analysis.summary)
        return " ".join(clean_line(part) for part in parts).lower()

    # -- analyser text (restricted Markdown -> HTML) ---------------------------------------
    def summary(self, analysis: Analysis, low: bool) -> tuple[str, Markup] | None:
        """("inline" | "block", html) as the Markdown shows it; None without a summary."""
        block = sanitize_block(analysis.summary)
        if not block:
            return None
        if low or "\n" not in block:
            return "inline", render_inline(analysis.summary)
        return "block", render_block(analysis.summary)

    def omitted(self, analysis: Analysis) -> tuple[list[str], str]:
        """The first files the analyser never saw, and "… N more" (or "")."""
        paths = [p for p in (clean_line(path) for path in analysis.omitted_files) if p]
        more = len(paths) - OMITTED_SHOWN
        tail = self.labels.s["omitted_more"].format(n=f"{more:,}") if more > 0 else ""
        return paths[:OMITTED_SHOWN], tail

    # -- the summary bar and the filters ---------------------------------------------------
    def totals(self, ctx: ReportContext) -> list[tuple[str, int]]:
        """(importance, commits) over the whole report, high first."""
        commits = [c for repo in ctx.repositories for c in repo.commits]
        return [
            (imp.value, sum(1 for c in commits if c.analysis.importance == imp))
            for imp in IMPORTANCE_ORDER
        ]

    def change_types(self, ctx: ReportContext) -> list[tuple[str, str]]:
        """(value, label) of each change type in the report, in the enum's order."""
        present = {c.analysis.change_type for repo in ctx.repositories for c in repo.commits}
        return [(t.value, self.labels.change_type(t)) for t in ChangeType if t in present]

    def is_open(self, importance: str) -> bool:
        """High-importance sections start open; the others start closed."""
        return importance == Importance.HIGH.value
