"""Environment variables that non-test code stops reading anywhere in the repository.

Only environment reads count: ``os.getenv("X")``, ``os.environ["X"]`` / ``.get`` /
``.setdefault``, ``"X" in os.environ``, and the entries of a registry whose values read the
environment when called (vLLM's ``envs.py``: ``"X": lambda: os.getenv("X", ...)``, in a file
that reads the environment). A dict of lambdas that take arguments (Triton's
``@triton.heuristics({"IS_VARLEN": lambda args: ...})``) is not a registry of variables.
A read in a comment or a triple-quoted string (a docstring's example) is none. A write is
none either: ``os.environ["X"] = …``, ``del os.environ["X"]``, and a ``.pop("X", …)`` /
``.setdefault("X", …)`` whose value is not used (``os.environ["X"] += …`` reads it first).

A variable counts as removed when a commit's touched files stop reading it and no other
non-test file reads it at that commit; a read moved to another module stays silent, and so
does one a file (another, or a touched one after the commit) may still make through a table
of names: it reads the environment by a key that is no literal and writes the name as one.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from functools import lru_cache

from commitdigest.analysis.radar.models import (
    NOT_SHIPPED_PATHSPECS,
    ApiChange,
    CommitView,
    RadarKind,
    is_test_or_docs,
    removed_from,
)
from commitdigest.analysis.radar.public import shipped
from commitdigest.analysis.radar.pyapi import iter_string_spans, uncommented, without_comments

_READ = re.compile(
    r"""(getenv|environ\.get|environ\[|environ\.setdefault|environ\.pop)\(?\s*["']([A-Z][A-Z0-9_]{1,})["']"""
    r"""|["']([A-Z][A-Z0-9_]{1,})["']\s+(?:not\s+)?in\s+(?:os\.)?environ\b"""
)
# a registry entry such as vLLM's envs.py: "NAME": lambda: os.getenv(...) — a lambda without
# parameters (one with parameters is a callback table, not a variable)
_REGISTRY = re.compile(r"""^[^\S\n]*["']([A-Z][A-Z0-9_]{2,})["']\s*:\s*lambda\s*:""", re.M)
# what follows a subscript's key when the subscript is assigned to (``os.environ["X"] = "1"``;
# ``+=`` reads the old value first: a read)
_ASSIGNED = re.compile(r"\s*\]\s*=(?!=)")
_DELETED = re.compile(r"\bdel\s+(?:\w+\s*\.\s*)*$")  # ``del os.`` before ``environ["X"]``
# the start of a statement up to ``environ``: ``    os.`` (also after a ``;``)
_STATEMENT_HEAD = re.compile(r"(?:[^\n]*;)?[ \t]*(?:\w+\.)*")
_CONTINUES = frozenset("([{,\\=+-*/%|&<>^~@.")  # a line that ends so goes on on the next


_READS = ("getenv", "environ")  # what a module that reads a variable names (names())
_NEAR = 160  # a read's variable name is within this many characters of getenv/environ


def _statement(code: str, at: int) -> bool:
    """Whether the expression at offset ``at`` (``os.environ.pop(…)``, from ``environ``) is
    a statement of its own, its value unused: its line holds nothing before it but the
    module it is an attribute of, and the code line above (comments and blank lines
    skipped) does not go on onto it (``f(\n    os.environ.pop("X"),``)."""
    start = code.rfind("\n", 0, at) + 1
    if not _STATEMENT_HEAD.fullmatch(code, start, at):
        return False
    end = start - 1  # the line break that ends the line above
    while end > 0:
        begin = code.rfind("\n", 0, end) + 1
        line = code[begin:end].strip()
        if line and not line.startswith("#"):
            if "#" in line:
                line = uncommented(line).rstrip()
            return not line or line[-1] not in _CONTINUES
        end = begin - 1
    return True


def _written(code: str, match: re.Match[str]) -> bool:
    """Whether a read ``match`` of ``_READ`` only writes the variable: an assignment to
    ``os.environ["X"]``, ``del os.environ["X"]``, or ``os.environ.pop("X", …)`` /
    ``.setdefault("X", …)`` as a statement whose value is not used (pytorch-lightning's
    ``XLAPrecision`` sets ``XLA_USE_BF16`` for torch_xla and pops it in ``teardown()``)."""
    call = match.group(1)
    if call == "environ[":
        if _ASSIGNED.match(code, match.end()):
            return True
        start = code.rfind("\n", 0, match.start()) + 1
        return _DELETED.search(code, start, match.start()) is not None
    if call in ("environ.pop", "environ.setdefault"):
        return _statement(code, match.start())
    return False


# an ``if``/``elif`` line (a presence test in its condition), and the first statement of its
# body when that warns or raises: ``warnings.warn(…)``, ``logger.warning(…)``, ``raise …``
_IF_HEAD = re.compile(r"[ \t]*(?:el)?if\b")
_WARNS = re.compile(r"[ \t]*(?:raise\b|(?:[\w.]+\.)?\w*warn(?:ing)?[ \t]*\()")
_NOT_IN = re.compile(r"\bnot\s+in\s+(?:\w+\.)?$")


def _presence_warned(code: str, at: int) -> bool:
    """Whether the presence test ending at offset ``at`` (``name in os.environ``, up to
    ``environ``) is the condition of an ``if`` whose body warns or raises that the variable
    is set: a table of names no longer supported (``for name in _REMOVED: if name in
    os.environ: warnings.warn(f"{name} is no longer used")``) reads none of them. A
    ``not in`` test (a variable required: ``raise … must be set``) is a read."""
    start = code.rfind("\n", 0, at) + 1
    if not _IF_HEAD.match(code, start) or _NOT_IN.search(code, max(start, at - 40), at - 7):
        return False
    end = code.find("\n", at)
    end = len(code) if end < 0 else end
    colon = code.find(":", at, end)
    if colon < 0:
        return False  # a condition over several lines: read as a read
    body = uncommented(code[colon + 1 : end])
    if body.strip():
        return _WARNS.match(body) is not None
    while end < len(code):  # the body's first line of code, below
        begin = end + 1
        end = code.find("\n", begin)
        end = len(code) if end < 0 else end
        line = code[begin:end]
        if line.strip() and not line.lstrip().startswith("#"):
            return _WARNS.match(line) is not None
    return False


class _Text:
    """Where a module's text is no code: its comments and its triple-quoted strings
    (docstrings and their examples), read from its top only as far as a read is asked
    about."""

    def __init__(self, code: str) -> None:
        self.code = code
        self._spans: list[tuple[int, int]] = []
        self._more: Iterator[tuple[int, int]] | None = None
        self._read_to = -1  # every string that opens before this offset is listed

    def code_at(self, pos: int) -> bool:
        """Whether offset ``pos`` is code: not in a comment, and not in a triple-quoted
        string other than an f-string (whose ``{…}`` are code)."""
        code = self.code
        start = code.rfind("\n", 0, pos) + 1
        if "#" in code[start:pos]:
            head = code[start:pos]
            if len(uncommented(head)) < len(head):
                return False
        spans = self._spans
        if self._read_to <= pos:
            if self._more is None:
                self._more = iter_string_spans(code)
            for span in self._more:
                spans.append(span)
                if span[0] > pos:
                    break
            else:
                self._read_to = len(code) + 1
            if self._read_to <= pos:
                self._read_to = spans[-1][0]
        k = bisect.bisect_right(spans, (pos, 1 << 62)) - 1
        if k < 0 or not spans[k][0] < pos < spans[k][1]:
            return True
        opening = spans[k][0]
        return code[max(0, opening - 2) : opening].lower().strip("r").endswith("f")


@lru_cache(maxsize=2048)
def _reads(code: str) -> Mapping[str, int]:
    """The variables ``code`` reads, each with the offset of its first read: the reads regex
    runs only around the places that name ``getenv``/``environ`` (a whole-text regex scan
    cost milliseconds per large module). A write is no read (``_written``), nor is a read in
    a comment or a docstring (pytorch-lightning's CometLogger docstring shows
    ``rest_api_key=os.environ.get("COMET_REST_API_KEY")``)."""
    found: dict[str, int] = {}
    text = _Text(code)

    def add(name: str, pos: int) -> None:
        if (name not in found or pos < found[name]) and text.code_at(pos):
            found[name] = pos

    for word in _READS:
        start = code.find(word)
        while start >= 0:
            for match in _READ.finditer(code, max(0, start - _NEAR), start + _NEAR):
                if _written(code, match):
                    continue
                if match.group(2):
                    add(match.group(2), match.start(2))
                elif not _presence_warned(code, match.end()):
                    add(match.group(3), match.start(3))
            start = code.find(word, start + len(word))
    start = code.find("lambda")
    while start >= 0:  # a registry entry's "lambda": its lines, from one that starts a key
        begin = code.rfind("\n", 0, max(0, start - _NEAR)) + 1
        end = code.find("\n", start)
        for match in _REGISTRY.finditer(code, begin, end if end >= 0 else len(code)):
            add(match.group(1), match.start(1))
        start = code.find("lambda", start + len("lambda"))
    return found


# an environment read whose key is no string literal, from ``getenv``/``environ``: a call
# (``os.environ.get(key)``), a subscript (its key; ``=`` after it: assigned to, no read); and
# what ends at ``environ`` (``os.environ.keys()`` too): ``key in os.environ``,
# ``required.issubset(os.environ``
_BY_KEY = re.compile(
    r"""(getenv|environ\.(?:get|pop|setdefault))\(\s*(?![\s"'])"""
    r"""|environ\[\s*(?![\s"'\]])[^\]\n]*\](\s*=(?!=))?"""
)
_BY_KEY_BEFORE = re.compile(
    r"""(?:(?<![\s"'])(?<!\bnot)\s+(?:not\s+)?in\s|\.issu(?:b|per)set\(|\bset\()\s*(?:os\.)?$"""
)
# ``for key in os.environ`` / ``for k, v in os.environ.items()`` (a comprehension's too):
# every variable set, none by its name
_FOR_IN = re.compile(r"\bfor\s+[\w\s,()]+?\s+in\s+(?:os\.)?$")
# what stands before ``environ`` that is the process's: ``os.``, ``_os.`` (not
# ``request.environ``), or nothing where the module imports ``environ`` from ``os``
_OS_DOT = re.compile(r"(?:^|[^\w.])_?os\.$")
_FROM_OS = re.compile(r"^[ \t]*from[ \t]+os[ \t]+import[ \t(]+[^\n]*\benviron\b", re.M)


def _process_environ(code: str, start: int, imported: list[bool]) -> bool:
    """Whether ``environ`` at offset ``start`` is the process's environment: ``os.environ``,
    or a bare ``environ`` in a module that imports it from ``os`` (``imported``: that
    answer, found once); not a WSGI application's ``environ`` parameter, nor
    ``request.environ``."""
    before = code[start - 1 : start]
    if before == ".":
        return _OS_DOT.search(code[max(0, start - 8) : start]) is not None
    if before.isalnum() or before == "_":
        return False  # part of a longer name (``wsgi_environ``)
    if not imported:
        imported.append(_FROM_OS.search(code) is not None)
    return imported[0]


@lru_cache(maxsize=512)
def _by_key(code: str) -> bool:
    """Whether ``code`` reads the environment with a key that is no string literal: a name
    from a table (pytorch-lightning's ``for key in rank_keys: os.environ.get(key)``,
    ``required.issubset(os.environ.keys())``); a write (``os.environ[key] = v``, a ``pop``
    whose value is not used) is none, nor is one in a comment or a docstring, a loop over
    every variable (``for k, v in os.environ.items()``), a presence test whose ``if``
    only warns or raises that the name is set (a table of variables no longer read), or a
    WSGI ``environ[key]`` (a parameter, not ``os.environ``)."""
    text = _Text(code)
    imported: list[bool] = []  # whether the module imports ``environ`` from ``os``
    for word in _READS:
        start = code.find(word)
        while start >= 0:
            if word == "environ" and not _process_environ(code, start, imported):
                start = code.find(word, start + len(word))
                continue
            match = _BY_KEY.match(code, start)
            if match is not None:
                if match.group(2) is not None:
                    pass  # ``os.environ[key] = value``: a write
                elif match.group(1) in ("environ.pop", "environ.setdefault") and _statement(
                    code, start
                ):
                    pass
                elif text.code_at(start):
                    return True
            elif word == "environ":
                begin = code.rfind("\n", 0, max(0, start - 40)) + 1
                if (
                    _BY_KEY_BEFORE.search(code, begin, start)
                    and not _FOR_IN.search(code, begin, start)
                    and not _presence_warned(code, start + len(word))
                    and text.code_at(start)
                ):
                    return True
            start = code.find(word, start + len(word))
    return False


def _quoted(code: str, wanted: Iterable[str]) -> set[str]:
    """Which of ``wanted`` ``code`` writes as a string literal of code (``"RANK"``; not in a
    comment or a docstring, nor inside another string)."""
    text: _Text | None = None
    found: set[str] = set()
    for name in wanted:
        start = code.find(name)
        while start >= 0:
            end = start + len(name)
            quote = code[start - 1 : start]
            if quote in ("'", '"') and code[end : end + 1] == quote:
                text = text or _Text(code)
                line = code.rfind("\n", 0, start - 1) + 1
                head = code[line : start - 1]
                if text.code_at(start - 1) and not (
                    ("'" in head or '"' in head) and without_comments(head)[1]
                ):
                    found.add(name)
                    break
            start = code.find(name, end)
    return found


def read_by_key(code: str | None, wanted: Iterable[str]) -> set[str]:
    """Which of the variables ``wanted`` ``code`` reads through a table of their names: it
    reads the environment by a key that is no literal and writes the name as a literal
    (pytorch-lightning's ``rank_keys = ("RANK", "LOCAL_RANK", …)``, read in a loop)."""
    if not code or not any(word in code for word in _READS):
        return set()
    wanted = [name for name in wanted if name in code]
    if not wanted or not _by_key(code):
        return set()
    return _quoted(code, wanted)


def names(code: str | None) -> set[str]:
    if not code or not any(word in code for word in _READS):
        return set()
    return set(_reads(code))


def relevant(path: str) -> bool:
    return path.endswith(".py") and not is_test_or_docs(path)


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may change the variables it reads."""
    return relevant(path) and (
        changed is None or "getenv" in changed or "environ" in changed or "lambda" in changed
    )


def detect(view: CommitView) -> list[ApiChange]:
    """The variables the commit stops reading anywhere in the repository: read before by a
    file it touches, read after by none of them, and by no other non-test file at the commit
    (one search of the files at the commit for such names: rare, and it needs no other
    commit, so a window can be scanned in any order and in parts). A file that reads the
    environment by a key from a table of names and writes the variable's name as a literal
    still reads it (``read_by_key``), the commit's own files after it too; the item's line
    is the old file's first read of it (not a docstring's mention above it)."""
    touched = [
        p
        for p in view.paths
        if wants(view.changed.get(p), p)
        or (relevant(p) and view.after.get(p) is None and names(view.before.get(p)))
    ]
    touched = shipped(view.repo, touched)
    if not touched:
        return []
    still: set[str] = set()
    lost: dict[str, str] = {}  # name -> the first touched file that read it
    for path in touched:
        after = names(view.after.get(path))
        still |= after
        for name in sorted(names(view.before.get(path)) - after):
            lost.setdefault(name, path)
    gone = [name for name in sorted(lost) if name not in still]
    for path in touched:
        if gone:
            keyed = read_by_key(view.after.get(path), gone)
            gone = [name for name in gone if name not in keyed]
    if not gone:
        return []
    elsewhere = _read_elsewhere(view, gone, touched)
    return [
        _removed(name, lost[name], view.before.get(lost[name]))
        for name in gone
        if name not in elsewhere
    ]


def _removed(name: str, path: str, before: str | None) -> ApiChange:
    """The item for ``name``, at the line of the first read of it in ``before``."""
    item = removed_from(RadarKind.ENV_VAR, name, path, before)
    at = _reads(before).get(name) if before else None
    if before is None or at is None:
        return item
    return replace(item, line=before.count("\n", 0, at) + 1)


def _read_elsewhere(view: CommitView, gone: list[str], touched: list[str]) -> set[str]:
    """Which of the variables ``gone`` a non-test file the commit did not touch reads
    after it, directly or through a table of names (one search for them all: a file that
    reads one names it as a word; each blob is read once per window,
    ``BlobReader.having``)."""
    if view.repo is None:
        return set()
    read: set[str] = set()
    for text in view.repo.blobs.having(
        view.sha,
        gone,
        lambda p: relevant(p) and p not in touched,
        ["*.py", *NOT_SHIPPED_PATHSPECS],
        _READS,
    ).values():
        read |= names(text)
        read |= read_by_key(text, [name for name in gone if name not in read])
    return read & set(gone)
