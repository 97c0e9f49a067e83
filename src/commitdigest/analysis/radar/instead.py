"""What the project says to write instead of a changed item: a deprecation message that
names it and says "use … instead", or a changelog entry that does. Used by the daily radar
(the old code of a commit that removes a name) and by ``upgrade`` (the range's endpoints)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from commitdigest.analysis.radar import deprecation
from commitdigest.analysis.radar.changelog import code_spans
from commitdigest.analysis.radar.models import ApiChange, RadarKind
from commitdigest.analysis.radar.patch import lines_of
from commitdigest.analysis.radar.pyapi import indent_of
from commitdigest.analysis.radar.pylocal import find
from commitdigest.facts import ApiChangeType

__all__ = ["REPLACED", "own_first", "replacement_for", "said_at", "said_by_path", "said_in"]

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


def said_at(text: str, line: int) -> list[str]:
    """The deprecation messages of the definition at 1-based ``line`` of a module: its
    decorators, its header and its indented body (a removed parameter's function warns
    about it there; another function's message that names the same word is about that
    function)."""
    lines = lines_of(text)  # (kept for the text: a module with many items is split once)
    if not 0 < line <= len(lines):
        return []
    head = line - 1
    while head < len(lines) - 1 and lines[head].lstrip().startswith("@"):
        head += 1  # (the item's line may be a decorator's)
    indent = indent_of(lines[head])
    start = above = head  # up over its decorators, a call over several lines included
    while above > 0:
        above -= 1
        code = lines[above].lstrip()
        if not code:
            break
        if indent_of(lines[above]) > indent or code.startswith((")", "]")):
            continue  # (inside a decorator's call, if an "@" line comes above)
        if not code.startswith("@"):
            break
        start = above
    end = head + 1
    while end < len(lines):
        code = lines[end].lstrip()
        if code and indent_of(lines[end]) <= indent and not code.startswith((")", "]", "}")):
            break
        end += 1
    return list(deprecation.messages("\n".join(lines[start:end])))


def _defined_at(text: str, name: str) -> int:
    """The 1-based line where the module ``text`` defines the item ``name``
    (``pkg.mod.Cls.meth(param)``: ``meth`` of ``Cls``), 0 if nowhere: the longest end of
    the dotted name that the module defines (the item's own line may be the other
    version's)."""
    parts = name.split("(", 1)[0].split(".")
    if not all(part.isidentifier() for part in parts):
        return 0  # a flag, a variable, a changelog's words: no definition
    for k in range(len(parts) - 1, 0, -1):  # the longest first: ``Client.get``, not ``get``
        if k > 1 and f"class {parts[-k]}" not in text:
            continue  # (``pkg.mod`` of ``pkg.mod.fn`` is no class of the module)
        obj = find(text, ".".join(parts[-k:]))
        if obj is not None:
            return obj.line
    return 0


def said_by_path(texts: Mapping[str, str | None]) -> dict[str, list[str]]:
    """The deprecation messages of each module of ``texts``, by its path."""
    return {path: said_in([text]) for path, text in texts.items() if text}


def own_first(
    item: ApiChange, said: Mapping[str, list[str]], texts: Mapping[str, str | None]
) -> list[str]:
    """The messages of :func:`said_by_path` (of the modules ``texts``), nearest to the
    item first: those of its own definition (:func:`said_at` its line), then of its own
    module, then the others (httpx's ``get(proxies)`` passes them on to ``Client``, which
    warns). A message that names the same word elsewhere is often about something else:
    flask's ``json.loads(app)`` is not what ``json.dumps`` says of its own ``app``, nor
    "Use 'SESSION_COOKIE_NAME' in 'app.config' instead", in ``app.py``."""
    own = said.get(item.path, [])
    others = [m for path, found in said.items() if path != item.path for m in found]
    short = _short_name(item)
    text = texts.get(item.path)
    if not text or not any(short in m for m in (*own, *others)):
        return [*own, *others]  # no message names it: no definition is looked up
    line = _defined_at(text, item.name)
    near = said_at(text, line) if line else []
    return list(dict.fromkeys([*near, *own, *others]))


def _short_name(item: ApiChange) -> str:
    """The last name of what ``item`` names: a parameter's (``pkg.f(proxies)``), else the
    object's (``pkg.mod.Cls.meth``)."""
    name = item.name.split("(")[1].rstrip(")") if "(" in item.name else item.name
    return name.rsplit(".", 1)[-1].lstrip("*")


def replacement_for(item: ApiChange, messages: Sequence[str], notes: Sequence[str] = ()) -> str:
    """What the project says to write instead of ``item``: one of the deprecation
    ``messages`` (:func:`said_in` the old code for what is gone, the new code for a new
    deprecation) that names it and says "use … instead", or a changelog entry (``notes``)
    that does."""
    if item.kind is RadarKind.ANNOUNCED:
        return _hint_sentence(item.name)
    if item.change not in REPLACED:
        return ""  # a changed base or default has nothing to write instead
    short = _short_name(item)
    if not short.isidentifier():
        return ""
    said = [m for m in messages if short in m]
    said += [n for n in notes if any(short in _parts(span) for span in code_spans(n))]
    if not said:
        return ""
    # the name itself: not a part of another's (``x.app``), nor an object of which a part is
    # named (``app.config`` names ``config``)
    word = re.compile(rf"(?<![\w.]){re.escape(short)}\b(?!\.\w)")
    for strong in (True, False):  # "… instead" before a bare "use …"
        for message in said:
            if word.search(message) and (hint := _hint_sentence(message, strong)):
                return _fields_shown(hint) if message in messages else hint
    if "_" in short.strip("_") or len(short) >= 10:  # a name no sentence uses as a word:
        # what is said of its attribute is said of it (flask's "``_request_ctx_stack.top``
        # is deprecated. Store data on ``g`` instead")
        member = re.compile(rf"(?<![\w.]){re.escape(short)}\.\w")
        for message in said:
            if member.search(message) and (hint := _hint_sentence(message, True)):
                return _fields_shown(hint) if message in messages else hint
    return ""


# a replacement field of an f-string or a ``str.format`` template, what the code fills in
# at run time: litestar's "Use 'HeaderParameter(name={header!r})' instead"
_FIELD = re.compile(r"\{[A-Za-z_][\w.]*(?:\[[^\]{}]*\])?(?:![rsa])?(?::[^{}]*)?\}")


def _fields_shown(hint: str) -> str:
    """A deprecation message's sentence as users read it: its replacement fields, which
    the code fills in (``{header!r}``, ``{alternative}``), as "…"."""
    return _FIELD.sub("…", hint) if "{" in hint else hint


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
