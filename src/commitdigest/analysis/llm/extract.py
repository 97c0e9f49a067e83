"""Getting one JSON object out of a model's reply.

Models answer in many shapes even when asked for bare JSON: the object alone, the object in a
```json fence, the object after a sentence of prose, or any of those after a ``<think>…</think>``
reasoning block (Qwen3, DeepSeek-R1 and friends, when the server does not split reasoning out).

Decisions about reasoning blocks (:func:`strip_think`):

* complete ``<think>…</think>`` (or ``<thinking>…</thinking>``) blocks are removed wherever they
  are, case-insensitively;
* an orphan closing tag with no opening tag before it — what Qwen3 templates produce, since
  they put ``<think>`` into the prompt — drops everything up to and including it;
* an opening tag that is never closed drops everything from it to the end. The model was cut
  off while reasoning (``finish_reason`` is usually ``"length"``): any braces inside are scratch
  work, not the answer, so we report "no JSON object" rather than guess at a fragment.

:func:`extract_json_object` tries, in order: the whole text; each fenced block; then each
``{`` in turn, matched to its closing ``}`` by a string-aware scan (braces inside JSON strings
and escaped quotes do not count). The first candidate that parses to a JSON *object* wins.
Parsing is lenient about raw control characters inside strings (``json.loads(strict=False)``),
which models emit often; otherwise it is plain JSON (no comments, no trailing commas).
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["JSONExtractionError", "extract_json_object", "strip_think"]

# at most this many '{' positions are tried, so a pathological reply stays linear-ish
MAX_BRACE_CANDIDATES = 200

_THINK_BLOCK = re.compile(r"<(think|thinking)>.*?</\1>", re.IGNORECASE | re.DOTALL)
_THINK_OPEN = re.compile(r"<(?:think|thinking)>", re.IGNORECASE)
_THINK_CLOSE = re.compile(r"</(?:think|thinking)>", re.IGNORECASE)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+-]*)[ \t]*\r?\n?(.*?)```", re.DOTALL)


class JSONExtractionError(ValueError):
    """No JSON object could be read from a reply; ``reason`` says why in a few words."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def strip_think(text: str) -> str:
    """Remove reasoning blocks (see the module docstring for the exact rules)."""
    text = _THINK_BLOCK.sub("", text)
    close = _THINK_CLOSE.search(text)
    if close is not None:
        # an orphan closing tag: its opening tag was in the prompt
        text = text[close.end() :]
        text = _THINK_CLOSE.sub("", text)
    opening = _THINK_OPEN.search(text)
    if opening is not None:
        text = text[: opening.start()]  # never closed: reasoning was cut off
    return text


def extract_json_object(text: str) -> dict[str, Any]:
    """Return the first JSON object found in ``text``; raise :class:`JSONExtractionError`."""
    body = strip_think(text).strip()
    if not body:
        if text.strip():
            raise JSONExtractionError("reply holds only an unfinished reasoning block")
        raise JSONExtractionError("empty reply")

    whole = _loads_object(body)
    if whole is not None:
        return whole

    for match in _FENCE.finditer(body):
        lang = match.group(1).lower()
        if lang and lang not in ("json", "jsonc", "json5"):
            continue
        found = _loads_object(match.group(2).strip())
        if found is not None:
            return found

    found, unterminated = _scan_braces(body)
    if found is not None:
        return found
    if unterminated:
        raise JSONExtractionError("unterminated JSON object (output truncated?)")
    if "{" in body:
        raise JSONExtractionError("no valid JSON object in reply")
    raise JSONExtractionError("no JSON object in reply")


def _loads_object(candidate: str) -> dict[str, Any] | None:
    try:
        value = json.loads(candidate, strict=False)
    except (ValueError, RecursionError):  # RecursionError: absurdly deep nesting
        return None
    return value if isinstance(value, dict) else None


def _scan_braces(body: str) -> tuple[dict[str, Any] | None, bool]:
    """Try each balanced ``{…}`` span in order; also say whether some ``{`` was never closed."""
    unterminated = False
    known: dict[int, int | None] = {}  # '{' position -> its '}' (None: never closed)
    start = body.find("{")
    tried = 0
    while start != -1 and tried < MAX_BRACE_CANDIDATES:
        tried += 1
        if start not in known:
            # a '{' no earlier scan saw outside a string: scan afresh from here
            known.update(_brace_pairs(body, start))
        end = known[start]
        if end is None:
            unterminated = True
        else:
            found = _loads_object(body[start : end + 1])
            if found is not None:
                return found, False
        start = body.find("{", start + 1)
    return None, unterminated


def _brace_pairs(text: str, start: int) -> dict[int, int | None]:
    """Pair every ``{`` from ``start`` on (outside JSON strings) with its ``}``, in one pass.

    String state is tracked from ``start``, so a stray quote in prose *before* ``start`` does
    not matter; later ``{`` seen here get their pairs too, which keeps the whole search linear
    in the usual case instead of rescanning the tail once per brace.
    """
    pairs: dict[int, int | None] = {}
    stack: list[int] = []
    in_string = False
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch == "{":
            stack.append(i)
            pairs[i] = None
        elif ch == "}" and stack:
            pairs[stack.pop()] = i
    return pairs
