"""A module's API changes read only where its diff changed it.

A commit of a big module usually touches a few bodies. Instead of modelling both versions
whole, this reads the def and class headers (decorators and whole signatures) and the
class-level or module-level names that a removed line (before) or an added line (after) falls
in, names each by its enclosing classes (a scan up the indentation), and compares them; an
object found on one side only is looked up on the other side by its name. Lines are the
diff's own numbers (``@@ -a,b +c,d @@``), so nothing else of the module is scanned; a
version's lines are split once, and a version a patch made from its neighbour is not split
at all (:func:`~.patch.patched` made its lines from the neighbour's; a CRLF text is read
as LF lines, split again).

Used for ordinary modules (not a package ``__init__.py``, no ``__all__``, no module
``__getattr__``: what they export matters, ``pyapi`` reads them whole) whose changed lines
are known: from the patch, or, for a patch the source cut, the lines its hunks span (their
context too: a little more is read, the same is found); it gives the same
:class:`~pyapi.Breakage` list ``pyapi.compare`` would.
"""

from __future__ import annotations

import ast
import bisect
import keyword
import re
from collections.abc import Iterable, Iterator
from dataclasses import replace
from functools import lru_cache

from commitdigest.analysis.radar.kept import ByText
from commitdigest.analysis.radar.patch import lines_of
from commitdigest.analysis.radar.pyapi import (
    MODULE_BLOCK,
    TOP_LINE,
    TYPE_CHECKING_IF,
    Breakage,
    Obj,
    aliases_in,
    code_of,
    compare_objects,
    decorators_above,
    field_value_at,
    field_written_at,
    has_fields,
    header_text,
    import_bindings,
    imports_in,
    indent_of,
    iter_string_spans,
    private_name,
    signature_end,
    statement_end,
    word_char,
)

__all__ = [
    "bases_of",
    "derived_classes",
    "find",
    "imports_around",
    "imports_of",
    "in_a_string",
    "local_breakages",
    "subclasses",
]

_DEF = re.compile(r"[ \t]*(?:async[ \t]+)?(def|class)[ \t]+(\w+)")
_ATTR = re.compile(r"([ \t]*)([A-Za-z_]\w*)[ \t]*(?::[^=]*)?(?:=(?!=)|:[^=]*$)")
_LOOKBACK = 120  # lines above a changed line its header is looked for
_FAR = 4000  # lines up a long header's def is looked for (see header_covering)
_TOP_WALK = 400  # lines walked up to a line of top-level code before all are listed
_FIELD_LINES = 80  # lines up a field's first line is looked for from a line of its value
# an annotated assignment in a class body, whose value may run on: "    user: str = Field("
_FIELD_START = re.compile(r"[ \t]+[A-Za-z_]\w*[ \t]*:[^=\n]*=(?!=)")
# a def or class at the first column (matched at the line break before it)
_TOP_HEADER = re.compile(r"\n(?:async[ \t]+)?(?:def|class)[ \t]")
_SPACED_CLASS = re.compile(r"class(?:\t| [ \t])")  # a class written "class  Name" (or a tab)
# how a line that starts no statement at the margin starts (as ``TOP_LINE`` reads it)
_NOT_TOP = frozenset(("", " ", "\t", "#", '"', "'", *"()[]{}0123456789"))


def _passed(line: str, deep: int) -> bool:
    """Whether the walk up from a line of a field's value (:meth:`_Side._field_start`) goes
    past ``line`` as a matter of course: blank, a comment, or indented ``deep`` or more."""
    return not line.strip() or line.lstrip().startswith("#") or indent_of(line) >= deep


class _Side:
    """One version of the module, read around given lines only."""

    def __init__(self, text: str) -> None:
        """Its lines are the text's (:func:`~.patch.lines_of`: a version made by a patch
        has them already); no line's offset is counted (:meth:`_line_of` counts the line
        breaks up to an offset a search found)."""
        # CRLF lines read as LF lines (the same lines, as git numbers them): a blank "\r"
        # line is no top-level statement, and a CRLF -> LF conversion changes nothing
        if "\r" in text:
            self.text = text = text.replace("\r\n", "\n")
            self.lines = text.split("\n")
        else:
            self.text, self.lines = text, lines_of(text)
        self._qual: dict[int, str | None] = {}
        self._ends: dict[int, int] = {}  # header line -> the line its signature ends on
        self._tops: list[int] | None = None  # the lines that start with code, once listed
        self._top_walked = (-1, -1)  # the last walk up to such a line: its start, its answer
        # the lines inside each triple-quoted string (first, last), in order, as far as
        # the module was read for them: every string that opens on a line before
        # ``_strings_to`` is listed; the rest come from ``_more_strings`` (None: not begun)
        self._strings: list[tuple[int, int]] = []
        self._strings_to = -1
        self._more_strings: Iterator[tuple[int, int]] | None = None
        self._string_at = (0, 0)  # the last string's end offset read, and its line
        self._walked = (-1, -1)  # the last nearest_def(): its line, its answer
        # the last _field_start(): its line, class line, indent, and the field's start line
        self._field_walk = (-1, -1, -1, -1)
        self._counted = (0, 0)  # the last offset _line_of() was asked, and its line
        self._dataclass: dict[int, bool] = {}  # class header line -> dataclass-like
        self._spans: dict[str, list[tuple[int, int]]] = {}  # class -> where its members are
        self._spaced: bool | None = None  # whether a class may be written "class  Name"
        self._checks: bool | None = None  # whether it says TYPE_CHECKING at all

    def _is_def(self, i: int) -> bool:
        line = self.lines[i]
        return ("def " in line or "class " in line) and _DEF.match(line) is not None

    def nearest_def(self, i: int) -> int:
        """The def/class line at or above line index ``i``, at most :data:`_LOOKBACK` lines
        above it (-1: none): a walk up the lines (52 on average on vllm-ascend), which needs
        no line offsets. It stops at the line the last walk started from, whose answer holds
        below it: a commit's changed lines are asked in order, often several in a function."""
        lines = self.lines
        last, found = self._walked
        if last == i:
            return found  # (asked again: the run's first line, for a field's value)
        floor = last if last < i else -1  # the lines up to it were walked: found is theirs
        stop = i - _LOOKBACK  # the first line the header may start on
        for j in range(i, max(-1, stop - 1, floor), -1):
            line = lines[j]
            if ("def " in line or "class " in line) and _DEF.match(line) is not None:
                break
        else:  # none down to the last walk's start: its answer, if near enough
            j = found if floor >= 0 and found >= stop else -1
        self._walked = (i, j)
        return j

    def header_covering(self, i: int) -> int | None:
        """The def/class header whose decorators or signature hold line index ``i``."""
        lines = self.lines
        if i >= len(lines):
            return None
        if lines[i].lstrip().startswith("@"):
            for j in range(i, min(len(lines), i + 30)):
                if _DEF.match(lines[j]):
                    return j
                code = lines[j].strip() and not lines[j].lstrip().startswith(("@", "#"))
                if code and j > i and indent_of(lines[j]) <= indent_of(lines[i]):
                    return None
            return None
        j = self.nearest_def(i)  # (at most _LOOKBACK lines above)
        if j >= 0 and self.signature_end(j) >= i:
            return j
        # not that header's: line i is in its body, or below it (None), or deep in a long
        # header under the def of an example in its docstrings (typer documents each
        # parameter in place, with examples: 700 lines of ``Typer.__init__``)
        if j < 0:
            return None
        deep = indent_of(lines[i])  # (spaces or tabs: compared as written)
        if not deep or deep >= indent_of(lines[j]) or not self._in_string(j):
            return None  # in j's body, or below it
        k = self._outer_def(j, deep)  # j is an example's def (indented deeper)
        return k if k is not None and self.signature_end(k) >= i else None

    def _outer_def(self, i: int, indent: int) -> int | None:
        """The def/class line above line index ``i`` indented less than ``indent`` and not
        in a string, up to :data:`_FAR` lines up; None where top-level code comes first."""
        lines = self.lines
        for k in range(i - 1, max(-1, i - _FAR), -1):
            line = lines[k]
            if ("def " in line or "class " in line) and _DEF.match(line) is not None:
                if indent_of(line) < indent and not self._in_string(k):
                    return k
            elif line[:1] not in _NOT_TOP and line[:1] != "@" and not self._in_string(k):
                return None  # a top-level statement holds line i
        return None

    def signature_end(self, j: int) -> int:
        """The line index where the header starting at line index ``j`` ends (its ``:``),
        found once per header."""
        end = self._ends.get(j)
        if end is None:
            end = self._ends[j] = signature_end(self.lines, j)
        return end

    def qualname(self, i: int) -> str | None:
        """``Outer.Inner.name`` of the header at line index ``i``; None inside a function."""
        if i in self._qual:
            return self._qual[i]
        m = _DEF.match(self.lines[i])
        if m is None:
            return None
        parent = self._enclosing(i, indent_of(self.lines[i]))
        if parent is None:
            qual: str | None = m.group(2)
        else:
            kind, j = parent
            outer = self.qualname(j) if kind == "class" else None
            qual = f"{outer}.{m.group(2)}" if outer else None
        self._qual[i] = qual
        return qual

    def _enclosing(self, i: int, indent: int) -> tuple[str, int] | None:
        """The nearest def/class above line ``i`` with a smaller indent, if any."""
        if indent == 0:
            return None
        if indent <= 4:  # usually a method: its class is the last top-level line above
            t = self._top_above(i)
            if t >= 0:
                top = self.lines[t]
                m = _DEF.match(top) if ("def " in top or "class " in top) else None
                if m is not None and not top[:1].isspace():
                    return m.group(1), t
                if top.startswith(("@", ")", "]", "}")) or self._in_string(t):
                    pass  # a decorator, a closing bracket, or a line of a string written
                    # at the margin (SQLAlchemy's SQL in a method): look the slow way
                else:
                    return None  # a module-level statement (if/try/with) holds it
        lines = self.lines
        for j in range(i - 1, -1, -1):
            line = lines[j]
            if not line[:indent].strip():
                continue  # blank, or indented at least as deep
            stripped = line.strip()
            if stripped.startswith("#") or stripped[:1] in (")", "]", "}"):
                continue  # a comment, or the line that closes a bracket (the ") -> X:" of a
                # signature): no statement of an enclosing block
            if self._in_string(j):
                continue  # a string's line, however it is indented
            ind = indent_of(line)
            m = _DEF.match(line) if ("def " in line or "class " in line) else None
            if m is not None:
                return m.group(1), j
            if ind == 0:
                return None
            indent = ind  # a statement block (if/try/with) of the enclosing scope
        return None

    def _top_above(self, i: int) -> int:
        """The last line above line index ``i`` that starts with code (-1: none): a walk up
        the lines, down to the line the last walk started from (whose answer holds below
        it: the lines are asked in order); past :data:`_TOP_WALK` lines, every such line of
        the module, found by one search."""
        if self._tops is None:
            lines = self.lines
            last, found = self._top_walked
            floor = last if last < i else -1  # the lines up to it were walked: found is theirs
            lowest = max(floor, i - _TOP_WALK, 0)
            for j in range(i - 1, lowest - 1, -1):
                head = lines[j][:1]
                if head not in _NOT_TOP and (head != "\r" or not j):
                    break
            else:
                if floor >= 0 and lowest == floor:
                    j = found
                elif lowest == 0:
                    j = -1  # the module's first line reached
                else:  # a long way up: every such line, listed once
                    return self._top_listed(i)
            self._top_walked = (i, j)
            return j
        return self._top_listed(i)

    def _top_listed(self, i: int) -> int:
        """:meth:`_top_above` from the list of every line that starts with code."""
        if self._tops is None:  # found by one search
            text = self.text
            tops = [0] if self.lines[0][:1] not in _NOT_TOP else []
            at = line = 0  # the line breaks in text[:at]
            for m in TOP_LINE.finditer(text):  # (each match starts with a line break)
                line += text.count("\n", at, m.start()) + 1
                at = m.start() + 1
                tops.append(line)
            self._tops = tops
        t = bisect.bisect_left(self._tops, i) - 1
        return self._tops[t] if t >= 0 else -1

    def obj_at(self, j: int) -> Obj | None:
        """The object whose header starts at line index ``j``; None for a def or class of
        an example in a docstring (pydantic's ``WrapSerializer`` shows ``class EventDatetime``)."""
        qual = self.qualname(j)
        if qual is None or self._in_string(j):
            return None
        decorators = self._decorators(j)
        m = _DEF.match(self.lines[j])
        if m is None:
            return None
        kind = m.group(1)
        plain = [d.split("(")[0] for d in decorators]
        if any(d.endswith("overload") for d in plain):
            return None  # a typing overload: the implementation is the API (its header,
            # 140 lines of openai-python's ``create``, is not read)
        end = self.signature_end(j)
        header = header_text(self.lines[j : end + 1])
        if (
            kind == "def"
            and "." in qual
            and any(d.endswith(("property", "cached_property")) for d in plain)
        ):
            return Obj(qual, "attribute", j + 1, decorators=decorators)
        return Obj(
            qual,
            "class" if kind == "class" else "function",
            j + 1,
            decorators=decorators,
            overrides=any(d.endswith("override") for d in plain),
            header=header,
        )

    def _decorators(self, j: int) -> tuple[str, ...]:
        lines = self.lines
        return decorators_above((lines[k] for k in range(j - 1, -1, -1)), indent_of(lines[j]))

    def attribute_at(self, i: int, public: bool = False, qual: str | None = None) -> Obj | None:
        """A module-level name or a class-level attribute assigned at line index ``i``;
        ``public``: None for a private one (no more is asked of it); ``qual``: None for
        another than ``qual`` (a field's value is not read for it)."""
        line = self.lines[i]
        head = line[:1]
        if head in (" ", "\t"):  # in a class body: only upper-case names and fields are
            stripped = line.lstrip()  # read at a changed line (any name, when asked for)
            if ":" not in line and not stripped[:1].isupper() and qual is None:
                return None
        elif not (head.isalpha() or head == "_"):
            return None
        m = _ATTR.match(line)
        if m is None or keyword.iskeyword(m.group(2)):  # else:, try: …
            return None
        indent = len(m.group(1).expandtabs())
        name = m.group(2)
        constant = name[0].isupper() and name.upper() == name
        if (
            indent
            and not constant
            and ":" not in line.split("=")[0]
            and (qual is None or self._continues(i))
        ):
            return None  # in a class body: upper-case constants and annotated fields only
            # (asked for by name, any a statement assigns: marshmallow's ``set_class``
            # property became ``set_class = OrderedSet``, still ``schema.set_class``; not an
            # argument of a call written over several lines)
        if public and private_name(name):
            return None
        if qual is not None and ("." in qual if indent == 0 else "." not in qual and indent > 4):
            return None  # (a class's member is indented; a module's name is not, or is a
            # module-level block's)
        if self._in_string(i):
            return None  # a docstring's "Name: text" (the dearer test after the cheap ones)
        if indent == 0:
            return Obj(name, "attribute", i + 1)
        parent = self._enclosing(i, indent)
        if parent is None and indent <= 4 and self._in_module_block(i):
            return Obj(name, "attribute", i + 1)  # defined by a module-level if/try/with
        if parent is None or parent[0] != "class":
            return None
        outer = self.qualname(parent[1])
        if not outer or (public and private_name(outer)):
            return None
        if qual is not None and qual != f"{outer}.{name}":
            return None
        if ":" in line.split("=")[0] and self._fields(parent[1]):  # a field: its default
            value = field_value_at(self.lines, i)
            if value is not None:
                return Obj(
                    f"{outer}.{name}", "attribute", i + 1,
                    value=value, field=True, decorators=("annotated",),
                    written=field_written_at(self.lines, i),
                )  # fmt: skip
        return Obj(f"{outer}.{name}", "attribute", i + 1)

    def _continues(self, i: int) -> bool:
        """Whether line index ``i`` goes on a statement above it: the code line above ends
        in an open bracket, a comma or a backslash (a keyword argument of a call written
        over several lines, ``name: str = field(`` / ``default='x',``, is no assignment)."""
        for k in range(i - 1, max(-1, i - 40), -1):
            code = code_of(self.lines[k]).rstrip()
            if code:
                return code.endswith(("(", "[", "{", ",", "\\"))
        return False

    def _fields(self, j: int) -> bool:
        """Whether the class whose header starts at line index ``j`` is dataclass-like (its
        annotated attributes are its constructor's parameters), once per class."""
        known = self._dataclass.get(j)
        if known is None:
            qual = self.qualname(j)
            known = False  # (no private class's member is reported: its header is not read)
            if qual is not None and not private_name(qual):
                header = header_text(self.lines[j : self.signature_end(j) + 1])
                decorators = self._decorators(j)
                known = has_fields(Obj(qual, "class", j + 1, decorators=decorators, header=header))
            self._dataclass[j] = known
        return known

    def objects_at(self, numbers: Iterable[int]) -> dict[str, Obj]:
        """The public objects the 1-based lines ``numbers`` fall in (headers and
        attributes): a private one is never reported, so none is read.

        A run of consecutive lines needs one look up the file (the header covering its
        first line); inside the run only its own def/class lines and assignments count."""
        found: dict[str, Obj] = {}
        seen: set[int] = set()
        lines = self.lines

        def keep(obj: Obj, i: int) -> None:  # (the first, but a run-time one over a stub)
            stub = self.typing_only(i)
            known = found.get(obj.qualname)
            if known is None or (known.typing_only and not stub):
                found[obj.qualname] = replace(obj, typing_only=True) if stub else obj

        def header(j: int) -> None:
            if j not in seen:
                seen.add(j)
                qual = self.qualname(j)
                if qual is None or private_name(qual):
                    return
                obj = self.obj_at(j)
                if obj is not None:
                    keep(obj, j)

        previous = -2
        open_until = -1  # the covering header's signature runs up to this line
        near = -2  # the def or class line nearest above the run's lines (-2: not asked yet)
        in_fields = False  # and whether it is a dataclass-like class's
        count = len(lines)
        for n in sorted(numbers):
            i = n - 1
            if not 0 <= i < count:
                continue
            line = lines[i]
            if i != previous + 1 or ("@" in line and line.lstrip().startswith("@")):
                j = self.header_covering(i)
                open_until = -1
                near = -2
                if j is not None:
                    header(j)
                    open_until = self.signature_end(j)
            previous = i
            if i <= open_until:
                continue
            attr = None
            if (
                line[:1] in (" ", "\t")
                and ":" not in line
                and "def " not in line
                and "class " not in line
                and not line.lstrip()[:1].isupper()
            ):
                pass  # a body line: no header, no attribute (the tests below, inlined)
            elif self._is_def(i):
                header(i)
                open_until = self.signature_end(i)
                near = -2  # the lines after it are its body's
                continue
            else:
                attr = self.attribute_at(i, public=True)
            if attr is None and line[:1] in (" ", "\t"):  # a later line of a field's value?
                if near == -2:  # (asked once a run)
                    near = self.nearest_def(i)
                    header_of = _DEF.match(lines[near]) if near >= 0 else None
                    in_fields = (
                        header_of is not None
                        and header_of.group(1) == "class"
                        and self._fields(near)
                    )
                if in_fields:
                    attr = self._field_over(i, near)
            if attr is not None:
                keep(attr, i)
        for qual, obj in list(found.items()):  # a stub's change: the run-time definition
            if obj.typing_only:  # written elsewhere, if any, is what users have
                found[qual] = self.find(qual) or obj
        return found

    def _field_over(self, i: int, j: int) -> Obj | None:
        """The field whose value line index ``i`` is a later line of (``user: str =
        Field(`` / ``'guest',`` / ``)``), in the body of a dataclass-like class (``j``: the
        def or class line nearest above ``i``, a dataclass-like class); None for any
        other line (:meth:`_field_start` finds where it would start)."""
        lines = self.lines
        k = self._field_start(i, j)
        if k < 0 or statement_end(lines, k) < i:
            return None
        attr = self.attribute_at(k, public=True)
        return attr if attr is not None and attr.field else None

    def _field_start(self, i: int, j: int) -> int:
        """Up from line index ``i`` (below ``j``, at most :data:`_FIELD_LINES` lines), past
        the lines of brackets opened in a value (``default_factory=lambda: dict(``) and of
        strings, to the first line that starts an annotated assignment; -1: none.

        A walk that passes the lines down to where the last walk (from a line above, as
        deep) started goes on as that walk went: its answer is the one found there, when it
        lies in reach. The lines of a docstring under a field (openai-python's models
        document each field so) were each walked up to the class before, eighty lines a
        line."""
        lines = self.lines
        line = lines[i]
        deep = indent_of(line) + (line.lstrip()[:1] in (")", "]", "}"))
        low = max(j, i - _FIELD_LINES)  # the walk reads the lines above low
        last, last_j, last_deep, found = self._field_walk
        if last_j == j and last_deep == deep and low <= last < i:
            for n in range(i - 1, last - 1, -1):
                if not _passed(lines[n], deep):
                    break  # (not passed as a matter of course: walked)
            else:  # lines i-1 .. last are passed: the walk from last follows
                k = found if found > low else -1
                self._field_walk = (i, j, deep, k)
                return k
        start_deep = deep
        k = -1
        for n in range(i - 1, low, -1):
            above = lines[n]
            if _passed(above, deep):
                continue
            if self._in_string(n):
                continue  # (a string's line written at the margin)
            if _FIELD_START.match(above):
                k = n
                break
            deep = indent_of(above)  # a line of the value, its brackets nested less deep
        self._field_walk = (i, j, start_deep, k)
        return k

    def find(self, qual: str) -> Obj | None:
        """``qual`` anywhere in this version (looked up by its last name): a ``def``, then a
        ``class``, then an assignment of that name, each in the order written. One search
        for the name finds all three (three searches of the module before). A member of a
        class is looked for below the first place its class is written ``class Name`` only
        (openai-python's models each have a ``type`` field: its every ``type`` was read for
        one)."""
        *outer, name = qual.rsplit(".", 2)
        if not name.isidentifier():
            return None  # (an empty name is found everywhere)
        text = self.text
        defs: list[int] = []  # where "def name" / "class name" starts
        classes: list[int] = []
        names: list[int] = []  # the name where a line's code may start
        size = len(text)
        for start, stop in self._class_spans(outer[-1]) if outer else ((0, size),):
            while (pos := text.find(name, start, stop)) >= 0:
                start = end = pos + len(name)
                head = text[max(0, pos - 6) : pos]
                if head.endswith(("def ", "class ")):
                    if end < size and word_char(text[end]):
                        pass  # a longer name
                    elif head.endswith("def "):
                        defs.append(pos - 4)
                    else:
                        classes.append(pos - 6)
                elif not pos or text[pos - 1] in " \t\n":  # (an earlier one on its line was)
                    names.append(pos)
        stub = None  # a type checker's (under ``if TYPE_CHECKING:``), if no other is written
        for pos in (*defs, *classes):
            i = self._line_of(pos)
            if _DEF.match(self.lines[i]) and self.qualname(i) == qual:
                obj = self.obj_at(i)
                if obj is not None:
                    if not self.typing_only(i):
                        return obj
                    stub = stub or replace(obj, typing_only=True)
        for pos in names:
            i = self._line_of(pos)
            if self.lines[i].lstrip().startswith(name):
                attr = self.attribute_at(i, qual=qual)
                if attr is not None and attr.qualname == qual:
                    if not self.typing_only(i):
                        return attr
                    stub = stub or replace(attr, typing_only=True)
        return stub

    def typing_only(self, i: int) -> bool:
        """Whether line index ``i`` is in a module-level ``if TYPE_CHECKING:`` block (its
        else-block is what runs): Sphinx writes ``class ALL: ...`` there for the type
        checker, and ``ALL = _All('ALL')`` under ``else:``."""
        if self.lines[i][:1] not in (" ", "\t"):
            return False
        if self._checks is None:
            self._checks = "TYPE_CHECKING" in self.text
        if not self._checks:
            return False
        t = self._top_above(i)
        return t >= 0 and TYPE_CHECKING_IF.match(self.lines[t]) is not None

    def _class_spans(self, cls: str) -> list[tuple[int, int]]:
        """Where a member of class ``cls`` can be written: from each place ``class cls``
        is written (a header or not) to the next def or class at the first column, which
        no string holds (the class's body ends there, if not before). A module of many
        classes names each ``forward`` or ``__init__`` once per class: each was read for
        one (a quarter of diffusers' scan). The whole text where a class may be written
        ``class  cls`` or with a tab; nowhere where it is not written."""
        spans = self._spans.get(cls)
        if spans is None:
            text = self.text
            if self._spaced is None:  # (once a version)
                self._spaced = _SPACED_CLASS.search(text) is not None
            if self._spaced:
                spans = [(0, len(text))]
            else:
                spans = []
                at = text.find(f"class {cls}")
                while at >= 0:
                    stop = len(text)
                    for m in _TOP_HEADER.finditer(text, at):
                        end = m.start() + 1
                        if not self._in_string(self._line_of(end)):
                            stop = end
                            break
                    spans.append((at, stop))
                    at = text.find(f"class {cls}", stop)
                # none: no line is its header (one would be written "class Name", or spaced),
                # none of its members is here (a class new in a commit was looked up in the
                # version before it: diffusers' dummy-objects modules define ``__init__``,
                # ``from_config`` and ``from_pretrained`` in each of their 200 classes)
            self._spans[cls] = spans
        return spans

    def _in_module_block(self, i: int) -> bool:
        """Whether line index ``i`` is a statement of a module-level ``if``/``try``/
        ``with`` block (``if sys.platform == "win32":`` / ``else:``), not of an
        ``if TYPE_CHECKING:`` one: what it assigns is the module's."""
        t = self._top_above(i)
        return t >= 0 and MODULE_BLOCK.match(self.lines[t]) is not None

    def _in_string(self, i: int) -> bool:
        """Whether line index ``i`` starts inside a triple-quoted string (after its opening
        quotes, before its closing ones). The module's strings are read from its top down
        to line ``i`` only, and on from there when a later line is asked (a module of
        650 KB, huggingface_hub's ``hf_api.py``, was read to its end for each version)."""
        if self._strings_to < i:
            self._read_strings(i)
        strings = self._strings
        if not strings:
            return False
        k = bisect.bisect_right(strings, (i, 1 << 62)) - 1
        return k >= 0 and i <= strings[k][1]

    def _read_strings(self, i: int) -> None:
        """List the strings that open on a line up to line index ``i`` (and the next one)."""
        text = self.text
        if self._more_strings is None:
            self._more_strings = iter_string_spans(text)
        at, line = self._string_at  # (its own count of line breaks: the searches between
        # two reads ask _line_of() for earlier offsets)
        for a, b in self._more_strings:
            opens = line + text.count("\n", at, a)
            closes = opens + text.count("\n", a, b - 1)
            at, line = b - 1, closes
            if opens + 1 <= closes:  # a string at offsets [a, b) holds the lines that start
                self._strings.append((opens + 1, closes))  # after a and before b
            if opens >= i:
                self._strings_to = opens
                break
        else:
            self._strings_to = len(self.lines)
        self._string_at = (at, line)

    def _line_of(self, pos: int) -> int:
        """The 0-based line of character offset ``pos``: the line breaks before it, counted
        on from the offset asked last when ``pos`` is past it (a search's hits and the
        strings come in order), else from the start. (A list of every line's offset cost
        a pass over the lines, for a few offsets asked.)"""
        at, line = self._counted
        if pos < at:
            at = line = 0
        line += self.text.count("\n", at, pos)
        self._counted = (pos, line)
        return line


_CACHED = 256
_SIDES: ByText[_Side] = ByText(_CACHED)  # the last versions read, by text object


def _side(text: str) -> _Side:
    """One reading of a version (a file touched by neighbouring commits is read once)."""
    side = _SIDES.get(text)
    if side is None:
        side = _Side(text)
        _SIDES.put(text, side)
    return side


def local_breakages(
    before: str, after: str, removed: frozenset[int], added: frozenset[int]
) -> list[Breakage]:
    """The API changes of one module between ``before`` and ``after``, read only around the
    changed lines (see the module)."""
    old, new = _side(before), _side(after)
    old_local = old.objects_at(removed)
    new_local = new.objects_at(added)
    pairs: dict[str, tuple[Obj | None, Obj | None]] = {}
    for qual, obj in old_local.items():
        pairs[qual] = (obj, new_local.get(qual) or new.find(qual))
    for qual, obj in new_local.items():
        if qual not in pairs:
            pairs[qual] = (old.find(qual), obj)
    gone = {q for q, (_, obj) in pairs.items() if obj is None}
    imports: dict[str, str] | None = None

    def provides(name: str) -> bool:
        nonlocal imports
        if imports is None:  # a removed top-level name: was it moved and imported back?
            imports = imports_in(after)
        return name in imports

    return compare_objects(
        pairs,
        provides,
        lambda parent: parent not in gone,
        lambda name: aliases_in(after).get(name),  # (read only for a class turned a name)
        new.find,
        lambda: (imports_of(before), imports_of(after)),
    )


_DEFINES = ("def ", "async def ", "class ", "@")  # how a def or class statement starts


def imports_around(text: str, numbers: Iterable[int]) -> dict[str, str] | None:
    """What the import statements at the module's first column that hold 1-based lines
    ``numbers`` bind ({name: what it names}, each statement parsed alone: ``from .core
    import (  # noqa (re-exports)`` and the names under it), where every other line is a
    line of a def or class statement there (its decorators, header or body: what such a
    line binds is the function's or the class's, never the module's); None where a line
    is neither, or where such a statement holds more than imports (``import a; LIMIT =
    3``) or imports ``*``. A line's statement is the last line at or above it that starts
    with code, no string holding it."""
    side = _side(text)
    lines = side.lines
    ends: dict[int, int] = {}  # the import statements' first lines -> their last
    for n in numbers:
        t = _statement_at(side, n - 1)
        if t is None:
            return None
        if not lines[t].startswith(_DEFINES):
            if _IMPORT_HEAD.match(lines[t]) is None:
                return None
            if t not in ends:
                ends[t] = statement_end(lines, t)
            if n - 1 > ends[t] and lines[n - 1].strip()[:1] not in ("", "#"):
                return None  # (code past the import's own lines)
    found: dict[str, str] = {}
    for t, end in sorted(ends.items()):
        try:
            body = ast.parse("\n".join(lines[t : end + 1])).body
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        for node in body:
            if not isinstance(node, ast.Import | ast.ImportFrom):
                return None
            base = (  # (a relative one's dots kept: both versions read alike)
                "." * node.level + (node.module or "") if isinstance(node, ast.ImportFrom) else ""
            )
            for bound, target in import_bindings(node, base):
                if bound == "*":
                    return None
                found[bound] = target
    return found


def _statement_at(side: _Side, i: int) -> int | None:
    """The line index of the statement at the first column that holds line index ``i``
    (the last line at or above it that starts with code, no string holding it); None
    where there is none, or where line ``i`` may start a statement of its own that a line
    starting with code is not read as (``(LIMIT, DEPTH) = …`` at the first column)."""
    lines = side.lines
    if not 0 <= i < len(lines):
        return None
    if lines[i][:1] in _MAY_START and not side._in_string(i):
        return None
    t = i if lines[i][:1] not in _NOT_TOP else side._top_above(i)
    return None if t < 0 or side._in_string(t) else t


# how a line at the first column that is not read as starting with code may start a
# statement all the same (a bracket, a string, a number)
_MAY_START = frozenset("([{\"'0123456789")


_IMPORT_HEAD = re.compile(r"(?:from|import)[ \t(\\]")  # how an import statement starts


def in_a_string(text: str, number: int) -> bool:
    """Whether 1-based line ``number`` of a module's source starts inside a triple-quoted
    string (a docstring's example: ``    from fractions import Fraction``)."""
    return _side(text)._in_string(number - 1)


def qualname_at(text: str, i: int) -> str | None:
    """``Outer.name`` of the def or class whose header starts at line index ``i`` of a
    module's source (None: no header there, or one inside a function)."""
    side = _side(text)
    return side.qualname(i) if 0 <= i < len(side.lines) else None


def find(text: str, qual: str) -> Obj | None:
    """The object ``qual`` (``Cls.meth``, ``func``) of a module's source, if it has one."""
    return _side(text).find(qual)


@lru_cache(maxsize=256)  # (asked again for each method and each class that derives from it)
def bases_of(text: str, cls: str) -> tuple[str, ...] | None:
    """The base classes of class ``cls`` as written (None: no such class)."""
    obj = _side(text).find(cls)
    if obj is None or obj.kind != "class":
        return None
    signature = obj.signature()  # (None: a header that does not read, no bases known)
    return tuple(re.sub(r"\[.*\]$", "", b).strip() for b in signature[1]) if signature else ()


@lru_cache(maxsize=256)
def imports_of(text: str) -> dict[str, str]:
    """The names a module's imports bind, by the text (its import statements only)."""
    return imports_in(text)


# matched in "\n" + the text: tried at each newline, not at every character of it
_CLASS_BASES = re.compile(r"\nclass[ \t]+(\w+)[ \t]*\(([^)]*)")


@lru_cache(maxsize=256)
def _top_classes(text: str) -> list[tuple[str, frozenset[str]]]:
    """The top-level classes of a module that name bases, each with the words of its
    bases as written (``(A, mod.B[T])``: A, mod, B, T)."""
    return [
        (m.group(1), frozenset(re.findall(r"\w+", m.group(2))))
        for m in _CLASS_BASES.finditer("\n" + text)
    ]


def derived_classes(text: str) -> set[str]:
    """The top-level classes of a module that name bases (one regex pass, cached)."""
    return {name for name, _ in _top_classes(text)}


def subclasses(text: str, cls: str) -> list[str]:
    """The top-level classes of a module whose bases name ``cls`` (a word of them)."""
    return [name for name, words in _top_classes(text) if cls in words]
