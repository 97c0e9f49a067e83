"""The archive's HTML pages: the index (one card per day, newest first) and one page per
repository (its days), from the days' :class:`~commitdigest.site.summary.DaySummary`.

Pages are self-contained: one inline stylesheet allowed by a Content-Security-Policy
hash, no script, no request to anything. Every link is relative, so the folder works on
any static host and straight from disk. Jinja2 autoescapes all text.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from functools import cache
from importlib import resources
from typing import TypeVar

import jinja2
from markupsafe import Markup

from commitdigest.models import IMPORTANCE_ORDER, ChangeType
from commitdigest.render.chart import ChartDay, chart_html
from commitdigest.render.jinja_env import csp_hash, template_environment
from commitdigest.render.labels import get_labels
from commitdigest.site.strings import SiteStrings
from commitdigest.site.summary import Counts, DaySummary, RepoDay, WeekSummary, repo_slug

T = TypeVar("T")

REPOS_DIR = "repos"  # repository pages live in <site>/repos/<slug>.html
CHART_DAYS = 30  # the index's and each repository page's chart: the newest 30 days


@dataclass(frozen=True)
class DayEntry:
    """One day of the archive: its summary (None when the day has only a Markdown file)."""

    day: str
    summary: DaySummary | None
    has_md: bool


@dataclass
class RepoPage:
    name: str
    url: str | None
    days: list[tuple[str, RepoDay]] = field(default_factory=list)  # newest first

    @property
    def slug(self) -> str:
        return repo_slug(self.name)

    @property
    def path(self) -> str:
        """The page's path inside the site."""
        return f"{REPOS_DIR}/{self.slug}.html"

    @property
    def commits(self) -> int:
        return sum(repo_day.counts.total for _, repo_day in self.days)


@dataclass(frozen=True)
class QuietDays:
    """A run of consecutive days without commits, shown as one line."""

    first: str  # the oldest
    last: str  # the newest
    n: int


def collapse_quiet(
    items: Sequence[T], day_of: Callable[[T], str], quiet: Callable[[T], bool]
) -> list[T | QuietDays]:
    """``items`` (newest first) with each run of quiet ones (no commits) as one
    :class:`QuietDays`."""
    out: list[T | QuietDays] = []
    run: list[T] = []

    def flush() -> None:
        if run:
            out.append(QuietDays(first=day_of(run[-1]), last=day_of(run[0]), n=len(run)))
            run.clear()

    for item in items:
        if quiet(item):
            run.append(item)
        else:
            flush()
            out.append(item)
    flush()
    return out


def _quiet_entry(entry: DayEntry) -> bool:
    return entry.summary is not None and entry.summary.counts.total == 0


def repo_pages(days: Sequence[DayEntry]) -> list[RepoPage]:
    """One page per repository named in any day's report, sorted by name; each lists
    its days newest first (``days`` must be newest first)."""
    pages: dict[str, RepoPage] = {}
    for entry in days:
        if entry.summary is None:
            continue
        for repo_day in entry.summary.repos:
            page = pages.setdefault(repo_day.name, RepoPage(repo_day.name, repo_day.url))
            page.url = page.url or repo_day.url  # the newest day that knows it
            page.days.append((entry.day, repo_day))
    return sorted(pages.values(), key=lambda page: page.name.lower())


def period(days: Sequence[str]) -> list[str]:
    """The chart's days (oldest first): every calendar day from the oldest of ``days`` to
    the newest, the newest :data:`CHART_DAYS` at most."""
    if not days:
        return []
    newest, oldest = date.fromisoformat(max(days)), date.fromisoformat(min(days))
    first = max(oldest, newest - timedelta(days=CHART_DAYS - 1))
    return [(first + timedelta(days=i)).isoformat() for i in range((newest - first).days + 1)]


def period_chart(days: Mapping[str, tuple[Counts, int, str]], lang: str) -> Markup:
    """The newest days at a glance (:func:`period`): each day's commits by importance, a
    mark on the days with breaking changes, each bar linking to its report. ``days``: the
    days that have figures — ``{day: (counts, breaking items, link)}``; the others of the
    period show no bar."""
    bars = []
    for day in period(list(days)):
        if day not in days:
            bars.append(ChartDay(day=day, axis=day[5:], known=False))
            continue
        c, breaking, href = days[day]
        bars.append(
            ChartDay(
                day=day, axis=day[5:], href=href, high=c.high, medium=c.medium, low=c.low,
                breaking=breaking,
            )
        )  # fmt: skip
    return chart_html(bars, get_labels(lang), ident="period-chart") if bars else Markup("")


def index_chart(days: Sequence[DayEntry], lang: str) -> Markup:
    """The index's chart: every repository of each day, linking to the day's report."""
    return period_chart(
        {
            entry.day: (entry.summary.counts, entry.summary.breaking_count, f"{entry.day}.html")
            for entry in days
            if entry.summary is not None
        },
        lang,
    )


def repo_chart(page: RepoPage, lang: str) -> Markup:
    """A repository page's chart, each bar linking to its section of the day's report."""
    return period_chart(
        {day: (r.counts, r.breaking, f"../{r.page or day + '.html'}#{r.anchor}")
         for day, r in page.days},
        lang,
    )  # fmt: skip


def render_index(
    days: Sequence[DayEntry],
    repos: Sequence[RepoPage],
    *,
    title: str,
    lang: str,
    weeks: Sequence[WeekSummary] = (),
) -> str:
    """``index.html``: the repositories, the weekly digests, then every day newest first
    (a run of days without commits as one line)."""
    blocks = collapse_quiet(days, lambda d: d.day, _quiet_entry)
    return _render(
        "index.html.j2",
        lang,
        title=title,
        days=days,
        blocks=blocks,
        repos=repos,
        weeks=weeks,
        chart=index_chart(days, lang),
        root="",
    )


def render_repo_page(page: RepoPage, *, title: str, lang: str) -> str:
    """``repos/<slug>.html``: one repository's days, each linking into its report (a run of
    days without its commits as one line)."""
    blocks = collapse_quiet(page.days, lambda d: d[0], lambda d: d[1].counts.total == 0)
    return _render(
        "repo.html.j2",
        lang,
        title=title,
        page=page,
        blocks=blocks,
        chart=repo_chart(page, lang),
        root="../",
    )


def _template(name: str) -> jinja2.Template:
    return template_environment("commitdigest.site").get_template(name)


SEARCH_PAGE = "search.html"
SEARCH_SCRIPT = "search.js"


@cache
def stylesheet() -> tuple[Markup, str]:
    """The pages' inline CSS and the Content-Security-Policy that allows only it (and the
    search form's GET to this site's search page)."""
    css = _template("style.css.j2").render().strip() + "\n"
    if "</style" in css.lower():  # pragma: no cover - a template bug
        raise ValueError("the stylesheet would close its own element")
    policy = f"default-src 'none'; style-src {csp_hash(css)}; base-uri 'none'; form-action 'self'"
    return Markup(css), policy


def search_policy() -> str:
    """``search.html``'s policy: its own scripts, Pagefind's (and its WebAssembly and
    worker), fetches of the index from this site only."""
    css, _ = stylesheet()
    return (
        f"default-src 'none'; style-src {csp_hash(str(css))}; "
        "script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; worker-src 'self' blob:; "
        "img-src 'self' data:; base-uri 'none'; form-action 'self'"
    )


def render_search_page(*, lang: str) -> str:
    """``search.html``: search every commit of the archive (Pagefind over http(s), the
    records of ``search-data.js`` from ``file://``)."""
    kinds = [t.value for t in ChangeType]
    return _render("search.html.j2", lang, title="", root="", kinds=kinds, policy=search_policy())


def search_script() -> str:
    """``search.js``, as shipped (a static asset)."""
    folder = resources.files("commitdigest.site") / "templates"
    return (folder / "search.js").read_text(encoding="utf-8")


def _render(template: str, lang: str, *, policy: str | None = None, **values: object) -> str:
    """``template`` with the site's words and stylesheet; ``policy``: a page's own
    Content-Security-Policy (the search page's), else the stylesheet-only one."""
    css, csp = stylesheet()
    text = _template(template).render(
        t=SiteStrings(lang),
        L=get_labels(lang),
        html_lang="zh-CN" if lang == "zh" else lang,
        importances=[imp.value for imp in IMPORTANCE_ORDER],
        css=css,
        csp=policy or csp,
        **values,
    )
    return text.rstrip("\n") + "\n"
