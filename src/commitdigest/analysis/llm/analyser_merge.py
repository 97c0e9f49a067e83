"""Merging the analyses of a chunked commit's parts: never less alarming than the worst part.

:func:`combine_parts` takes the model's merged output (or ``None`` when the merge call failed,
for a local merge) and the parts' outputs: importance is the highest of all, risks the union
of all (duplicates by normalised text dropped); impact, insights and recommendations are the
merge's own, deduplicated, or when it gave none (compact form, local merge) the parts' union.
:func:`part_payload` is a part's analysis as JSON for the merge prompt, at three levels of
detail (the merge prompt must fit the input budget too).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable
from itertools import chain
from typing import Any, TypeVar

from commitdigest.analysis.llm.schema import CompactOutput, FullOutput
from commitdigest.models import ChangeType

__all__ = ["MERGE_LEVELS", "combine_parts", "dedupe", "part_payload"]

T = TypeVar("T")

MERGE_LEVELS = 3  # 0: everything; 1: risks kept, other lists dropped; 2: risk texts only

_NOT_WORD = re.compile(r"[\W_]+")
_COMPACT = set(CompactOutput.model_fields)


def _norm(text: str) -> str:
    """Text compared for duplicates: case, spacing and punctuation ignored."""
    return _NOT_WORD.sub("", text.casefold())


def dedupe(items: Iterable[T], key: Callable[[T], Hashable]) -> list[T]:
    seen: set[Hashable] = set()
    out: list[T] = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def part_payload(part: int, output: CompactOutput, level: int) -> dict[str, Any]:
    """A part's analysis as JSON for the merge prompt; ``level`` > 0 drops detail."""
    data: dict[str, Any] = {"part": part, **output.model_dump(mode="json", include=_COMPACT)}
    if isinstance(output, FullOutput):
        if level == 0:
            data |= output.model_dump(mode="json", exclude=_COMPACT)
        elif level == 1:
            data["risks"] = [r.model_dump(mode="json") for r in output.risks]
        else:
            data["risks"] = [r.risk for r in output.risks]
    return data


def _lists(output: CompactOutput) -> FullOutput | None:
    return output if isinstance(output, FullOutput) else None


def combine_parts(
    merged: CompactOutput | None, parts: list[CompactOutput], seeded: ChangeType | None
) -> FullOutput:
    """One output for a chunked commit: the model's merge (or, if ``None``, a local one),
    never less alarming than its worst part: importance is the highest of all, risks the
    union of all (duplicates dropped)."""
    fulls = [f for f in map(_lists, parts) if f is not None]
    base = _lists(merged) if merged is not None else None
    importance = max(
        [p.importance for p in parts] + ([merged.importance] if merged else []),
        key=lambda imp: imp.rank,
    )
    risks = dedupe(
        chain(base.risks if base else [], *(f.risks for f in fulls)), lambda r: _norm(r.risk)
    )

    def union(pick: Callable[[FullOutput], list[T]], key: Callable[[T], Hashable]) -> list[T]:
        own = dedupe(pick(base), key) if base is not None else []
        return own or dedupe(chain.from_iterable(pick(f) for f in fulls), key)

    if merged is not None:
        change_type, reason, summary = merged.change_type, merged.change_type_reason, merged.summary
    else:
        types = [p.change_type for p in parts]
        change_type = seeded if seeded in types else Counter(types).most_common(1)[0][0]
        reasons = [p.change_type_reason for p in parts if p.change_type is change_type]
        reason = next((r for r in reasons if r.strip()), "")
        summary = " ".join(p.summary for p in parts)
    return FullOutput(
        change_type=change_type,
        change_type_reason=reason,
        importance=importance,
        summary=summary,
        impact=union(lambda f: f.impact, _norm),
        insights=union(lambda f: f.insights, lambda i: (i.dimension, _norm(i.text))),
        risks=risks,
        recommendations=union(lambda f: f.recommendations, _norm),
    )
