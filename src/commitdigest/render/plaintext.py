"""A report as plain text: the e-mail's ``text/plain`` part, every commit title in full.

Nothing here is markup, so nothing is escaped or shortened: a title shows as written (on
one line, control characters removed: :func:`~commitdigest.text.clean_line`),
whatever it holds. A day's report and a week's digest are both read through
:func:`report_parts` — the repositories of the report, each with its commits newest first
and its overview — which the chat digest uses too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from commitdigest.i18n import WEEKLY_STRINGS, pick
from commitdigest.models import (
    IMPORTANCE_ORDER,
    CommitEntry,
    Importance,
    Overview,
    ReportContext,
    WeeklyContext,
)
from commitdigest.render.act_on import act_on
from commitdigest.render.headline import headline
from commitdigest.render.labels import Labels, get_labels
from commitdigest.render.view import report_zone
from commitdigest.text import clean_line, safe_url

__all__ = ["ReportPart", "render_plain_text", "report_parts"]


@dataclass(frozen=True)
class ReportPart:
    """One repository of a day's report or of a week's digest."""

    name: str
    url: str | None
    commits: Sequence[CommitEntry]  # newest first
    overview: Overview | None
    error: str | None = None  # it could not be read this time (a day's report only)


def report_parts(report: ReportContext | WeeklyContext) -> list[ReportPart]:
    """The repositories of ``report``, in its order."""
    if isinstance(report, WeeklyContext):
        return [
            ReportPart(r.name, r.url, [c.entry for c in reversed(r.commits)], r.overview)
            for r in report.repositories
        ]
    return [ReportPart(r.name, r.url, r.commits, r.overview, r.error) for r in report.repositories]


def render_plain_text(
    report: ReportContext | WeeklyContext, *, report_url: str | None = None
) -> str:
    """``report`` as plain text: the link to the full report, the heading, what needs
    action (``render.act_on``), then for each repository its counts, overview, radar items
    and every commit (title in full, short SHA, link; the summary of each high and medium
    one)."""
    labels = get_labels(report.lang)
    url = safe_url(report_url)
    lines = [url, ""] if url else []
    lines += _heading(report, labels)
    parts = report_parts(report)
    lines += ["", labels.s["act_on"]]
    act = act_on([(part.name, part.commits) for part in parts])
    lines += [f"- {labels.act_text(line)} ({line.commit.short_sha})" for line in act.lines]
    if act.more:
        lines.append(f"- {labels.s['act_more'].format(n=act.more)}")
    if not act:
        lines.append(labels.s["act_nothing"])
    for part in parts:
        lines += ["", f"== {clean_line(part.name)} ==", _counts(part.commits, labels)]
        if part.error:
            lines.append(labels.s["repo_failed"].format(reason=clean_line(part.error)))
        lines += _overview(part.overview, labels)
        lines += _radar(part.commits, labels)
        for importance in IMPORTANCE_ORDER:
            commits = [c for c in part.commits if c.analysis.importance is importance]
            if not commits:
                continue
            lines += ["", labels.group(importance, len(commits))]
            for commit in commits:
                lines += _commit(commit, labels, summary=importance is not Importance.LOW)
    return "\n".join(lines).rstrip("\n") + "\n"


def _heading(report: ReportContext | WeeklyContext, labels: Labels) -> list[str]:
    if isinstance(report, WeeklyContext):
        w = pick(WEEKLY_STRINGS, report.lang)
        return [
            labels.report_title(report.week),
            w["range"].format(start=report.start, end=report.end, tz=report.tz),
        ]
    zone = report_zone(report.window)
    start = report.window.start.astimezone(zone).strftime("%Y-%m-%d %H:%M")
    end = report.window.end.astimezone(zone).strftime("%Y-%m-%d %H:%M")
    return [
        labels.report_title(clean_line(report.window.label)),
        labels.s["window"].format(start=start, end=end, tz=report.window.tz),
    ]


def _counts(commits: Sequence[CommitEntry], labels: Labels) -> str:
    parts = [
        labels.stats_item(imp, sum(1 for c in commits if c.analysis.importance is imp))
        for imp in IMPORTANCE_ORDER
    ]
    return f"{len(commits)} · " + " | ".join(parts)


def _overview(overview: Overview | None, labels: Labels) -> list[str]:
    if overview is None:
        return []
    lines: list[str] = []
    for key, values in (
        ("ov_themes", overview.themes),
        ("ov_key_changes", overview.key_changes),
        ("ov_risks", overview.risks),
    ):
        items = [clean_line(v) for v in values if clean_line(v)]
        if items:
            lines += ["", labels.s[key], *(f"- {item}" for item in items)]
    return lines


def _radar(commits: Sequence[CommitEntry], labels: Labels) -> list[str]:
    """The radar's items as the HTML part shows them (``render.headline``): what your code
    uses, the public breaking ones, one line per commit for internal ones."""
    found = headline(commits, lambda c: c.api_changes)
    lines: list[str] = []
    for label, pairs in (
        (labels.s["affects_you"].format(n=len(found.affecting)), found.affecting),
        (labels.s["breaking"], found.breaking),
    ):
        if pairs:
            lines += ["", label]
            lines += [f"- {labels.radar_text(item)} ({c.short_sha})" for c, item in pairs]
    if found.internal:
        lines += ["", labels.s["internal_changes"]]
        lines += [f"- {labels.internal_line(g)} ({g.commit.short_sha})" for g in found.internal]
    return lines


def _commit(commit: CommitEntry, labels: Labels, *, summary: bool) -> list[str]:
    title = clean_line(commit.title) or labels.s["untitled"]
    lines = [f"- {title} ({commit.short_sha})"]
    url = safe_url(commit.url)
    if url:
        lines.append(f"  {url}")
    text = clean_line(commit.analysis.summary) if summary else ""
    if text:
        lines.append(f"  {text}")
    return lines
