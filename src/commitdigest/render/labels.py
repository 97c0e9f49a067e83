"""The report's labels in one language, read from the tables of :mod:`commitdigest.i18n`.

The template never spells a label itself; it reads them from :func:`get_labels`, so each
label (``🔴 高``, ``重构`` …) has exactly one spelling per language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from commitdigest.errors import UsageError
from commitdigest.i18n import (
    CHANGE_TYPES,
    DIMENSIONS,
    IMPORTANCE_EMOJI,
    IMPORTANCE_NAMES,
    LANGS,
    RADAR_CHANGES,
    RADAR_KINDS,
    REPORT_STRINGS,
    WEEKLY_STRINGS,
)
from commitdigest.models import ApiChange, ApiChangeType, ChangeType, Importance, RadarKind
from commitdigest.render.act_on import ActLine, item_names
from commitdigest.render.headline import InternalGroup
from commitdigest.text import clean_line, shorten_title
from commitdigest.window import WEEK_LABEL, is_day_label

SUPPORTED_LANGS: tuple[str, ...] = LANGS
NAME_CHARS = 100  # an item's name in an Act-on line of plain text (titles are never cut)


# the radar's words in an item's detail, as the Chinese report says them
_DETAIL_WORDS_ZH = (
    ("position", "参数位置"),
    ("keyword-only", "仅限关键字参数"),
    ("bases", "基类"),
    ("module", "模块"),
)


@dataclass(frozen=True)
class Labels:
    """The labels of one language; ``s`` holds the plain strings by key."""

    lang: str
    s: Mapping[str, str]
    change_types: Mapping[ChangeType, str]
    importance_names: Mapping[Importance, str]
    dimensions: Mapping[str, str]

    def report_title(self, label: str) -> str:
        """A report's title from its window's label: the daily title for a day
        (``每日更新报告（2026-03-02）``), the weekly digest's for a week (its e-mail), the
        update report's for a span of commits (``Update report (2024-03-01 – 2024-03-02)``,
        ``--last``)."""
        if WEEK_LABEL.fullmatch(label):
            return WEEKLY_STRINGS[self.lang]["title"].format(week=label)
        key = "report_title" if is_day_label(label) else "range_title"
        return self.s[key].format(label=label)

    def importance(self, importance: Importance | str) -> str:
        """``🔴 高`` / ``🔴 High``: the one spelling of an importance."""
        imp = Importance(importance)
        return f"{IMPORTANCE_EMOJI[imp]} {self.importance_names[imp]}"

    def change_type(self, change_type: ChangeType | str) -> str:
        return self.change_types[ChangeType(change_type)]

    def group(self, importance: Importance | str, count: int) -> str:
        imp = Importance(importance)
        return self.s["group"].format(
            emoji=IMPORTANCE_EMOJI[imp], name=self.importance_names[imp], n=count
        )

    def stats_item(self, importance: Importance | str, count: int) -> str:
        imp = Importance(importance)
        return self.s["stats_item"].format(
            emoji=IMPORTANCE_EMOJI[imp], name=self.importance_names[imp], n=count
        )

    def radar_kind(self, item: ApiChange) -> str:
        """``env var`` / ``环境变量``: what kind of thing a radar item is about."""
        return RADAR_KINDS[self.lang][item.kind.value]

    def radar_change(self, item: ApiChange) -> str:
        """``removed`` / ``已移除``; ``""`` for an announcement in the project's own words
        (its name says what changes)."""
        if item.kind is RadarKind.ANNOUNCED and item.change is ApiChangeType.SIGNATURE_CHANGED:
            return ""
        return RADAR_CHANGES[self.lang][item.change.value]

    def radar_detail(self, item: ApiChange) -> str:
        """An item's ``detail`` in the report's language: the radar writes its few words in
        English (``position 2 → 1``, ``keyword-only``, ``bases (A) → (B)``); the values are
        code and stay as they are."""
        detail = " ".join(item.detail.split())
        if self.lang != "zh":
            return detail
        for english, chinese in _DETAIL_WORDS_ZH:
            if detail == english or detail.startswith(english + " "):
                return chinese + detail[len(english) :]
        return detail

    def radar_text(self, item: ApiChange, uses: int = 3) -> str:
        """A radar item as one line of plain text (chat digests, the Atom feed):
        ``Env var VLLM_X — removed · used at run.sh:2``; renderers escape it."""
        text = f"{self.radar_kind(item)} {' '.join(item.name.split())}"
        if change := self.radar_change(item):
            text += f" — {change}"
        if item.detail:
            text += f" ({self.radar_detail(item)})"
        if item.affects:
            places = ", ".join(f"{p.path}:{p.line}" for p in item.affects[:uses])
            more = f" (+{len(item.affects) - uses})" if len(item.affects) > uses else ""
            text += f" · {self.s['used_at']} {places}{more}"
        return text

    def act_text(self, line: ActLine) -> str:
        """An Act-on line as one line of plain text (chat digests, e-mail, the feed), the
        commit's title included: ``💥 Breaking · Drop proxies: httpx.Client(proxies) …``;
        renderers escape it."""
        c = line.commit
        title = clean_line(c.title) or self.s["untitled"]  # as written, never cut
        head = f"{line.repo} · " if line.repo else ""
        if line.kind == "affects":
            used = self.radar_text(line.items[0])
            item = shorten_title(used, 2 * NAME_CHARS, 2 * NAME_CHARS - 3)
            return f"{head}{self.s['act_affects']} · {item} · {title}"
        if line.kind == "release":
            return f"{head}{self.release_label(line)} · {title}"
        if line.kind == "breaking":
            names, more = item_names(line)
            listed = ", ".join(shorten_title(n, NAME_CHARS, NAME_CHARS - 3) for n, _ in names)
            extra = f" {self.s['and_more'].format(n=more)}" if more else ""
            said = f": {listed}{extra}" if names else ""
            return f"{head}{self.s['act_breaking']} · {title}{said}"
        label = self.s["act_security"] if line.kind == "security" else self.s["act_high"]
        reason = f" — {line.reason}" if line.reason else ""
        return f"{head}{label} · {title}{reason}"

    def replacement(self, text: str) -> str:
        """What to write instead of a removed or deprecated item: a name as ``write
        instead: soft_str``; the project's own sentence (``Use 'proxy' or 'mounts'
        instead.``) quoted as its words, never glued to a label that says it again."""
        text = " ".join(text.split())
        if " " in text:
            return self.s["project_says"].format(text=text)
        return f"{self.s['write_instead']}{self.s['colon']}{text}"

    def internal_line(self, group: InternalGroup[Any]) -> str:
        """``13 internal names removed or changed in vllm_ascend.ops.gdn, …gdn_attn_builder``."""
        key = "internal_line_one" if len(group.items) == 1 else "internal_line"
        return self.s[key].format(n=len(group.items), modules=group.modules_text())

    def release_label(self, line: ActLine) -> str:
        """A release's Act-on label: what the project announced, and apart from it what the
        code shows that no entry announced (``Release 0.28.0: 18 breaking changes (2
        announced, 16 found in the code)``), and the deprecations it announces
        (``…; deprecations (11)``)."""
        n = len(line.items)
        if not n:  # a release that announces deprecations only
            return self.s["act_release_deprecations"].format(
                version=line.release, n=line.deprecated
            )
        announced = sum(i.kind is RadarKind.ANNOUNCED for i in line.items)
        if announced in (0, n):
            label = self.s["act_release"].format(version=line.release, n=n)
        else:
            label = self.s["act_release_mixed"].format(
                version=line.release, n=n, announced=announced, found=n - announced
            )
        if line.deprecated:
            label += self.s["act_release_also_deprecated"].format(n=line.deprecated)
        return label

    def dimension(self, dimension: str) -> str | None:
        """The label of a known insight dimension, else None (print the text itself)."""
        return self.dimensions.get(dimension.strip().lower())


def _build(lang: str) -> Labels:
    return Labels(
        lang=lang,
        s=MappingProxyType(REPORT_STRINGS[lang]),
        change_types=MappingProxyType(CHANGE_TYPES[lang]),
        importance_names=MappingProxyType(IMPORTANCE_NAMES[lang]),
        dimensions=MappingProxyType(DIMENSIONS[lang]),
    )


_LABELS: dict[str, Labels] = {lang: _build(lang) for lang in SUPPORTED_LANGS}


def get_labels(lang: str) -> Labels:
    """The labels for ``lang``; :class:`UsageError` for a language we do not speak."""
    try:
        return _LABELS[lang]
    except KeyError:
        raise UsageError(
            f"unsupported report language {lang!r}; choose one of: {', '.join(SUPPORTED_LANGS)}"
        ) from None
