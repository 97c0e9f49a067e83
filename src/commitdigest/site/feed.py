"""The archive's Atom feed (RFC 4287): one entry per day with commits, newest first.

Only days with commits have an entry, titled with the repositories, the date and the counts.
Entry ids are ``urn:uuid:`` UUIDs derived (uuid5) from the entry's address (the base URL
plus ``YYYY-MM-DD.html``), so they never change from build to build and two sites never
share one. ``updated`` is when the day's report was first published (the site's manifest
keeps it), so a day reported again is not new to readers. Without a base URL the links are
relative: still well-formed XML, but feed readers need absolute links (a comment in the
feed says so).
"""

from __future__ import annotations

import re
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from urllib.parse import urlsplit

from commitdigest.errors import UsageError
from commitdigest.i18n import WEEKLY_STRINGS, pick
from commitdigest.models import IMPORTANCE_ORDER
from commitdigest.render.labels import get_labels
from commitdigest.site.strings import SiteStrings
from commitdigest.site.summary import DaySummary, WeekSummary

ATOM_NS = "http://www.w3.org/2005/Atom"
FEED_LIMIT = 100  # the newest days in the feed; readers keep what they have already seen
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
_XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
# (an XML comment may not hold "--")
NO_BASE_URL_NOTE = " Links are relative: feed readers need a site built with a base URL. "


def normalize_base_url(base_url: str | None) -> str | None:
    """``https://host/path/`` (with its final slash), or None; :class:`UsageError` for
    anything that is not an absolute http(s) URL."""
    if base_url is None or not base_url.strip():
        return None
    url = base_url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UsageError(f"--base-url must be an absolute http(s) URL, got {base_url!r}")
    return url if url.endswith("/") else url + "/"


def page_link(base_url: str | None, page: str) -> str:
    """The link to ``page`` (a path inside the site): absolute with a base URL."""
    return f"{base_url}{page}" if base_url else page


def entry_id(base_url: str | None, day: str) -> str:
    """The day's entry id: stable for a given base URL."""
    name = page_link(base_url, f"{day}.html") if base_url else f"commitdigest:day:{day}"
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}"


def render_feed(
    days: Sequence[DaySummary],
    *,
    title: str,
    base_url: str | None,
    lang: str,
    limit: int = FEED_LIMIT,
    published: Mapping[str, datetime] | None = None,
    weeks: Sequence[WeekSummary] = (),
) -> str:
    """``feed.xml`` for the ``days`` with commits (newest first; the first ``limit``).

    An entry is titled with its repositories, date and counts; its ``updated`` is when the
    day's report was first published (``published``, kept by the site's manifest), so a
    re-run of a day does not make readers see it again."""
    shown = [day for day in days if day.counts.total][:limit]
    weekly = [week for week in weeks if week.counts.total][:limit]
    first = published or {}
    feed = ET.Element("feed", {"xmlns": ATOM_NS, _XML_LANG: "zh-CN" if lang == "zh" else lang})
    if base_url is None:
        feed.append(ET.Comment(NO_BASE_URL_NOTE))
    feed_name = page_link(base_url, "feed.xml") if base_url else "commitdigest:feed"
    _text(feed, "id", f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, feed_name)}")
    _text(feed, "title", title)

    def when(day: DaySummary) -> datetime:
        return first.get(day.day, day.generated_at)

    def when_week(week: WeekSummary) -> datetime:
        return first.get(week.week, week.generated_at)

    updated = max([*(when(day) for day in shown), *(when_week(w) for w in weekly)], default=_EPOCH)
    _text(feed, "updated", _timestamp(updated))
    author = ET.SubElement(feed, "author")
    _text(author, "name", "commitdigest")
    _text(feed, "generator", "commitdigest")
    _link(feed, "alternate", page_link(base_url, "index.html"), "text/html")
    if base_url is not None:
        _link(feed, "self", page_link(base_url, "feed.xml"), "application/atom+xml")
    entries = [  # the weekly digests first: one page for the whole week
        *((w.week, week_title(w), when_week(w), week_summary_text(w)) for w in weekly),
        *((d.day, entry_title(d), when(d), summary_text(d)) for d in shown),
    ]
    for name, entry_title_text, moment, summary in entries:
        entry = ET.SubElement(feed, "entry")
        _text(entry, "id", entry_id(base_url, name))
        _text(entry, "title", entry_title_text)
        _text(entry, "updated", _timestamp(moment))
        _link(entry, "alternate", page_link(base_url, f"{name}.html"), "text/html")
        _text(entry, "summary", summary).set("type", "text")
    ET.indent(feed, "  ")
    body = ET.tostring(feed, encoding="unicode")
    return f'<?xml version="1.0" encoding="utf-8"?>\n{body}\n'


BREAKING_LINES = 10  # radar items in a feed entry, at most


def entry_title(day: DaySummary) -> str:
    """``vllm-project/vllm · 2026-01-13: 45 commits, 3 high, 1 breaking``."""
    t = SiteStrings(day.lang)
    names = [r.name for r in day.repos]
    repos = ", ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
    commits = t.count("n_commits", day.counts.total)
    values = {"repos": repos, "day": day.day, "commits": commits, "high": day.counts.high}
    if day.breaking:
        return t["feed_title"].format(breaking=day.breaking_count, **values)
    return t["feed_title_quiet"].format(**values)


def week_title(week: WeekSummary) -> str:
    """``vllm-project/vllm · 2026-W09: 310 commits, 21 high``."""
    names = week.repos
    repos = ", ".join(names[:2]) + (f" +{len(names) - 2}" if len(names) > 2 else "")
    strings = pick(WEEKLY_STRINGS, week.lang)
    return strings["feed_title"].format(
        repos=repos, week=week.week, n=week.counts.total, h=week.counts.high
    )


def week_summary_text(week: WeekSummary) -> str:
    t, labels = SiteStrings(week.lang), get_labels(week.lang)
    counts = [t.count("n_commits", week.counts.total)]
    counts += [f"{labels.importance(imp)} {week.counts.of(imp)}" for imp in IMPORTANCE_ORDER]
    return (
        t["weekly_item"].format(week=week.week, start=week.start, end=week.end)
        + "\n"
        + (t["sep"].join(counts))
    )


def summary_text(day: DaySummary) -> str:
    """The counts per importance, the radar's breaking items, then the top changes, one per
    line."""
    t, labels = SiteStrings(day.lang), get_labels(day.lang)
    if not day.counts.total:
        return t["no_commits"]
    counts = [t.count("n_commits", day.counts.total)]
    counts += [f"{labels.importance(imp)} {day.counts.of(imp)}" for imp in IMPORTANCE_ORDER]
    lines = [t["sep"].join(counts)]
    if day.breaking:  # what forces action first
        lines.append(labels.s["breaking"])
        lines += [f"- {line}" for line in day.breaking[:BREAKING_LINES]]
        if len(day.breaking) > BREAKING_LINES:
            lines.append(t.count("more", len(day.breaking) - BREAKING_LINES))
    lines += [t["feed_item"].format(title=c.title, repo=c.repo) for c in day.top]
    if day.more:
        lines.append(t.count("more", day.more))
    return "\n".join(lines)


def _text(parent: ET.Element, tag: str, text: str) -> ET.Element:
    element = ET.SubElement(parent, tag)
    element.text = _NOT_XML.sub("\ufffd", text)
    return element


def _link(parent: ET.Element, rel: str, href: str, kind: str) -> None:
    ET.SubElement(parent, "link", {"rel": rel, "type": kind, "href": _NOT_XML.sub("", href)})


def _timestamp(moment: datetime) -> str:
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
