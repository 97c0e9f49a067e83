"""Render a :class:`ReportContext` as Markdown with the one Jinja2 template.

The template (``templates/report.md.j2``) writes every heading and label; this module
gives it the labels of the report's language (``L``, ``s``) and a helper object ``v``
whose methods format times, group commits and make commit and analyser text safe (with
:mod:`commitdigest.render.mdtext`). Output depends on the context only: the same
context gives byte-identical Markdown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime, time, timedelta, tzinfo
from functools import cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import jinja2

from commitdigest.models import (
    IMPORTANCE_ORDER,
    Analysis,
    AnalysisStatus,
    CommitEntry,
    Coverage,
    Insight,
    Overview,
    ReportContext,
    RepositoryEntry,
    Risk,
    Usage,
    WindowInfo,
)
from commitdigest.render.context import repository_anchor_family
from commitdigest.render.labels import Labels, get_labels
from commitdigest.render.mdtext import (
    Context,
    clean_line,
    code_span,
    escape_text,
    is_anchor,
    safe_url,
    sanitize_block,
    sanitize_inline,
    shorten_title,
)

OMITTED_SHOWN = 20  # omitted files named in a section; the rest are counted
_GITHUB_COMMIT = re.compile(r"https://github\.com/([^/?#]+)/([^/?#]+)/commit/[0-9a-fA-F]+/?")


@cache
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.PackageLoader("commitdigest.render", "templates"),
        autoescape=False,  # Markdown, not HTML: every value is escaped by a filter
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render_markdown(context: ReportContext) -> str:
    """The Markdown report for ``context``."""
    labels = get_labels(context.lang)
    check_anchors(context)
    zone = report_zone(context.window)
    template = _environment().get_template("report.md.j2")
    view = _View(labels, zone)
    text = template.render(
        ctx=context,
        L=labels,
        s=labels.s,
        v=view,
        is_day=is_calendar_day(context.window, zone),
    )
    return text.rstrip("\n") + "\n"


def check_anchors(context: ReportContext) -> None:
    """``ValueError`` unless every anchor is a safe id and unique in the report."""
    anchors: list[str] = []
    for repo in context.repositories:
        anchors += repository_anchor_family(repo.anchor)
        anchors += [commit.anchor for commit in repo.commits]
    bad = [a for a in anchors if not is_anchor(a)]
    if bad:
        raise ValueError(f"invalid anchor {bad[0]!r}: use lowercase letters, digits, '-'")
    seen: set[str] = set()
    for anchor in anchors:
        if anchor in seen:
            raise ValueError(f"anchor {anchor!r} is used twice in the report")
        seen.add(anchor)


def report_zone(window: WindowInfo) -> tzinfo:
    """The window's IANA zone; failing that, the start's own offset, else UTC."""
    try:
        return ZoneInfo(window.tz)
    except (ZoneInfoNotFoundError, ValueError):
        return window.start.tzinfo or UTC


def is_calendar_day(window: WindowInfo, zone: tzinfo) -> bool:
    """Whether the window is exactly one local calendar day (midnight to midnight)."""
    start, end = _local(window.start, zone), _local(window.end, zone)
    return (
        start.time() == time(0)
        and end.time() == time(0)
        and end.date() - start.date() == timedelta(days=1)
    )


def format_cost(cost: float) -> str:
    """2 decimals; 4 for a cost under 0.01 (but not for nothing at all)."""
    return f"{cost:.4f}" if 0 < abs(cost) < 0.01 else f"{cost:,.2f}"


def _local(moment: datetime, zone: tzinfo) -> datetime:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(zone)


class _View:
    """Helpers the template calls: formatting, grouping, sanitising, composed lines."""

    def __init__(self, labels: Labels, zone: tzinfo) -> None:
        self.labels = labels
        self.zone = zone

    # -- text ------------------------------------------------------------------------
    def text(self, value: str, context: Context = "table") -> str:
        return escape_text(value, context)

    def title(self, value: str, context: Context = "table") -> str:
        """A commit title (cut for the table of contents)."""
        if context == "link":
            value = shorten_title(value)
        return escape_text(value, context) or self.labels.s["untitled"]

    def inline(self, value: str) -> str:
        return sanitize_inline(value)

    def cell(self, value: str) -> str:
        return sanitize_inline(value, table=True) or self.labels.s["empty_cell"]

    def block(self, value: str) -> str:
        return sanitize_block(value)

    def items(self, values: Iterable[str]) -> list[str]:
        """Sanitised list items; empty ones are left out."""
        return [text for text in (sanitize_inline(v) for v in values) if text]

    def code(self, value: str) -> str:
        return code_span(value)

    def pr_labels(self, values: Iterable[str]) -> str:
        """A pull request's labels as code spans (at most 10)."""
        return ", ".join(code_span(clean_line(v)) for v in list(values)[:10] if clean_line(v))

    def url(self, value: str | None) -> str | None:
        return safe_url(value)

    # -- time ------------------------------------------------------------------------
    def time(self, moment: datetime, seconds: bool = True) -> str:
        local = _local(moment, self.zone)
        if not seconds and local.second == 0 and local.microsecond == 0:
            return local.strftime("%Y-%m-%d %H:%M")
        return local.strftime("%Y-%m-%d %H:%M:%S")

    # -- structure -------------------------------------------------------------------
    def groups(self, repo: RepositoryEntry) -> list[tuple[str, list[CommitEntry]]]:
        """(importance, commits) for each non-empty importance group, high first."""
        out = []
        for importance in IMPORTANCE_ORDER:
            commits = [c for c in repo.commits if c.analysis.importance == importance]
            if commits:
                out.append((importance.value, commits))
        return out

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

    def analyser(self, analysis: Analysis) -> str:
        """Who analysed the commit (and, for a fallback, why the LLM did not)."""
        s = self.labels.s
        if analysis.status == AnalysisStatus.FALLBACK:
            reason = sanitize_inline(analysis.notes[0]) if analysis.notes else ""
            return s["fallback"].format(reason=reason or s["unknown_reason"])
        name = clean_line(analysis.analyser)
        if name == "rules":
            line = s["by_rules"]
        elif name == "llm":
            line = s["by_llm"]
        else:
            line = s["by_other"].format(name=escape_text(name, "heading"))
        version = clean_line(analysis.analyser_version)
        if version and name != "rules":  # the rules' version number means nothing to a reader
            line += s["version"].format(version=escape_text(version, "heading"))
        return line

    def notes(self, analysis: Analysis) -> list[str]:
        """The analyser's reasons; for a fallback the first note is the failure reason,
        shown on the analyser line instead."""
        notes = analysis.notes[1:] if analysis.status == AnalysisStatus.FALLBACK else analysis.notes
        # joined on one line: a note's own closing punctuation would double the separator
        return self.items(note.rstrip("。．.；;，, ") for note in notes)

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

    # -- the repository's overview and the report's cost ------------------------------
    def overview(self, overview: Overview | None) -> list[tuple[str, list[str]]]:
        """(label, sanitised items) for each non-empty list of the overview; [] for none."""
        if overview is None:
            return []
        s = self.labels.s
        lists = (
            ("ov_themes", overview.themes),
            ("ov_key_changes", overview.key_changes),
            ("ov_risks", overview.risks),
        )
        return [(s[key], items) for key, values in lists if (items := self.items(values))]

    def overview_by(self, overview: Overview) -> str:
        """Who wrote the overview (and, for a fallback, why the LLM did not)."""
        s = self.labels.s
        if overview.status == AnalysisStatus.FALLBACK:
            reason = sanitize_inline(overview.notes[0]) if overview.notes else ""
            return s["ov_fallback"].format(reason=reason or s["unknown_reason"])
        name = clean_line(overview.analyser)
        if name in ("rules", "llm"):
            return s[f"ov_by_{name}"]
        return s["ov_by_other"].format(name=escape_text(name, "heading"))

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

    def insights(self, insights: Iterable[Insight]) -> list[tuple[str, str]]:
        rows = []
        for insight in insights:
            text = sanitize_inline(insight.text, table=True)
            if not text:
                continue
            label = self.labels.dimension(insight.dimension)
            dimension = label if label else sanitize_inline(insight.dimension, table=True)
            rows.append((dimension or self.labels.s["empty_cell"], text))
        return rows

    def risks(self, risks: Iterable[Risk]) -> list[tuple[str, str, str]]:
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
