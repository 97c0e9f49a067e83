"""Plain-text helpers every stage and output uses: commit text made one clean line, a title
shortened, a URL checked, a slug made.

Commit text is hostile input. These helpers never add markup: they return plain text
(or ``None`` for a URL that must not be linked), and each renderer escapes the result for
its own format (``render/mdtext.py`` for Markdown, Jinja autoescape for HTML, the chat
formatters of ``deliver/``).

* :data:`BIDI_CONTROLS`: direction controls, which every output drops (commit text could
  reorder what follows it);
* :func:`strip_controls`: what an analysis holds of commit text (controls -> spaces,
  whitespace collapsed);
* :func:`clean_line` / :func:`clean_lines`: what a renderer shows of it (one line, or
  lines; NUL and other controls -> U+FFFD);
* :func:`shorten_title`: a title cut for a table of contents or a chat line, never in the
  middle of a character sequence;
* :func:`safe_url`: an http(s) URL fit for a link, or None;
* :func:`slugify` / :func:`is_anchor`: anchor ids and file names (ASCII lowercase,
  digits, hyphens);
* :class:`Sieved`: a regex over commit messages tried only where its key words are.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlsplit

__all__ = [
    "ANCHOR_RE",
    "BIDI_CONTROLS",
    "TITLE_KEEP",
    "TITLE_LIMIT",
    "Sieved",
    "clean_line",
    "clean_lines",
    "has_cjk",
    "is_anchor",
    "lower_first",
    "safe_url",
    "shorten_title",
    "slugify",
    "strip_controls",
    "without_stop",
]

BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
"""Direction controls: commit text could reorder what follows it. Every output drops them."""

_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SPACE_CONTROLS = "\t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029"
# other C0/C1 controls, DEL and lone surrogates become U+FFFD (CommonMark does so for NUL)
_BAD_CHARS = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\ud800-\udfff]")
_SPACE_CHARS = re.compile(f"[{_SPACE_CONTROLS}]")
_LINE_SPACES = re.compile("[\x0b\x0c\x1c\x1d\x1e\x1f\x85\u2028\u2029\t]")
_SLUG_JUNK = re.compile(r"[^a-z0-9]+")

TITLE_LIMIT = 60  # titles longer than this are cut for the table of contents
TITLE_KEEP = 57  # … to this many characters, then "..."


# ---- cleaning ---------------------------------------------------------------------------


def strip_controls(text: str) -> str:
    """Control characters and line/paragraph separators -> spaces; whitespace collapsed;
    direction controls dropped. What an analysis keeps of commit text."""
    # Cc is U+0000-001F and U+007F-009F; Zl and Zp are U+2028 and U+2029
    return " ".join(_CONTROLS.sub(" ", BIDI_CONTROLS.sub("", text)).split())


def clean_line(text: str) -> str:
    """One line of plain text: line breaks, tabs and other controls become a space,
    direction controls are dropped, NUL and the remaining controls become U+FFFD;
    stripped. Escaped text renders back to this."""
    text = BIDI_CONTROLS.sub("", text)  # they would reorder the text around them
    return _BAD_CHARS.sub("\ufffd", _SPACE_CHARS.sub(" ", text)).strip()


def clean_lines(text: str) -> list[str]:
    """Multi-line free text: newlines normalised, controls replaced as :func:`clean_line`
    does, direction controls dropped, each line right-stripped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _LINE_SPACES.sub(" ", text)
    text = _BAD_CHARS.sub("\ufffd", BIDI_CONTROLS.sub("", text))
    return [line.rstrip() for line in text.split("\n")]


# ---- short titles -----------------------------------------------------------------------


def shorten_title(title: str, limit: int = TITLE_LIMIT, keep: int = TITLE_KEEP) -> str:
    """``title`` (cleaned) if at most ``limit`` characters, else its first ``keep`` and
    "..." — never cutting a combining mark, variation selector or ZWJ sequence apart."""
    title = clean_line(title)
    if len(title) <= limit:
        return title
    cut = keep
    while cut > 0 and _joins(title[cut - 1], title[cut]):
        cut -= 1
    return title[: cut or keep] + "..."


def _joins(before: str, after: str) -> bool:
    zwj = "\u200d"
    return (
        unicodedata.category(after) in ("Mn", "Mc", "Me")
        or "\ufe00" <= after <= "\ufe0f"
        or "\U0001f3fb" <= after <= "\U0001f3ff"
        or zwj in (before, after)
    )


# ---- links and anchors ------------------------------------------------------------------


def safe_url(url: str | None) -> str | None:
    """An http(s) URL fit for a link (``[text](url)``, ``href``), or None: other schemes
    are not linked."""
    if not url:
        return None
    url = clean_line(url)
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        return None
    return quote(url, safe=":/?#[]@!$&'*+,;=%~-._")


def slugify(text: str, default: str = "repo") -> str:
    """An anchor id: ASCII lowercase letters, digits and single hyphens."""
    slug = _SLUG_JUNK.sub("-", text.lower()).strip("-")
    return slug or default


ANCHOR_RE = re.compile(r"[a-z0-9](?:[a-z0-9-]*[a-z0-9])?")


def is_anchor(text: str) -> bool:
    """Whether ``text`` is an id :func:`slugify` would make (safe in HTML and URLs)."""
    return ANCHOR_RE.fullmatch(text) is not None


_CJK = re.compile(r"[\u3400-\u9fff]")
_PLAIN_CAPITAL = re.compile(r"(?:A|[A-Z][a-z]+)\b(?![.\w(])")  # "To", not "API", "Foo.bar", "I"


def has_cjk(text: str) -> bool:
    """Whether ``text`` holds a Chinese character (a sentence to end with 。, not .)."""
    return _CJK.search(text) is not None


def lower_first(text: str) -> str:
    """``text`` continuing an English sentence: its first letter in lower case when it opens
    with a plain capitalised word (``Run your tests`` → ``run your tests``; ``API``,
    ``Foo.bar`` and ``I`` stay)."""
    return text[0].lower() + text[1:] if _PLAIN_CAPITAL.match(text) else text


def without_stop(text: str) -> str:
    """``text`` without its closing punctuation (a full stop, semicolon or comma, in either
    language), to be joined with others into one sentence."""
    return text.rstrip("。．.；;，, ")


# the characters besides an ASCII letter's two cases that a case-insensitive regex matches
# it with (found by trying every code point): İ and ı (i), ſ (s), the Kelvin sign (k)
_FOLD = str.maketrans({"\u0130": "i", "\u0131": "i", "\u017f": "s", "\u212a": "k"})
_ODD_CASES = re.compile("[\u0130\u0131\u017f\u212a]")


@lru_cache(maxsize=64)  # one message is sieved by several regexes in a row
def _folded(text: str) -> str:
    if not text.isascii() and _ODD_CASES.search(text):  # (isascii: O(1); translate: slow)
        text = text.translate(_FOLD)
    return text.lower()


class Sieved:
    """A regex over commit messages, tried only on a text that holds one of its ``keys``:
    words every match contains (lower case, ASCII, for a case-insensitive regex). A long
    alternation of ``\\b``-anchored words costs Python's engine about 0.3 µs a character (0.11 s
    for the security words of vllm-ascend's 1,339 messages); the keys' search, a
    hundredth of that, spares it on all the texts that cannot match. Same answers as the
    regex (a test draws matches of each one and checks its keys find them)."""

    __slots__ = ("_folds", "keys", "regex")

    def __init__(self, pattern: str, keys: tuple[str, ...], flags: int = 0) -> None:
        self.regex = re.compile(pattern, flags)
        self.keys = keys
        self._folds = bool(flags & re.IGNORECASE)
        if self._folds and any(k != k.lower() or not k.isascii() for k in keys):
            raise ValueError("the keys of a case-insensitive regex are lower-case ASCII")

    def may_match(self, text: str) -> bool:
        """False only where the regex cannot match."""
        seen = _folded(text) if self._folds else text
        return any(key in seen for key in self.keys)

    def search(self, text: str) -> re.Match[str] | None:
        return self.regex.search(text) if self.may_match(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.regex.finditer(text) if self.may_match(text) else iter(())

    def findall(self, text: str) -> list[Any]:
        return self.regex.findall(text) if self.may_match(text) else []
