"""The views the report templates call (``v``): :class:`MarkdownView` for the Markdown
report, :class:`HtmlView` for the HTML report (and, through them, the weekly, the day
index and the e-mail).

What both formats do the same way — times, grouping, counts, the lines composed from
labels and analyser text — is :class:`ReportView`'s; each subclass says only how text is
made safe for its format: escaped or sanitised Markdown (:mod:`commitdigest.render.mdtext`)
or HTML :class:`~markupsafe.Markup` (:mod:`commitdigest.render.htmltext`, imported when an
HTML view first needs it, so a Markdown-only run never loads markdown-it). A view shows
what the context holds; it decides nothing about a commit.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Iterable
from datetime import UTC, datetime, time, timedelta, tzinfo
from typing import Generic, TypeVar, cast
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

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
    WindowInfo,
)
from commitdigest.render.act_on import ActLine, ActOn, act_on, item_names
from commitdigest.render.headline import Headline, headline
from commitdigest.render.labels import Labels
from commitdigest.render.mdtext import (
    Context,
    code_span,
    escape_text,
    sanitize_block,
    sanitize_inline,
)
from commitdigest.text import (
    clean_line,
    has_cjk,
    lower_first,
    safe_url,
    shorten_title,
    without_stop,
)

__all__ = [
    "HtmlView",
    "MarkdownView",
    "ReportView",
    "format_cost",
    "is_calendar_day",
    "local_time",
    "report_zone",
]

OMITTED_SHOWN = 20  # omitted files named in a section; the rest are counted
LABELS_SHOWN = 10  # a pull request's labels shown in a section
SHORT_SUMMARY = 160  # characters of a low commit's summary in its table row
_GITHUB_COMMIT = re.compile(r"https://github\.com/([^/?#]+)/([^/?#]+)/commit/[0-9a-fA-F]+/?")

T = TypeVar("T", bound=str)


def report_zone(window: WindowInfo) -> tzinfo:
    """The window's IANA zone; failing that, the start's own offset, else UTC."""
    try:
        return ZoneInfo(window.tz)
    except (ZoneInfoNotFoundError, ValueError):
        return window.start.tzinfo or UTC


def is_calendar_day(window: WindowInfo, zone: tzinfo) -> bool:
    """Whether the window is exactly one local calendar day (midnight to midnight)."""
    start, end = local_time(window.start, zone), local_time(window.end, zone)
    return (
        start.time() == time(0)
        and end.time() == time(0)
        and end.date() - start.date() == timedelta(days=1)
    )


def format_cost(cost: float) -> str:
    """2 decimals; 4 for a cost under 0.01 (but not for nothing at all)."""
    return f"{cost:.4f}" if 0 < abs(cost) < 0.01 else f"{cost:,.2f}"


def local_time(moment: datetime, zone: tzinfo) -> datetime:
    """``moment`` in ``zone`` (a naive one is taken as UTC)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(zone)


_QUOTED = re.compile(r"(「|“)([^」”]*)(」|”)")


def _short_line(text: str, limit: int) -> str:
    """``text`` in at most about ``limit`` characters: the first quotation in it shortened
    first (``「Fix the cache when…」``), then, if still too long, the whole cut and a
    quotation left open closed again."""
    if len(text) <= limit:
        return text
    m = _QUOTED.search(text)
    if m is not None:
        room = limit - (len(text) - len(m.group(2))) - 1
        if room >= 12:
            inner = shorten_title(m.group(2), room, room).removesuffix("...").rstrip() + "…"
            return text[: m.start(2)] + inner + text[m.end(2) :]
    cut = shorten_title(text, limit, limit - 3)
    for opening, closing in (("「", "」"), ("“", "”")):
        if cut.count(opening) > cut.count(closing):
            cut = cut.removesuffix("...") + "…" + closing
    return cut


class ReportView(ABC, Generic[T]):
    """The helpers both reports' templates call (``v``) that work the same way in each:
    formatting, grouping, and the lines composed from labels and analyser text. What
    differs is how text is made safe for the format — ``T``: Markdown text here, HTML
    :class:`~markupsafe.Markup` in :class:`HtmlView` — and that is what a
    subclass says (:meth:`inline`, :meth:`cell_text`, :meth:`plain`, :meth:`fill`,
    :meth:`fill_value`)."""

    def __init__(self, labels: Labels, zone: tzinfo) -> None:
        self.labels = labels
        self.zone = zone

    # -- what the format decides ----------------------------------------------------
    @abstractmethod
    def inline(self, value: str) -> T:
        """One line of analyser text (restricted Markdown), made safe."""

    @abstractmethod
    def cell_text(self, value: str) -> T:
        """Analyser text for a table cell, made safe."""

    @abstractmethod
    def plain(self, text: str) -> T:
        """A label of the report's language as it is."""

    @abstractmethod
    def fill(self, template: str, **values: str) -> T:
        """A label with its ``{fields}`` filled in (values from :meth:`inline` or
        :meth:`fill_value`, or labels)."""

    @abstractmethod
    def fill_value(self, value: str) -> str:
        """Commit data (an analyser's name, a version) as a value for :meth:`fill`."""

    @abstractmethod
    def with_link(self, item: T, anchor: str) -> T:
        """``item`` followed by a link to the section ``#anchor`` of this report."""

    # -- text ------------------------------------------------------------------------
    def url(self, value: str | None) -> str | None:
        return safe_url(value)

    def items(self, values: Iterable[str]) -> list[T]:
        """Safe list items; empty ones are left out."""
        return [text for text in (self.inline(v) for v in values) if text]

    def cell(self, value: str) -> T:
        return self.cell_text(value) or self.plain(self.labels.s["empty_cell"])

    # -- time ------------------------------------------------------------------------
    def time(self, moment: datetime, seconds: bool = True) -> str:
        local = local_time(moment, self.zone)
        if not seconds and local.second == 0 and local.microsecond == 0:
            return local.strftime("%Y-%m-%d %H:%M")
        return local.strftime("%Y-%m-%d %H:%M:%S")

    # -- structure -------------------------------------------------------------------
    def groups(self, repo: RepositoryEntry) -> list[tuple[str, list[CommitEntry]]]:
        """(importance, commits) for each non-empty importance group, high first; the
        low-importance automated commits are :meth:`automation`'s."""
        out = []
        collapsed = {c.sha for c in self.automation(repo)}
        for importance in IMPORTANCE_ORDER:
            commits = [
                c
                for c in repo.commits
                if c.analysis.importance == importance and c.sha not in collapsed
            ]
            if commits:
                out.append((importance.value, commits))
        return out

    def compact(self, importance: str, commits: list[CommitEntry]) -> list[CommitEntry]:
        """The commits of a group shown as one table row each: low importance, and nothing
        to explain — no radar item, no fallback, no file the analyser did not see (those
        keep a section)."""
        if importance != Importance.LOW.value:
            return []
        return [
            c
            for c in commits
            if not c.api_changes
            and c.analysis.status is not AnalysisStatus.FALLBACK
            and not c.analysis.omitted_files
        ]

    def short_summary(self, commit: CommitEntry) -> str:
        """A low commit's summary for its table row: the commit's title left out when the
        summary starts with it, cut to one short line by shortening the message's quotation
        (the tool's own sentences stay whole, a quotation stays closed)."""
        text = clean_line(commit.analysis.summary)
        title = clean_line(commit.title).rstrip(".")
        head = re.sub(r"\s*\(#\d+\)$", "", title)
        for prefix in (title, head):
            if prefix and text.startswith(prefix):
                text = text[len(prefix) :].lstrip(". ")
                break
        return _short_line(text, SHORT_SUMMARY)

    def automation(self, repo: RepositoryEntry) -> list[CommitEntry]:
        """The bot commits and pure dependency bumps of low importance: one compact table
        (one with a reason to look keeps its section in its group)."""
        return [c for c in repo.commits if c.automated and c.analysis.importance is Importance.LOW]

    def bump(self, commit: CommitEntry) -> str:
        """``1.2 → 1.3`` / ``v0.2.34`` of an update, as its analysis found it (a new major
        flagged); ``""`` when it found none."""
        found = commit.analysis.bump
        if found is None:
            return ""
        text = f"{found.old} → {found.new}" if found.old else found.new
        return f"{text} ⚠️ {self.labels.s['major']}" if found.major else text

    def headline(self, repo: RepositoryEntry) -> Headline[CommitEntry]:
        """The radar's items a reader sees first: those a downstream uses, the public
        breaking ones, and one line per commit for internal ones (``render.headline``)."""
        return headline(repo.commits, lambda c: c.api_changes)

    def act_on(self, ctx: ReportContext) -> ActOn:
        """The report's Act-on block (``render.act_on``), across its repositories."""
        return act_on([(repo.name, repo.commits) for repo in ctx.repositories])

    def act_names(self, line: ActLine) -> tuple[list[tuple[str, bool]], int]:
        """The item names a breaking line shows, and how many more."""
        return item_names(line)

    def stats(self, repo: RepositoryEntry, is_day: bool) -> str:
        s = self.labels.s
        total = s["stats_total_day" if is_day else "stats_total_window"].format(n=len(repo.commits))
        parts = [total]
        for importance in IMPORTANCE_ORDER:
            count = sum(1 for c in repo.commits if c.analysis.importance == importance)
            parts.append(self.labels.stats_item(importance, count))
        return " | ".join(parts)

    def pr_url(self, commit: CommitEntry) -> str | None:
        """``…/pull/N`` for a GitHub commit URL and a PR number; else None."""
        url = safe_url(commit.url)
        if url is None or commit.pr_number is None or commit.pr_number < 1:
            return None
        match = _GITHUB_COMMIT.fullmatch(url)
        if match is None:
            return None
        return f"https://github.com/{match.group(1)}/{match.group(2)}/pull/{commit.pr_number}"

    def analyser(self, analysis: Analysis) -> T:
        """Who analysed the commit (and, for a fallback, why the LLM did not)."""
        s = self.labels.s
        if analysis.status == AnalysisStatus.FALLBACK:
            return self._fallback("fallback", analysis.notes)
        name = clean_line(analysis.analyser)
        if name == "rules":
            line = self.plain(s["by_rules"])
        elif name == "llm":
            line = self.plain(s["by_llm"])
        else:
            line = self.fill(s["by_other"], name=self.fill_value(name))
        version = clean_line(analysis.analyser_version)
        if version and name != "rules":  # the rules' version number means nothing to a reader
            # Markdown + Markdown, Markup + Markup: the format's text type again
            line = cast(T, line + self.fill(s["version"], version=self.fill_value(version)))
        return line

    def grounding(self, analysis: Analysis) -> str:
        """ "⚠️ N unverified mentions removed" when grounding removed some; else ""."""
        record = analysis.grounding
        if record is None or not record.unsupported:
            return ""
        return self.labels.s["grounding_removed"].format(n=len(record.unsupported))

    def line_items(self, values: Iterable[str], sentence: bool = True) -> list[T]:
        """Items shown joined on one line: each without its own closing punctuation, which
        would double the separator. As one ``sentence`` (the default; not a list of names
        such as the impact's components) the line ends with the language's full stop, and
        in English an item after the first starts in lower case when it opens with a plain
        capitalised word (``…after upgrading; to use the new …``)."""
        texts = [t for t in map(without_stop, values) if t.strip()]
        if sentence and self.labels.lang == "en":
            texts = [lower_first(t) if i else t for i, t in enumerate(texts)]
        if sentence and texts:  # a Chinese stop only after Chinese, never after English
            chinese = has_cjk(texts[-1])
            if chinese == (self.labels.lang != "en"):
                texts[-1] += "。" if chinese else "."
        return self.items(texts)

    def notes(self, analysis: Analysis) -> list[T]:
        """The analyser's reasons; for a fallback the first note is the failure reason,
        shown on the analyser line instead."""
        notes = analysis.notes[1:] if analysis.status == AnalysisStatus.FALLBACK else analysis.notes
        return self.line_items(notes)

    def _fallback(self, key: str, notes: list[str]) -> T:
        """The fallback label ``key`` with the failure reason (the first note)."""
        s = self.labels.s
        reason = self.inline(notes[0]) if notes else self.plain("")
        return self.fill(s[key], reason=reason or s["unknown_reason"])

    # -- the repository's overview and the report's cost ------------------------------
    def overview(
        self, overview: Overview | None, repo: RepositoryEntry | None = None
    ) -> list[tuple[str, list[T]]]:
        """(label, safe items) for each non-empty list of the overview; [] for none. A key
        change about one of ``repo``'s commits links to that commit's section."""
        if overview is None:
            return []
        s = self.labels.s
        anchors = {c.short_sha: c.anchor for c in repo.commits} if repo is not None else {}
        refs = overview.key_refs if len(overview.key_refs) == len(overview.key_changes) else []
        key_changes = []
        for i, value in enumerate(overview.key_changes):
            item = self.inline(value)
            anchor = anchors.get(refs[i]) if refs else None
            if item:
                key_changes.append(self.with_link(item, anchor) if anchor else item)
        lists = (
            (s["ov_themes"], self.items(overview.themes)),
            (s["ov_key_changes"], key_changes),
            (s["ov_risks"], self.items(overview.risks)),
        )
        return [(label, items) for label, items in lists if items]

    def overview_by(self, overview: Overview) -> T:
        """Who wrote the overview (and, for a fallback, why the LLM did not)."""
        s = self.labels.s
        if overview.status == AnalysisStatus.FALLBACK:
            return self._fallback("ov_fallback", overview.notes)
        name = clean_line(overview.analyser)
        if name in ("rules", "llm"):
            return self.plain(s[f"ov_by_{name}"])
        return self.fill(s["ov_by_other"], name=self.fill_value(name))

    def usage(self, usage: Usage) -> str:
        """Tokens, calls and (when known) the cost of the report's analyses."""
        s = self.labels.s
        calls = s["usage_call" if usage.calls == 1 else "usage_calls"].format(n=f"{usage.calls:,}")
        line = s["usage"].format(
            prompt=f"{usage.prompt_tokens:,}",
            completion=f"{usage.completion_tokens:,}",
            calls=calls,
        )
        if usage.cost is not None:
            line += s["usage_cost"].format(cost=format_cost(usage.cost))
        return line

    def insights(self, insights: Iterable[Insight]) -> list[tuple[T, T]]:
        rows = []
        for insight in insights:
            text = self.cell_text(insight.text)
            if not text:
                continue
            label = self.labels.dimension(insight.dimension)
            dimension = self.plain(label) if label else self.cell_text(insight.dimension)
            rows.append((dimension or self.plain(self.labels.s["empty_cell"]), text))
        return rows

    def risks(self, risks: Iterable[Risk]) -> list[tuple[T, T, T]]:
        rows = []
        for risk in risks:
            cells = (risk.risk, risk.effect, risk.mitigation)
            if any(clean_line(cell) for cell in cells):
                rows.append(
                    (self.cell(risk.risk), self.cell(risk.effect), self.cell(risk.mitigation))
                )
        return rows

    def coverage(self, coverage: Coverage, total: bool = False) -> str:
        s = self.labels.s
        line = s["coverage_total" if total else "coverage"].format(
            analysed=coverage.analysed, total=coverage.total
        )
        other = coverage.analysed - coverage.by_llm - coverage.by_rules
        parts = [
            s[key].format(n=n)
            for key, n in (
                ("cov_llm", coverage.by_llm),
                ("cov_rules", coverage.by_rules),
                ("cov_other", other),
            )
            if n > 0
        ]
        if not parts:
            return line
        tail = s["cov_fallback"].format(n=coverage.fallback) if coverage.fallback else ""
        return line + s["cov_open"] + s["cov_sep"].join(parts) + tail + s["cov_close"]


class MarkdownView(ReportView[str]):
    """The Markdown report's helpers: text is escaped or sanitised Markdown."""

    # -- what the format decides ----------------------------------------------------
    def inline(self, value: str) -> str:
        return sanitize_inline(value)

    def cell_text(self, value: str) -> str:
        return sanitize_inline(value, table=True)

    def plain(self, text: str) -> str:
        return text

    def fill(self, template: str, **values: str) -> str:
        return template.format(**values)

    def fill_value(self, value: str) -> str:
        return escape_text(value, "heading")

    def with_link(self, item: str, anchor: str) -> str:
        return f"{item} [↓](#{anchor})"

    # -- text ------------------------------------------------------------------------
    def text(self, value: str, context: Context = "table") -> str:
        return escape_text(value, context)

    def title(self, value: str, context: Context = "table") -> str:
        """A commit title (cut for the table of contents)."""
        if context == "link":
            value = shorten_title(value)
        return escape_text(value, context) or self.labels.s["untitled"]

    def block(self, value: str) -> str:
        return sanitize_block(value)

    def code(self, value: str) -> str:
        return code_span(value)

    def pr_labels(self, values: Iterable[str]) -> str:
        """A pull request's labels as code spans (at most :data:`LABELS_SHOWN`)."""
        shown = list(values)[:LABELS_SHOWN]
        return ", ".join(code_span(clean_line(v)) for v in shown if clean_line(v))

    def omitted(self, analysis: Analysis) -> str:
        """The files the analyser never saw, as code spans (the first :data:`OMITTED_SHOWN`,
        then how many more); ``""`` when there are none."""
        s = self.labels.s
        spans = [span for span in (code_span(p) for p in analysis.omitted_files) if span]
        if not spans:
            return ""
        line = s["list_sep"].join(spans[:OMITTED_SHOWN])
        if len(spans) > OMITTED_SHOWN:
            line += s["omitted_more"].format(n=f"{len(spans) - OMITTED_SHOWN:,}")
        return line


class HtmlView(ReportView[Markup]):
    """Helpers the HTML template calls. Plain strings are escaped by the template;
    :class:`Markup` results are HTML this class made safe. What it shares with the
    Markdown report (times, groups, counts, the analyser and overview lines, insights
    and risks) is :class:`ReportView`'s."""

    # -- what the format decides: analyser text (restricted Markdown) -> HTML -------------
    def inline(self, value: str) -> Markup:
        from commitdigest.render.htmltext import render_inline

        return render_inline(value)

    def cell_text(self, value: str) -> Markup:
        return self.inline(value)

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
        from commitdigest.render.htmltext import render_block, render_inline

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
