"""The short digest a chat message carries, and cutting it to a service's size limit.

A :class:`Digest` is the day in a few lines: a title, the counts, each repository's
overview and its high-importance commits (with links), and a link to the full report.
:func:`digest_lines` writes it in one service's markup (:class:`Markup`), and :func:`fit`
keeps as many whole lines as the service's limit allows (measured the way that service
measures: UTF-8 bytes, characters or UTF-16 code units), ending with "…and N more" /
"……另有 N 条" instead of cutting text in the middle.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Generic, TypeVar

from commitdigest.errors import DigestTooLarge as DigestTooLarge
from commitdigest.i18n import DIGEST_STRINGS, IMPORTANCE_EMOJI, pick
from commitdigest.models import (
    Analysis,
    ChangeType,
    CommitEntry,
    Coverage,
    Importance,
    Overview,
    ReportContext,
    RepositoryEntry,
    WeeklyContext,
    WindowInfo,
)
from commitdigest.render.act_on import act_on
from commitdigest.render.folder import Report
from commitdigest.render.labels import Labels, get_labels
from commitdigest.render.plaintext import ReportPart, report_parts
from commitdigest.render.view import report_zone
from commitdigest.text import clean_line, safe_url, shorten_title

T = TypeVar("T")
ITEM_CHARS = 200  # an overview or radar item longer than this is shortened ("..."), not a title


def strings(lang: str) -> Mapping[str, str]:
    """The digest's words in ``lang`` (English for a language without a table)."""
    return pick(DIGEST_STRINGS, lang)


@dataclass(frozen=True)
class DigestCommit:
    title: str
    short_sha: str
    url: str | None


@dataclass(frozen=True)
class DigestRepo:
    name: str
    counts: dict[Importance, int]
    # (label, items) of the overview's non-empty lists; a key change carries the commit it
    # is about when the overview cites one
    overview: list[tuple[str, list[tuple[str, DigestCommit | None]]]]
    high: list[DigestCommit]  # the high-importance commits the overview does not cite
    # what needs action, first: (label, items) of the Act-on lines (render.act_on); each
    # item is a plain line and the commit it comes from
    radar: list[tuple[str, list[tuple[str, DigestCommit]]]] = field(default_factory=list)


@dataclass(frozen=True)
class Digest:
    lang: str
    day: str
    title: str  # plain text
    counts: dict[Importance, int]
    total: int
    repos: list[DigestRepo]
    report_url: str | None
    test: bool = False  # a sample message (`deliver --test`)

    @property
    def has_high(self) -> bool:
        return self.counts.get(Importance.HIGH, 0) > 0

    def counts_line(self) -> str:
        if self.total == 0:
            return strings(self.lang)["none"]
        return strings(self.lang)["counts"].format(n=self.total, **_count_cells(self.counts))


def _count_cells(counts: dict[Importance, int]) -> dict[str, str]:
    return {imp.value: f"{IMPORTANCE_EMOJI[imp]}{counts.get(imp, 0)}" for imp in Importance}


def report_day(context: Report) -> str:
    """The report's day, ``YYYY-MM-DD`` (its files are ``<day>.md`` …); a weekly
    digest's week, ``YYYY-Www``."""
    if isinstance(context, WeeklyContext):
        return context.week
    zone = report_zone(context.window)
    start = context.window.start
    return start.astimezone(zone).date().isoformat() if start.tzinfo else start.date().isoformat()


def report_link(base_url: str | None, day: str) -> str | None:
    """``https://example.org/reports/`` → ``…/reports/2026-01-13.html``; ``{date}`` filled in."""
    if not base_url:
        return None
    if "{date}" in base_url:
        return safe_url(base_url.replace("{date}", day))
    return safe_url(base_url.rstrip("/") + f"/{day}.html")


def repos_label(names: Sequence[str], lang: str, limit: int = 60) -> str:
    """The repositories' names joined, shortened to about ``limit`` characters."""
    if not names:
        return "commitdigest"
    joined = ", ".join(names)
    if len(joined) <= limit:
        return joined
    short = [name.rsplit("/", 1)[-1] for name in names]
    if len(", ".join(short)) <= limit:
        return ", ".join(short)
    shown: list[str] = []
    for name in short:
        if len(", ".join([*shown, name])) > limit - 12 and shown:
            break
        shown.append(name)
    rest = len(names) - len(shown)
    return ", ".join(shown) + (strings(lang)["repos_more"].format(n=rest) if rest else "")


def build_digest(
    context: Report, *, lang: str | None = None, report_url: str | None, test: bool = False
) -> Digest:
    """The digest of a day's report or of a week's digest, its labels in ``lang`` (the
    channel's; the report's by default). The analyses' own words — the overview's themes,
    key changes and risks, an Act-on line's reason — are in the report's language: a
    channel of another language gets its labels, the titles and the counts, never a
    sentence of the other language."""
    lang = lang or context.lang
    foreign = lang != context.lang
    labels = get_labels(lang)
    day = report_day(context)
    totals = dict.fromkeys(Importance, 0)
    repos: list[DigestRepo] = []
    for repo in report_parts(context):
        counts = dict.fromkeys(Importance, 0)
        for commit in repo.commits:
            counts[commit.analysis.importance] += 1
            totals[commit.analysis.importance] += 1
        commits = {c.short_sha: c for c in repo.commits}
        overview: list[tuple[str, list[tuple[str, DigestCommit | None]]]] = []
        cited: set[str] = set()
        if repo.overview is not None and not foreign:
            ov = repo.overview
            refs = ov.key_refs if len(ov.key_refs) == len(ov.key_changes) else []
            for key, values, keyed in (
                ("ov_themes", ov.themes, []),
                ("ov_key_changes", ov.key_changes, refs),
                ("ov_risks", ov.risks, []),
            ):
                items: list[tuple[str, DigestCommit | None]] = []
                for i, value in enumerate(values):
                    text = shorten_title(value, ITEM_CHARS, ITEM_CHARS - 3)
                    ref = commits.get(keyed[i]) if i < len(keyed) else None
                    if not text:
                        continue
                    if ref is not None:
                        cited.add(ref.short_sha)
                    items.append((text, _digest_commit(ref, labels) if ref else None))
                if items:
                    overview.append((labels.s[key], items))
        # the room goes to what neither the Act-on lines nor the overview have said
        act = _act_on(repo, labels, reasons=not foreign)
        cited |= {commit.short_sha for _, items in act for _, commit in items}
        high = [
            _digest_commit(c, labels)
            for c in repo.commits
            if c.analysis.importance == Importance.HIGH and c.short_sha not in cited
        ]
        repos.append(DigestRepo(clean_line(repo.name), counts, overview, high, act))
    s = strings(lang)
    template = s["title_weekly"] if isinstance(context, WeeklyContext) else s["title"]
    title = template.format(repos=repos_label([r.name for r in repos], lang), day=day)
    return Digest(
        lang=lang,
        day=day,
        title=(s["test"] if test else "") + title,
        counts=totals,
        total=sum(totals.values()),
        repos=repos,
        report_url=report_url,
        test=test,
    )


def _digest_commit(commit: CommitEntry, labels: Labels) -> DigestCommit:
    # a title is shown whole, as written: one too long for the message is left out with
    # the others that do not fit ("…and N more"), never cut
    title = clean_line(commit.title) or labels.s["untitled"]
    return DigestCommit(title=title, short_sha=commit.short_sha, url=safe_url(commit.url))


def _act_on(
    repo: ReportPart, labels: Labels, *, reasons: bool = True
) -> list[tuple[str, list[tuple[str, DigestCommit]]]]:
    """The repository's Act-on lines for a digest (``render.act_on``: what affects your
    code, public breaking changes one line per commit, security fixes, high-importance
    commits with a reason), first in every message; ``[]`` when nothing needs action."""
    found = act_on([("", repo.commits)])
    items = [
        (  # the title in it is never cut (act_text shortens only item names and reasons)
            labels.act_text(line if reasons else replace(line, reason="")),
            DigestCommit(title="", short_sha=line.commit.short_sha, url=safe_url(line.commit.url)),
        )
        for line in found.lines
    ]
    if not items:
        return []
    label = labels.s["act_on"]
    if found.more:
        label += f" ({labels.s['act_more'].format(n=found.more)})"
    return [(label, items)]


def subject(digest: Digest, prefix: str) -> str:
    """``[commitdigest] vllm-project/vllm 2026-01-13 · 🔴4 🟡24 🟢17``."""
    cells = _count_cells(digest.counts)
    names = repos_label([r.name for r in digest.repos], digest.lang)
    test = strings(digest.lang)["test"] if digest.test else ""
    head = f"{prefix} " if prefix else ""
    return f"{head}{test}{names} {digest.day} · {cells['high']} {cells['medium']} {cells['low']}"


# ---- markup ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Markup:
    """How one service writes text: escaping, bold, links and list items."""

    escape: Callable[[str], str]
    bold: Callable[[str], str]  # of already escaped text
    link: Callable[[str, str], str]  # (escaped text, safe url)
    bullet: str = "• "


@dataclass(frozen=True)
class Line:
    text: str
    counted: bool  # an item ("…and N more" counts these); else a heading that sticks to them


@dataclass(frozen=True)
class DigestLines:
    head: list[str]
    items: list[Line]
    tail: list[str]


def digest_lines(digest: Digest, markup: Markup, *, with_title: bool) -> DigestLines:
    """The digest as lines of ``markup``: head (title, counts), items, tail (the link)."""
    labels = get_labels(digest.lang)
    esc = markup.escape
    head = [markup.bold(esc(digest.title))] if with_title else []
    head.append(esc(digest.counts_line()))
    several = len(digest.repos) > 1
    items: list[Line] = []
    for repo in digest.repos:
        if several:
            cells = _count_cells(repo.counts)
            counts = f"{cells['high']} {cells['medium']} {cells['low']}"
            items.append(Line(f"{markup.bold(esc(repo.name))} · {esc(counts)}", False))
        for label, radar_items in repo.radar:  # what forces action comes first
            items.append(Line(markup.bold(esc(label)), False))
            items += [Line(_item(markup, text, commit), True) for text, commit in radar_items]
        for label, values in repo.overview:
            items.append(Line(markup.bold(esc(label)), False))
            items += [Line(_item(markup, text, commit), True) for text, commit in values]
        if repo.high:
            items.append(
                Line(markup.bold(esc(labels.group(Importance.HIGH, len(repo.high)))), False)
            )
            items += [Line(_item(markup, c.title, c), True) for c in repo.high]
    tail: list[str] = []
    if digest.report_url:
        s = strings(digest.lang)
        tail.append(esc(s["report"]) + markup.link(esc(s["report_link"]), digest.report_url))
    return DigestLines(head, items, tail)


def _item(markup: Markup, text: str, commit: DigestCommit | None) -> str:
    """``• text (abc1234)``, the short SHA linking to the commit; the parentheses are text
    too (MarkdownV2 refuses a bare one)."""
    line = markup.bullet + markup.escape(text)
    if commit is None:
        return line
    sha = markup.escape(commit.short_sha)
    ref = markup.link(sha, commit.url) if commit.url else sha
    return f"{line} {markup.escape('(')}{ref}{markup.escape(')')}"


PLAIN = Markup(escape=lambda text: text, bold=lambda text: text, link=lambda t, u: f"{t} <{u}>")


def plain_text(digest: Digest) -> str:
    """The whole digest as plain text (what the store's digest hash is made of)."""
    lines = digest_lines(digest, PLAIN, with_title=True)
    return "\n".join([*lines.head, *(line.text for line in lines.items), *lines.tail])


def more_line(lang: str, omitted: int, markup: Markup) -> str:
    return markup.escape(strings(lang)["more"].format(n=omitted))


# ---- fitting --------------------------------------------------------------------------


@dataclass(frozen=True)
class Fitted(Generic[T]):
    payload: T
    shown: int  # items kept
    omitted: int  # items left out (the number in "…and N more")
    lines: list[str] = field(default_factory=list)


def fit(
    lines: DigestLines,
    *,
    build: Callable[[list[str]], T],
    fits: Callable[[T], bool],
    more: Callable[[int], str],
    max_items: int | None = None,
) -> Fitted[T]:
    """The payload with the most whole item lines for which ``fits(payload)`` holds.

    Item lines are kept in order; when some are left out, a ``more(n)`` line says how
    many, and a heading is never left last without its items. ``build`` gets the lines
    to send (head, kept items, the "more" line, tail) and makes the payload; ``fits``
    measures it as the service does.
    """
    items = lines.items
    counted = [i for i, line in enumerate(items) if line.counted]
    total = len(counted)

    def attempt(keep: int) -> tuple[T, list[str]]:
        end = counted[keep - 1] + 1 if keep else 0
        if keep == total:
            end = len(items)
        kept = [line.text for line in items[:end]]
        omitted = total - keep
        body = [*lines.head, *kept, *([more(omitted)] if omitted else []), *lines.tail]
        return build(body), body

    cap = total if max_items is None else min(total, max_items)
    payload, body = attempt(cap)
    if fits(payload):
        return Fitted(payload, cap, total - cap, body)
    # the payload grows with every kept line: binary search for the most that fit
    best: tuple[int, T, list[str]] | None = None
    low, high = 0, cap - 1
    while low <= high:
        mid = (low + high) // 2
        payload, body = attempt(mid)
        if fits(payload):
            best, low = (mid, payload, body), mid + 1
        else:
            high = mid - 1
    if best is None:
        raise DigestTooLarge("the digest's title, counts and link alone exceed the limit")
    keep, payload, body = best
    return Fitted(payload, keep, total - keep, body)


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


# ---- the sample day of `commitdigest deliver --test` ----------------------------------

# Markup and mention syntax of every format in one title: a test message shows at a glance
# that the channel escapes it once, in its own syntax, and that "@here" pings nobody.
SAMPLE_HOSTILE_EN = "Fix foo_bar <T> in *scheduler* & @here"
SAMPLE_HOSTILE_ZH = "修复 *scheduler* 中的 foo_bar <T> & @here"

_SAMPLE = (  # sha, importance, change type, zh title, en title
    ("5f1e2d3c4b5a69788796a5b4c3d2e1f001122334", "high", "bugfix",
     "[Bugfix] 修复长上下文下 KV cache 越界访问", "[Bugfix] Fix out-of-bounds KV cache access"),
    ("6a7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f7", "high", "bugfix",  # a hostile title: every
     SAMPLE_HOSTILE_ZH, SAMPLE_HOSTILE_EN),                         # format shows it literally
    ("7b8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f708", "medium", "performance",
     "[Perf] 优化调度器的批处理", "[Perf] Faster scheduler batching"),
    ("8c9d0e1f2a3b4c5d6e7f8091a2b3c4d5e6f70819", "low", "documentation",
     "[Doc] 更新安装文档", "[Doc] Update the installation guide"),
)  # fmt: skip


def sample_context(lang: str) -> ReportContext:
    """A small made-up day (one repository, four commits) for test messages."""
    get_labels(lang)
    zh = lang == "zh"
    s = strings(lang)
    start = datetime(2026, 1, 13, tzinfo=UTC)
    commits = [
        CommitEntry(
            sha=sha,
            short_sha=sha[:7],
            anchor=sha[:7],
            title=title_zh if zh else title_en,
            body="",
            author="commitdigest",
            author_email="",
            committed_at=start + timedelta(hours=9 - i),
            url=f"https://github.com/example/project/commit/{sha}",
            pr_number=None,
            files=[],
            analysis=Analysis(
                change_type=ChangeType(change),
                importance=Importance(importance),
                summary=s["sample_summary"].format(title=title_zh if zh else title_en),
                analyser="rules",
            ),
        )
        for i, (sha, importance, change, title_zh, title_en) in enumerate(_SAMPLE)
    ]
    overview = Overview(
        themes=[s["sample_theme"]],
        key_changes=[commits[0].title],  # cited: its link shows here, not in the high list
        key_refs=[commits[0].short_sha],
        risks=[s["sample_risk"]],
        analyser="rules",
    )
    coverage = Coverage(total=len(commits), analysed=len(commits), by_rules=len(commits))
    return ReportContext(
        generated_at=start + timedelta(days=1),
        lang=lang,
        window=WindowInfo(start=start, end=start + timedelta(days=1), tz="UTC", label="2026-01-13"),
        repositories=[
            RepositoryEntry(
                name="example/project",
                url="https://github.com/example/project",
                anchor="example-project",
                commits=commits,
                coverage=coverage,
                overview=overview,
            )
        ],
        coverage=coverage,
    )
