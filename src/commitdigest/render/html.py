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

import base64
import hashlib
from collections.abc import Iterable
from datetime import datetime, tzinfo
from functools import cache
from importlib import resources

import jinja2
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from commitdigest.models import (
    IMPORTANCE_ORDER,
    Analysis,
    AnalysisStatus,
    ChangeType,
    CommitEntry,
    Coverage,
    Importance,
    Insight,
    Overview,
    ReportContext,
    RepositoryEntry,
    Risk,
    Usage,
)
from commitdigest.render.labels import Labels, get_labels
from commitdigest.render.markdown import (
    OMITTED_SHOWN,
    _View,
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
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("commitdigest.render", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


@cache
def page_assets() -> tuple[str, str]:
    """The page's stylesheet and script, exactly as they are inlined."""
    folder = resources.files("commitdigest.render") / "templates"
    css = (folder / "report.css").read_text(encoding="utf-8")
    js = (folder / "report.js").read_text(encoding="utf-8")
    if "</style" in css.lower() or "</script" in js.lower():  # pragma: no cover
        raise ValueError("an inlined asset would close its own element")
    return css, js


def csp_hash(text: str) -> str:
    """A CSP source expression for an inline element whose content is ``text``."""
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return f"'sha256-{base64.b64encode(digest).decode('ascii')}'"


def content_security_policy(css: str, js: str) -> str:
    """Nothing but the page's own inline style and script; no requests at all."""
    return (
        f"default-src 'none'; style-src {csp_hash(css)}; script-src {csp_hash(js)}; "
        "base-uri 'none'; form-action 'none'"
    )


def render_html(context: ReportContext) -> str:
    """The HTML report for ``context``: one UTF-8 page with everything inline."""
    labels = get_labels(context.lang)
    check_anchors(context)
    zone = report_zone(context.window)
    css, js = page_assets()
    view = _HtmlView(labels, zone)
    text = (
        _environment()
        .get_template("report.html.j2")
        .render(
            ctx=context,
            L=labels,
            s=labels.s,
            v=view,
            is_day=is_calendar_day(context.window, zone),
            css=Markup(css),
            js=Markup(js),
            csp=content_security_policy(css, js),
        )
    )
    return text.rstrip("\n") + "\n"


class _HtmlView:
    """Helpers the HTML template calls. Plain strings are escaped by the template;
    :class:`Markup` results are HTML this class made safe."""

    def __init__(self, labels: Labels, zone: tzinfo) -> None:
        self.labels = labels
        self.s = labels.s
        self._plain = _View(labels, zone)  # the Markdown helpers whose output is plain text

    # -- shared with the Markdown report (plain text, escaped by the template) -----------
    def time(self, moment: datetime, seconds: bool = True) -> str:
        return self._plain.time(moment, seconds)

    def groups(self, repo: RepositoryEntry) -> list[tuple[str, list[CommitEntry]]]:
        return self._plain.groups(repo)

    def stats(self, repo: RepositoryEntry, is_day: bool) -> str:
        return self._plain.stats(repo, is_day)

    def coverage(self, coverage: Coverage, total: bool = False) -> str:
        return self._plain.coverage(coverage, total)

    def usage(self, usage: Usage) -> str:
        return self._plain.usage(usage)

    def url(self, value: str | None) -> str | None:
        return safe_url(value)

    def pr_url(self, commit: CommitEntry) -> str | None:
        return self._plain.pr_url(commit)

    # -- commit text (plain) -------------------------------------------------------------
    def text(self, value: str) -> str:
        return clean_line(value)

    def title(self, value: str, short: bool = False) -> str:
        value = shorten_title(value) if short else clean_line(value)
        return value or self.s["untitled"]

    def pr_labels(self, values: Iterable[str]) -> list[str]:
        return [label for label in (clean_line(v) for v in list(values)[:LABELS_SHOWN]) if label]

    def search_text(self, commit: CommitEntry) -> str:
        """What the search box matches: title, author and summary, lowercased."""
        parts = (commit.title, commit.author, commit.analysis.summary)
        return " ".join(clean_line(part) for part in parts).lower()

    # -- analyser text (restricted Markdown -> HTML) ---------------------------------------
    def inline(self, value: str) -> Markup:
        return render_inline(value)

    def items(self, values: Iterable[str]) -> list[Markup]:
        return [html for html in (render_inline(v) for v in values) if html]

    def summary(self, analysis: Analysis, low: bool) -> tuple[str, Markup] | None:
        """("inline" | "block", html) as the Markdown shows it; None without a summary."""
        block = sanitize_block(analysis.summary)
        if not block:
            return None
        if low or "\n" not in block:
            return "inline", render_inline(analysis.summary)
        return "block", render_block(analysis.summary)

    def insights(self, insights: Iterable[Insight]) -> list[tuple[Markup, Markup]]:
        rows = []
        for insight in insights:
            text = render_inline(insight.text)
            if not text:
                continue
            label = self.labels.dimension(insight.dimension)
            dimension = escape(label) if label else render_inline(insight.dimension)
            rows.append((dimension or escape(self.s["empty_cell"]), text))
        return rows

    def risks(self, risks: Iterable[Risk]) -> list[tuple[Markup, Markup, Markup]]:
        rows = []
        for risk in risks:
            cells = (risk.risk, risk.effect, risk.mitigation)
            if any(clean_line(cell) for cell in cells):
                a, b, c = (render_inline(cell) or escape(self.s["empty_cell"]) for cell in cells)
                rows.append((a, b, c))
        return rows

    def analyser(self, analysis: Analysis) -> Markup:
        """Who analysed the commit (and, for a fallback, why the LLM did not)."""
        s = self.s
        if analysis.status == AnalysisStatus.FALLBACK:
            reason = render_inline(analysis.notes[0]) if analysis.notes else Markup("")
            return escape(s["fallback"]).format(reason=reason or s["unknown_reason"])
        name = clean_line(analysis.analyser)
        if name == "rules":
            line = s["by_rules"]
        elif name == "llm":
            line = s["by_llm"]
        else:
            line = s["by_other"].format(name=name)
        version = clean_line(analysis.analyser_version)
        if version and name != "rules":
            line += s["version"].format(version=version)
        return escape(line)

    def notes(self, analysis: Analysis) -> list[Markup]:
        """The analyser's reasons (for a fallback, those after the failure reason)."""
        notes = analysis.notes[1:] if analysis.status == AnalysisStatus.FALLBACK else analysis.notes
        return self.items(note.rstrip("。．.；;，, ") for note in notes)

    def omitted(self, analysis: Analysis) -> tuple[list[str], str]:
        """The first files the analyser never saw, and "… N more" (or "")."""
        paths = [p for p in (clean_line(path) for path in analysis.omitted_files) if p]
        more = len(paths) - OMITTED_SHOWN
        tail = self.s["omitted_more"].format(n=f"{more:,}") if more > 0 else ""
        return paths[:OMITTED_SHOWN], tail

    def overview(self, overview: Overview | None) -> list[tuple[str, list[Markup]]]:
        if overview is None:
            return []
        lists = (
            ("ov_themes", overview.themes),
            ("ov_key_changes", overview.key_changes),
            ("ov_risks", overview.risks),
        )
        return [(self.s[key], items) for key, values in lists if (items := self.items(values))]

    def overview_by(self, overview: Overview) -> Markup:
        s = self.s
        if overview.status == AnalysisStatus.FALLBACK:
            reason = render_inline(overview.notes[0]) if overview.notes else Markup("")
            return escape(s["ov_fallback"]).format(reason=reason or s["unknown_reason"])
        name = clean_line(overview.analyser)
        if name in ("rules", "llm"):
            return escape(s[f"ov_by_{name}"])
        return escape(s["ov_by_other"].format(name=name))

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
