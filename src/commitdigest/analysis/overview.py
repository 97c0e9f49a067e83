"""A repository's day in a few lines: the input shape shared by both overview makers, and
the rule-made overview.

The overview is made from the day's *analyses*, never the diffs: :class:`OverviewItem` is
what one commit contributes (its title, short SHA, change type, importance, summary and
risks as text). :func:`rule_overview` turns a list of them into an
:class:`~commitdigest.models.Overview` deterministically and offline:

* themes: one line counting the commits by change type, most frequent first
  (``12 bug fixes, 8 refactors, 5 features`` / ``Bug 修复 12 个、代码重构 8 个、功能增强 5 个``);
* key changes: the titles of the high-importance commits (up to :data:`MAX_ITEMS`); on a day
  without any, the first :data:`MEDIUM_FALLBACK` medium ones;
* risks: the first risk of each high-importance commit that has one, one line per distinct
  risk tagged with the short SHAs of every commit that has it (up to :data:`MAX_ITEMS`).

Beside the text, both makers keep the data it says (:func:`overview_data`): the commits per
change type and, for each key change, the short SHA of the commit it is about, so renderers
link a key change to the commit's section and readers of the JSON need not parse the text.

An empty day gives an overview without items (the renderer then shows nothing). The LLM
overview (:mod:`commitdigest.analysis.llm.overview`) falls back to this one.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass

from commitdigest.analysis import rules_text as rt
from commitdigest.i18n import ANALYSIS_STRINGS, COUNTED_CHANGE_TYPES, pick
from commitdigest.models import Analysis, ChangeType, FileChange, FileEntry, Importance, Overview
from commitdigest.text import has_cjk, lower_first, strip_controls, without_stop

MAX_ITEMS = 5
"""At most this many themes, key changes and risks (extras are dropped, never cut)."""
MEDIUM_FALLBACK = 3
"""Key changes on a day without high-importance commits: this many medium ones."""

_TYPE_ORDER = {t: i for i, t in enumerate(ChangeType)}


@dataclass(frozen=True, slots=True)
class OverviewItem:
    """What one commit contributes to the day's overview (from its analysis).

    ``title`` is the commit's plain title; ``summary`` and ``risks`` are analyser text
    (restricted inline Markdown), one risk per entry.
    """

    title: str
    short_sha: str
    change_type: ChangeType
    importance: Importance
    summary: str = ""
    risks: tuple[str, ...] = ()
    lines: int = 0  # the lines its files add and delete: the larger of two equals leads

    @classmethod
    def from_analysis(
        cls,
        title: str,
        short_sha: str,
        analysis: Analysis,
        files: Iterable[FileChange | FileEntry] = (),
    ) -> OverviewItem:
        """The item for a commit with this title and short SHA, its analysis and files."""
        risks = []
        for risk in analysis.risks:
            parts = [without_stop(p.strip()) for p in (risk.risk, risk.effect, risk.mitigation)]
            if any(parts):
                risks.append(_risk_sentence(*parts))
        return cls(
            title=title,
            short_sha=short_sha,
            change_type=analysis.change_type,
            importance=analysis.importance,
            summary=analysis.summary,
            risks=tuple(risks),
            lines=sum((f.additions or 0) + (f.deletions or 0) for f in files),
        )


def _risk_sentence(risk: str, effect: str, mitigation: str) -> str:
    """A risk, its effect and what to do as one sentence in the language they are written
    in: ``119 source lines … without test changes: regressions may go uncaught; run your
    own …`` / ``…没有同时修改测试，回归可能未被覆盖；升级后…``."""
    chinese = has_cjk(risk + effect + mitigation)
    if chinese:
        text = "，".join(p for p in (risk, effect) if p)
        return "；".join(p for p in (text, mitigation) if p)
    text = ": ".join([risk, lower_first(effect)] if risk and effect else [risk or effect])
    if text and mitigation:
        return f"{text}; {lower_first(mitigation)}"
    return text or mitigation


def overview_input_digest(items: Sequence[OverviewItem]) -> str:
    """A SHA-256 over the items (order included), for the overview cache key."""
    payload = json.dumps([asdict(item) for item in items], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()


def type_counts(items: Sequence[OverviewItem]) -> list[tuple[ChangeType, int]]:
    """(change type, commits) for each type present: most commits first, ties in enum order."""
    counts = Counter(item.change_type for item in items)
    return sorted(counts.items(), key=lambda kv: (-kv[1], _TYPE_ORDER[kv[0]]))


def counts_line(items: Sequence[OverviewItem], lang: str) -> str:
    """``12 bug fixes, 8 refactors`` / ``Bug 修复 12 个、代码重构 8 个``; ``""`` for no items."""
    words = pick(COUNTED_CHANGE_TYPES, lang)
    parts = []
    for change_type, n in type_counts(items):
        one, many = words[change_type]
        parts.append((one if n == 1 else many).format(n=n))
    return rt.join_list(parts, lang)


def rule_overview(items: Sequence[OverviewItem], lang: str) -> Overview:
    """The deterministic overview of ``items`` in ``lang`` (see the module docstring)."""
    if not items:
        return Overview(analyser="rules")
    high = [item for item in items if item.importance == Importance.HIGH]
    medium = [item for item in items if item.importance == Importance.MEDIUM]
    # the largest of the day's most important commits, not its newest
    picked = sorted(high, key=lambda i: -i.lines)[:MAX_ITEMS] if high else []
    picked = picked or sorted(medium, key=lambda i: -i.lines)[:MEDIUM_FALLBACK]
    key_changes = [text for text in (_title(item) for item in picked) if text]
    return Overview(
        themes=[counts_line(items, lang)],
        key_changes=key_changes,
        risks=_risk_lines(high, lang),
        analyser="rules",
        type_counts={t.value: n for t, n in type_counts(items)},
        key_refs=[item.short_sha for item in picked if _title(item)],
    )


def _risk_lines(high: Sequence[OverviewItem], lang: str) -> list[str]:
    """The first risk of each high-importance commit, one line per distinct risk naming every
    commit that has it (four commits that each touch ``Cargo.lock`` are one line, not four),
    at most :data:`MAX_ITEMS` lines."""
    by_risk: dict[str, list[str]] = {}
    for item in high:
        first = next((r for r in (strip_controls(r) for r in item.risks) if r), "")
        if first and (first in by_risk or len(by_risk) < MAX_ITEMS):
            by_risk.setdefault(first, []).append(rt.code_span(item.short_sha))
    table = pick(ANALYSIS_STRINGS, lang)
    return [
        table["ov_risk"].format(risk=risk, sha=rt.join_list(shas, lang))
        for risk, shas in by_risk.items()
    ]


_SHA_RE = re.compile(r"(?<![0-9a-zA-Z])[0-9a-f]{7,40}(?![0-9a-zA-Z])")


def cited_commit(text: str, items: Sequence[OverviewItem]) -> str:
    """The short SHA of the day's commit that ``text`` cites (the first one it names), or
    ``""``: a model's key change ends with its commit's short SHA, which is checked against
    the day, never trusted."""
    for match in _SHA_RE.finditer(text):
        cited = match.group(0)
        for item in items:
            if item.short_sha.startswith(cited) or cited.startswith(item.short_sha):
                return item.short_sha
    return ""


_REF_RE = re.compile(r"(?<![0-9a-zA-Z])(?=[0-9a-f]*\d)[0-9a-f]{7,40}(?![0-9a-zA-Z])")


def known_refs_only(texts: Sequence[str], items: Sequence[OverviewItem]) -> list[str]:
    """The items of an overview list that cite only the day's commits: one naming a short
    SHA that is not among ``items`` (an invented reference) is dropped."""

    def known(ref: str) -> bool:
        return any(i.short_sha.startswith(ref) or ref.startswith(i.short_sha) for i in items)

    return [t for t in texts if all(known(m.group(0)) for m in _REF_RE.finditer(t))]


def overview_data(items: Sequence[OverviewItem], key_changes: Sequence[str]) -> dict[str, object]:
    """``type_counts`` and ``key_refs`` for an overview of ``items`` whose key changes are
    ``key_changes`` (texts that cite their commits)."""
    return {
        "type_counts": {t.value: n for t, n in type_counts(items)},
        "key_refs": [cited_commit(text, items) for text in key_changes],
    }


def _title(item: OverviewItem) -> str:
    """A commit title as analyser text: plain text on one line (renderers escape it)."""
    return strip_controls(item.title)
