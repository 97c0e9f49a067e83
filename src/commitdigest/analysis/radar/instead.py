"""What the project says to write instead of a changed item: a deprecation message that
names it and says "use … instead", or a changelog entry that does. Used by the daily radar
(the old code of a commit that removes a name) and by ``upgrade`` (the range's endpoints)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from commitdigest.analysis.radar import deprecation
from commitdigest.analysis.radar.changelog import code_spans
from commitdigest.analysis.radar.models import ApiChange, RadarKind
from commitdigest.models import ApiChangeType

__all__ = ["REPLACED", "replacement_for", "said_in"]

_HINT = re.compile(
    r"\b(?:use|instead|replaced (?:by|with)|in favou?r of|migrate to|switch to)\b"
    r"|改用|请使用",
    re.I,
)


_STRONG_HINT = re.compile(
    r"\b(?:instead|replaced (?:by|with)|in favou?r of|migrate to|switch to)\b|改用", re.I
)


REPLACED = frozenset(
    {
        ApiChangeType.REMOVED,
        ApiChangeType.RENAMED,
        ApiChangeType.NOW_REQUIRED,
        ApiChangeType.DEPRECATED,
    }
)


def said_in(texts: Iterable[str]) -> list[str]:
    """The deprecation messages of ``texts`` (modules), each once: what
    :func:`replacement_for` reads (gather them once for many items)."""
    found = [m for t in texts if "warn" in t for m in deprecation.messages(t)]
    return list(dict.fromkeys(found))


def replacement_for(item: ApiChange, messages: Sequence[str], notes: Sequence[str] = ()) -> str:
    """What the project says to write instead of ``item``: one of the deprecation
    ``messages`` (:func:`said_in` the old code for what is gone, the new code for a new
    deprecation) that names it and says "use … instead", or a changelog entry (``notes``)
    that does."""
    if item.kind is RadarKind.ANNOUNCED:
        return _hint_sentence(item.name)
    if item.change not in REPLACED:
        return ""  # a changed base or default has nothing to write instead
    name = item.name.split("(")[1].rstrip(")") if "(" in item.name else item.name
    short = name.rsplit(".", 1)[-1].lstrip("*")
    if not short.isidentifier():
        return ""
    said = [m for m in messages if short in m]
    said += [n for n in notes if any(short in _parts(span) for span in code_spans(n))]
    if not said:
        return ""
    word = re.compile(rf"(?<![\w.]){re.escape(short)}\b")
    for strong in (True, False):  # "… instead" before a bare "use …"
        for message in said:
            if word.search(message) and (hint := _hint_sentence(message, strong)):
                return hint
    return ""


def _parts(span: str) -> list[str]:
    """The names a code span writes (``_request_ctx_stack.top``, ``proxy=...``)."""
    return re.split(r"[^\w]+", span)


def _hint_sentence(text: str, strong: bool = False) -> str:
    """The sentence of ``text`` that says what to use instead, if any (``strong``: only one
    that says "instead", "replaced by", "in favour of", "migrate to")."""
    pattern = _STRONG_HINT if strong else _HINT
    for sentence in re.split(r"(?<=[.。!?])\s+", text):
        if pattern.search(sentence):
            return _clip(sentence)
    return ""


def _clip(text: str, limit: int = 200) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
