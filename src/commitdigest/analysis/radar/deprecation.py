"""New deprecations in non-test code: ``DeprecationWarning``/``FutureWarning`` raised or
``@deprecated`` added (a warning for users, not a break), or a call, inside a def, of a
project's deprecation helper with a string literal among its arguments (Lightning's
``rank_zero_deprecation("`LightningModule.to_torchscript` has been deprecated …")``,
diffusers' ``deprecate("scale", "1.0.0", message)``). A helper's own definition (a def
that passes one of its parameters on as the message, or whose name says it deprecates)
deprecates nothing itself."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from functools import lru_cache

from commitdigest.analysis.radar.kept import ByText
from commitdigest.analysis.radar.models import (
    ApiChange,
    CommitView,
    RadarKind,
    is_own_python,
    is_private_module,
)
from commitdigest.analysis.radar.public import PublicSurface, module_name, public_surface
from commitdigest.analysis.radar.pyapi import (
    binds_at_top,
    code_of,
    header_params,
    header_text,
    in_spans,
    indent_of,
    not_code_at_end,
    private_name,
    signature_end,
    string_spans,
)
from commitdigest.facts import ApiChangeType, Visibility

# a deprecation helper, by its name: Lightning's ``rank_zero_deprecation``, diffusers'
# ``deprecate``, ``warn_deprecated``, ``_deprecated_warning``, ``deprecation_warning`` (not
# what asks or lists: ``is_deprecated``, ``get_deprecated_keys``, ``_deprecated_names``)
_HELPER_NAME = (
    r"(?!_*(?:is|has|get|check|find|list|filter|iter|collect|load|set|show|print|register)_)"
    r"_*(?:(?:\w+_)?(?:deprecate|deprecation|deprecated)(?:_(?:warn|warning|message|msg|notice))?"
    r"|warn_\w*deprecat\w*)"
)
# a statement that calls one (its result maybe kept: diffusers' ``x = deprecate(…,
# take_from=kwargs)``), by its bare or dotted name
_HELPER_CALL = re.compile(
    rf"^[ \t]*(?:return[ \t]+|[\w.]+[ \t]*=[ \t]*)?(?:[\w.]+\.)?{_HELPER_NAME}[ \t]*\(", re.M
)
_MARK = re.compile(
    r"DeprecationWarning|FutureWarning|PendingDeprecationWarning|@deprecated\b|\bdeprecated\("
    rf"|{_HELPER_CALL.pattern}",
    re.M,
)
_NAME = re.compile(
    r"""["'`]([A-Za-z_][\w.]*)(?:\(\)|=[^"'`\n]*)?["'`]"""
    r"""(?:\s+(?:attribute|argument|parameter|option|function|method|class|module|property"""
    r"""|keyword|field|alias|setting)(?:\s+(?:to|of|for|in)\s+[\w.]+(?:\(\))?)?)?"""
    r"""\s*(?:is|was|has been|is being|are)?\s*(?:now\s+)?deprecated"""
    r"""|deprecated\s+(?:\w+\s+){0,2}["'`]([A-Za-z_][\w.]*)""",
    re.I,
)
# an unquoted ``name=`` or ``name()`` in a message ("per-request cookies=<...> is deprecated");
# not the end of a name an f-string puts together (Scrapy's ``{method}_async()``: "_async")
_BARE = re.compile(r"(?<![\w.}])([A-Za-z_][\w.]*)(?:=|\(\))")
_DEF = re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+([A-Za-z_]\w*)\s*([(:]?)")
_PARAM = re.compile(r"[(,]\s*(\*?\*?)([A-Za-z_]\w*)")
_CALLED = re.compile(r"\s+(?:argument|parameter|keyword)\b")  # after a quoted name
_IMPORT = re.compile(r"\s*(?:from\s+\S+\s+)?import\s")
_STRING = re.compile(r"""[rbfuRBFU]{0,2}("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""")

__all__ = ["detect", "message_near", "messages", "wants"]


def wants(changed: str | None, path: str) -> bool:
    """Whether a commit's changed lines of ``path`` may add a deprecation."""
    return is_own_python(path) and (changed is None or _says_deprecated(changed))


def _maybe_marked(text: str) -> bool:
    """A fast substring test before the regex (most modules deprecate nothing)."""
    return "eprecat" in text or "FutureWarning" in text


def _says_deprecated(lines: str) -> bool:
    """Whether changed lines hold a deprecation marker: the regex is tried on the lines
    that hold "eprecat" or "FutureWarning" only (every marker holds one, on one line). On
    the whole text it scanned vllm-ascend's 12 weeks of changed lines in a quarter second,
    and a 300-file commit of openai-python's, whose docstrings say "deprecated", in 75 ms."""
    for start in _marker_lines(lines):
        end = lines.find("\n", start)
        if _MARK.search(lines, start, end if end >= 0 else len(lines)) is not None:
            return True
    return False


def _marker_lines(text: str) -> list[int]:
    """Where each line that holds "eprecat" or "FutureWarning" starts, in order (found with
    ``str.find``): every marker holds one of them, on one line."""
    starts: set[int] = set()
    for needle in ("eprecat", "FutureWarning"):
        pos = text.find(needle)
        while pos >= 0:
            starts.add(text.rfind("\n", 0, pos) + 1)
            pos = text.find(needle, pos + len(needle))
    return sorted(starts)


def _marks(text: str | None) -> list[tuple[int, str]]:
    """(line number, line) of every line with a deprecation marker."""
    return [(n, line) for _, n, line in _marked(text or "")]


def _marked(text: str) -> list[tuple[int, int, str]]:
    """(offset, line number, line) of every line with a deprecation marker: the lines that
    hold "eprecat" or "FutureWarning" (found with ``str.find``), tested with the marker
    regex."""
    out: list[tuple[int, int, str]] = []
    if not _maybe_marked(text):
        return out
    line_no, counted = 1, 0
    strings: list[tuple[int, int]] | None = None  # the triple-quoted ones, once asked
    for start in _marker_lines(text):
        end = text.find("\n", start)
        line = text[start : end if end >= 0 else None]
        m = _MARK.search(line)
        if m is not None and strings is None:
            strings = string_spans(text)
        if (
            m is None
            or not_code_at_end(line[: m.start()])
            or in_spans(strings or [], start + m.start())
            or _in_categories(line, m.start())
            or _imports(text, start, line)
            or _filters(text, start, line)
            or _DEFINES_MARKER.match(line)
            or ((h := _HELPER_CALL.match(line)) and not _literal_argument(text, start + h.end()))
        ):
            continue  # no marker, words of a message ("Deprecat…") or of a comment ("# it
            # raises a FutureWarning … we can't have this warning raised"), of a docstring
            # (its example's ``deprecate("size", "2.0", msg)``, or "Raises a
            # FutureWarning"; any string of several lines), an import, a
            # filter ("filterwarnings('always', category=DeprecationWarning)"), or the
            # marker's own definition (Scrapy's ``def deprecated(use_instead: Callable[_P,
            # _T])`` overloads deprecated "_P" and "def deprecated("), or a warning class's,
            # or a helper's call with no string literal (a wrapper passing its message on)
        line_no += text.count("\n", counted, start)
        counted = start
        out.append((start, line_no, line))
    return out


# a tuple of warning categories (``(DeprecationWarning, PendingDeprecationWarning,
# FutureWarning)``): what a check catches or tests for, no warning given
_CATEGORIES = re.compile(r"\(\s*(?:[\w.]*Warning\s*,\s*)+[\w.]*Warning\s*,?\s*\)")


def _in_categories(line: str, at: int) -> bool:
    """Whether the marker at offset ``at`` of ``line`` is a category of such a tuple
    (pytest's ``deprecated_call`` keeps ``dep_warnings = (DeprecationWarning, …)`` to check
    for them: "deprecated ``pytest.deprecated_call``")."""
    return "," in line and any(m.start() < at < m.end() for m in _CATEGORIES.finditer(line))


def _literal_argument(text: str, at: int) -> bool:
    """Whether the call whose arguments start at offset ``at`` of ``text`` (just after its
    ``(``) holds a string literal among them (read up to its closing parenthesis)."""
    depth, i, end = 1, at, min(len(text), at + 4000)
    while i < end:
        c = text[i]
        if c in "\"'":
            return True
        if c == "#":
            i = text.find("\n", i)
            if i < 0:
                return False
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return False
        i += 1
    return False


_NAME_LINE = re.compile(r"\s*[\w.]+(?:\s+as\s+\w+)?\s*,?\s*(?:#.*)?$")
# the marker's own definition, or a warning class's (Sphinx's ``class
# RemovedInSphinx10Warning(PendingDeprecationWarning):`` deprecates nothing itself)
_DEFINES_MARKER = re.compile(
    r"\s*(?:(?:async\s+)?(?:def|class)\s+deprecated\b"
    r"|class\s+\w+\s*\([^)]*(?:Deprecation|Future)Warning\b)"
)


def _imports(text: str, start: int, line: str) -> bool:
    """Whether ``line``, at offset ``start``, imports (``from x import PkgDeprecationWarning``,
    or a name line of ``from x import (`` … ``)``) rather than warns."""
    if _IMPORT.match(line):
        return True
    if not _NAME_LINE.match(line):
        return False
    for above in _lines_above(text, start, 50):  # up the names of a parenthesised import
        if _IMPORT.match(above):  # (or of a call's arguments)
            return above.rstrip().endswith("(")
        if not _NAME_LINE.match(above):
            return False
    return False


# what shows, hides, catches or tests warnings: a marker in its call deprecates nothing
_FILTERS = re.compile(
    r"filterwarnings|simplefilter|catch_warnings|\bwarns\(|assertWarns|deprecated_call"
    r"|\bexcept\b|\bisinstance\(|\bissubclass\("
)


def _filters(text: str, start: int, line: str) -> bool:
    """Whether ``line``, at offset ``start``, is part of a call that filters or catches
    warnings (pytest's ``warnings.filterwarnings("always", category=DeprecationWarning)``
    made the method it is in "deprecated"): the line itself, or the lines above it that
    open its call (ending with ``(``, ``,`` or ``=``, or only strings), read as code."""
    code = code_of(line).strip()  # the code of a line ("all … except `x` …": words)
    above = _lines_above(text, start, 5)
    while True:
        if _FILTERS.search(code):
            return True
        if "warn(" in code:
            return False  # the marker's own call warns (whatever call holds it)
        upper = next(above, None)
        if upper is None:
            return False
        code = code_of(upper).strip()
        if code and not code.endswith(("(", ",", "=")):
            return False  # no line of the call's arguments (one of strings only is one)


def _lines_above(text: str, start: int, most: int) -> Iterator[str]:
    """The lines above the one at offset ``start`` of ``text``, nearest first, ``most`` at
    most."""
    for _ in range(most):
        if start == 0:
            return
        start = text.rfind("\n", 0, start - 1) + 1
        yield text[start : text.find("\n", start)]


@lru_cache(maxsize=256)  # the old text of one commit is the new one of the commit before
def messages(text: str) -> tuple[str, ...]:
    """Every deprecation message of a module: the string literals next to each marker (a
    ``warnings.warn`` call, ``@deprecated``), joined (the replacement is often named there).
    Only the lines around each marker are split (most modules have none: ``logger.warning``
    is no ``warn(`` call)."""
    found: list[str] = []
    pos = text.find("warn(")
    while pos >= 0:  # each line that calls warn(), found with str.find
        found.append(message_near(*_lines_around(text, text.rfind("\n", 0, pos) + 1)))
        pos = text.find("warn(", text.find("\n", pos) + 1 or len(text))
    found += [message_near(*_lines_around(text, start)) for start, _, _ in _marked(text)]
    return tuple(m for m in dict.fromkeys(found) if m)


_ABOVE, _BELOW = 8, 16  # the lines above and below a marker that may hold its message


def _lines_around(text: str, start: int) -> tuple[list[str], int]:
    """The lines :func:`message_near` reads around the line that starts at offset ``start``
    (8 above, 16 below; fewer at the text's ends) and that line's index among them."""
    begin, above = start, 0
    while above < _ABOVE and begin > 0:
        begin = text.rfind("\n", 0, begin - 1) + 1
        above += 1
    end = start
    for _ in range(_BELOW):
        end = text.find("\n", end) + 1
        if not end:
            return text[begin:].split("\n"), above
    return text[begin : end - 1].split("\n"), above


def message_near(lines: list[str], i: int) -> str:
    """The message given at line ``i`` (0-based): the run of string-literal lines that holds
    or precedes it (a ``message = (...)`` built just before the call), else one just after."""
    runs: list[tuple[int, int, str]] = []
    start, parts = -1, list[str]()
    opens = lines[i].rstrip().endswith("(")  # a call whose message is on the lines below
    for j in range(max(0, i - _ABOVE), min(len(lines), i + (_BELOW if opens else 4))):
        literals = [m.group(1)[1:-1] for m in _STRING.finditer(lines[j])]
        if literals:
            start = j if not parts else start
            parts.extend(literals)
            continue
        if parts:
            runs.append((start, j - 1, " ".join(parts)))
        parts = []
    if parts:
        runs.append((start, start + len(parts), " ".join(parts)))
    if not runs:
        return ""
    holding = [r for r in runs if r[0] <= i <= r[1]]
    before = [r for r in runs if r[1] < i]
    opened = [r for r in runs if r[0] == i + 1] if opens else []
    pick = holding[0] if holding else opened[0] if opened else before[-1] if before else runs[0]
    return " ".join(pick[2].split())


def _subjects(message: str, lines: list[str], i: int, module: str) -> list[tuple[str, int | None]]:
    """What a deprecation at line ``i`` is about, as users reach it: the name its message
    quotes ("`proxies` is deprecated", "cookies=<...> is being deprecated") or the function
    or class it marks or sits in, qualified by the module and the defs around it
    (``pkg.mod.Client.__init__(proxies)`` for a parameter, ``pkg.mod.old`` for a function);
    in a module ``__getattr__``, the names its condition compares (one item each). Each
    with the position of its parameter, where it is one callers may pass by position."""
    decorator = lines[i].lstrip().startswith("@")
    name = ""
    if not decorator and (m := _NAME.search(message)):
        name = m.group(1) or m.group(2)
    head = message.lower().split("deprecat", 1)[0] if "deprecat" in message.lower() else ""
    if not name and not decorator and (bare := _BARE.search(message[: len(head)])):
        name = bare.group(1)
    chain, params = _enclosing(lines, i, decorator)
    if len(chain) > 1 and chain[-1] == "__post_init__" and not decorator:  # a dataclass's:
        # it warns as the class is built, of the class or of what its constructor took
        chain, params = [*chain[:-1], "__init__"], ["self", *_fields(lines, i)]
    if chain == ["__getattr__"]:  # a module shim: ``if name == "Old":`` / ``in {…}``
        served = _served(lines, i) or _looked_up(lines, i)
        if served:
            tail = name.rsplit(".", 1)[-1]
            names = [tail] if tail in served else served
            return [(f"{module}.{n}", None) for n in names]
        return [(f"{module}.{name}", None)] if name else []
    if decorator and chain:
        return [(".".join([module, *chain]), None)]
    if (
        not name
        and len(chain) > 1
        and chain[-1] in ("__init__", "__new__")
        and re.match(
            rf"\W*(?:the\s+)?{re.escape(chain[-2])}\W*\s+(?:class\s+)?(?:is|are|has\s+been|will\s+be"
            r"|was)\b",
            message,
        )
    ) or (
        not name
        and len(chain) > 1
        and chain[-1] in ("__init__", "__new__")
        and _quoted_alone(lines, i, chain[-2])
    ):  # fmt: skip  (its class the subject: "BasicAuth is deprecated", not "Passing text to
        # Response is deprecated"; a helper given the class's name, litestar's
        # ``warn_deprecation("2.23.0", kind="class", deprecated_name="DependencyKwarg")``)
        return [(".".join([module, *chain[:-1]]), None)]  # a constructor that warns of its class
    if not name and not decorator and chain and params:  # a parameter it quotes or tests
        name = _param_of(message, lines, i, params)  # (starlette's "You should not use the
        # 'timeout' argument with the TestClient", under ``if timeout is not …:``)
        if name:
            return [(f"{'.'.join([module, *chain])}({name})", _position(params, name))]
    if not name and not chain and _names_module(message, module):
        return [(module, None)]  # a warning as it is imported: Scrapy's "The
        # scrapy.interfaces module is deprecated." (the item was named by its words)
    if not name:
        return [(".".join([module, *chain]), None)] if chain else []
    if "." in name:
        if chain and chain[-len(name.split(".")) :] == name.split("."):  # the def it sits in,
            return [(".".join([module, *chain]), None)]  # by its class ("`LightningModule.
        return [(name, None)]  # to_torchscript` has been deprecated" in that method)
    if chain and (name in chain or f"_{name}" in chain):  # the def it sits in, or one
        # around it (flask's ``locked_cached_property.__init__`` warns of
        # ``'locked_cached_property'``), or a class made private under that name
        # (werkzeug's ``_OrderedMultiDict.__init__`` warns of ``'OrderedMultiDict'``)
        at = chain.index(name) if name in chain else chain.index(f"_{name}")
        return [(".".join([module, *chain[:at], name]), None)]
    if chain and (name in params or f"**{name}" in params or _passed_on(message, name, params)):
        return [(f"{'.'.join([module, *chain])}({name})", _position(params, name))]
    return [(name, None)]


def _names_module(message: str, module: str) -> bool:
    """Whether a message has the module ``module`` it is in for its subject, deprecated:
    "The scrapy.interfaces module is deprecated", "`pkg.old` has been deprecated", "The
    interfaces module will be deprecated" (not "Support for Python 3.8 in pkg is
    deprecated", nor "Importing pkg.io.json_helpers is deprecated" in ``pkg.io``)."""
    if not module:
        return False
    last = re.escape(module.rpartition(".")[2])
    spelled = rf"(?:{re.escape(module)}(?:\s+(?:module|package))?|{last}\s+(?:module|package))"
    return (
        re.match(
            rf"\W*(?:the\s+)?[`'\"]*{spelled}[`'\"]*(?!\.?\w)\s+(?:is|has\s+been|will\s+be"
            r"|was|are)\b[^.]*deprecat",
            message,
            re.I,
        )
        is not None
    )


def _quoted_alone(lines: list[str], i: int, name: str) -> bool:
    """Whether the call at line ``i`` (its lines down to the next statement) passes
    ``name`` as a string of its own (``deprecated_name="DependencyKwarg"``)."""
    quoted = re.compile(rf"""(?<![\w.])(["']){re.escape(name)}\1""")
    indent = indent_of(lines[i])
    for j in range(i, min(len(lines), i + 16)):
        line = lines[j]
        if j > i and line.strip() and indent_of(line) <= indent and line.strip()[0] not in ")]}":
            break  # the next statement
        if quoted.search(line):
            return True
    return False


def _fields(lines: list[str], i: int) -> list[str]:
    """The fields of the class whose ``__post_init__`` holds line ``i``, in order: the names
    its body annotates above that def (not a ``ClassVar``), as its constructor takes them."""
    at = i
    while at > 0 and not re.match(r"\s*(?:async\s+)?def\s+__post_init__\b", lines[at]):
        at -= 1
    body = indent_of(lines[at])
    fields: list[str] = []
    for j in range(at - 1, -1, -1):
        line = lines[j]
        if not line.strip():
            continue
        level = indent_of(line)
        if level < body:
            break  # the class's header
        field_ = re.match(r"\s*([A-Za-z_]\w*)\s*:(?!=)\s*(.*)", line) if level == body else None
        if field_ is not None and not field_.group(2).startswith(("ClassVar", "typing.ClassVar")):
            fields.insert(0, field_.group(1))
    return fields


def _position(params: list[str], name: str) -> int | None:
    """Where parameter ``name`` is passed by position (``self``/``cls`` aside); None for a
    keyword-only one, or one not there."""
    positional = [p for p in params if p not in ("self", "cls")]
    for at, p in enumerate(positional):
        if p.startswith("*"):
            return None
        if p == name:
            return at
    return None


def _param_of(message: str, lines: list[str], i: int, params: list[str]) -> str:
    """The one parameter of the def a warning sits in that its message quotes, or else that
    the condition of the ``if`` holding it names ("" for none, or several): the warning is
    about passing it, not about calling the def."""
    plain = [p for p in params if not p.startswith("*") and p not in ("self", "cls")]
    header = _header_param(lines, i, plain)
    if header is not None:  # a marker in a parameter's annotation: ``regex: Annotated[str,
        return header  # deprecated("… use `pattern` instead")]`` (FastAPI's ``Query``)
    for m in re.finditer(r"""["'`]([A-Za-z_]\w*)["'`]""", message):
        if m.group(1) in plain and not _TO_DO.search(message[: m.start()][-40:]):
            return m.group(1)  # (not what to use or pass instead)
    indent = indent_of(lines[i])
    for j in range(i - 1, max(-1, i - 12), -1):
        line = lines[j]
        if not line.strip() or line.lstrip().startswith("#") or indent_of(line) >= indent:
            continue
        indent = indent_of(line)  # a line of the statement, or the block that holds it
        test = re.match(r"\s*(?:el)?if\s+(.+):\s*(?:#.*)?$", line)
        if test is not None:
            named = [p for p in plain if re.search(rf"(?<![\w.]){p}\b", test.group(1))]
            if len(named) != 1 or _LEFT_OUT.search(test.group(1).replace(named[0], "P")):
                return ""  # several, or a test that it was left out (the warning is for the
            return named[0]  # calls that leave it out: xarray's ``if time_unit is None:``)
        if _DEF.match(line) or line.rstrip().endswith(":"):
            return ""  # the def itself, or another block
    return ""


# what comes before a quoted name that says to use or pass it ("use `pattern` instead",
# "by explicitly passing the `time_unit`"): no name of what is deprecated
_TO_DO = re.compile(
    r"(?i)\b(?:use|using|instead|favou?r|pass|passing|set|setting|specify|specifying|provide"
    r"|providing|renamed\s+to|replaced\s+by)\b\W+(?:\w+\W+){0,3}$"
)
# a condition that the parameter was left out: ``P is None``, ``not P``, ``P == None``
_LEFT_OUT = re.compile(r"\bP\s+is\s+None\b|\bnot\s+P\b|\bP\s*==\s*None\b")


def _header_param(lines: list[str], i: int, plain: list[str]) -> str | None:
    """The parameter whose annotation or default in a def's header holds line ``i``
    (None: line ``i`` is in no header)."""
    indent = indent_of(lines[i])
    for k in range(i, max(-1, i - 60), -1):
        line = lines[k]
        if not line.strip():
            continue
        if k < i and _DEF.match(line) and indent_of(line) < indent:
            if signature_end(lines, k) < i:
                return None  # in its body
            for n in range(i, k, -1):  # the parameter whose line is the nearest above
                m = re.match(r"\s*\*{0,2}([A-Za-z_]\w*)\s*[:=,)]", lines[n])
                if m and m.group(1) in plain and indent_of(lines[n]) < indent_of(lines[i]) + 1:
                    return m.group(1)
            return None
    return None


def _passed_on(message: str, name: str, params: list[str]) -> bool:
    """Whether the message calls ``name`` an argument of a def that takes ``**kwargs``
    (attrs' ``make_class(name, attrs, bases=(object,), class_body=None,
    **attributes_arguments)`` warns "The `hash` argument is deprecated": its item read
    ``hash``, no module)."""
    if not name.isidentifier() or not any(p.startswith("**") for p in params):
        return False
    quoted = rf"""["'`]+{re.escape(name)}["'`]+{_CALLED.pattern}"""
    return re.search(quoted, message) is not None


def _served(lines: list[str], i: int) -> list[str]:
    """The names the nearest ``if`` around line ``i`` compares (``if name == "X":``, ``if
    name in {"A", "B"}:``) in a module ``__getattr__``."""
    indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, max(-1, i - 40), -1):
        line = lines[j]
        stripped = line.lstrip()
        level = len(line) - len(stripped)
        if not stripped or stripped[0] in ")]}#" or level >= indent:
            continue
        if stripped.startswith(("def ", "async def ")):
            return []
        if not stripped.startswith(("if ", "elif ")):
            indent = level  # a statement the marker sits in (``warnings.warn(``)
            continue
        condition = " ".join(lines[j:i])
        table = re.match(r"\s*(?:el)?if\s+\w+\s+in\s+([A-Za-z_]\w*)\s*:", condition)
        if table is not None:  # a table the function fills above it (Scrapy's ``if name in
            condition = _table_above(lines, j, table.group(1))  # deprecated:``)
        elif "{" in condition:
            condition = condition.split("{", 1)[1].split("}", 1)[0]
        else:
            condition = condition.split(":", 1)[0]
        names = [m.group(1)[1:-1] for m in _STRING.finditer(condition)]
        return [n for n in names if n.isidentifier()]
    return []


def _looked_up(lines: list[str], i: int) -> list[str]:
    """The keys of the module-level table a module ``__getattr__`` looks its argument up in
    (``new_attr = _deprecated_import_lookup.get(attr_name)``, or ``TABLE[name]``) above
    line ``i``, the lookup nearest the warning first (a lazy-import table looked up before
    it is no deprecation's): pydantic-core warns "`{attr_name}` is deprecated, use …" of
    each, and the item was named by the message's template."""
    top = next((j for j in range(i - 1, -1, -1) if _GETATTR_DEF.match(lines[j])), -1)
    if top < 0:
        return []
    header = " ".join(lines[top : top + 3])  # (a header over several lines)
    param = re.match(r"\s*(?:async\s+)?def\s+__getattr__\(\s*(\w+)", header)
    if param is None:
        return []
    arg = re.escape(param.group(1))
    body = "\n".join(lines[top + 1 : i])
    lookups = re.finditer(rf"\b([A-Za-z_]\w*)(?:\.get\(\s*{arg}\b|\[\s*{arg}\s*\])", body)
    for m in reversed(list(lookups)):
        keys = _module_table(lines, m.group(1))
        if keys:
            return keys
    return []


_GETATTR_DEF = re.compile(r"(?:async\s+)?def\s+__getattr__\(")


def _module_table(lines: list[str], name: str) -> list[str]:
    """The string keys of the dict literal ``name = {…}`` (or ``name: T = {…}``) at a
    module's top, read as Python reads it."""
    start = re.compile(rf"{re.escape(name)}\s*(?::[^=]*)?=\s*\{{")
    for k, line in enumerate(lines):
        if not start.match(line):
            continue
        # the statement ends at the first line after which it parses: one line, or up to
        # a closing brace at the margin
        ends = [k] + [j for j in range(k + 1, min(len(lines), k + 5000)) if lines[j][:1] == "}"]
        for end in ends:
            try:
                tree = ast.parse("\n".join(lines[k : end + 1]))
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                continue
            node = tree.body[0] if tree.body else None
            value = node.value if isinstance(node, ast.Assign | ast.AnnAssign) else None
            if not isinstance(value, ast.Dict):
                return []
            return [
                key.value
                for key in value.keys
                if isinstance(key, ast.Constant)
                and isinstance(key.value, str)
                and key.value.isidentifier()
            ]
        return []
    return []


def _table_above(lines: list[str], j: int, name: str) -> str:
    """The keys, as written, of the dict or set literal ``name = {…}`` assigned on the
    lines above line ``j`` of the same function: each line of it that starts with a
    string (``"METHOD_TLS": "TLS",``), up to the line that closes it."""
    for k in range(j - 1, max(-1, j - 60), -1):
        stripped = lines[k].lstrip()
        if stripped.startswith(("def ", "async def ")):
            return ""
        if re.match(rf"{re.escape(name)}\s*(?::[^=]*)?=\s*\{{", stripped):
            keys: list[str] = []
            for line in lines[k + 1 : j]:
                if line.strip().startswith("}"):
                    break
                key = _STRING.match(line.strip())
                if key is not None:
                    keys.append(key.group(0))
            return " ".join(keys)
    return ""


def _enclosing(lines: list[str], i: int, decorator: bool) -> tuple[list[str], list[str]]:
    """The defs around line ``i`` (outermost first; a decorator's own def included) and
    the parameters of the innermost one."""
    chain: list[str] = []
    params: list[str] = []
    if decorator:  # the def or class it marks: the next one at its indent (other
        # decorators and the lines of a long call in between)
        indent = len(lines[i]) - len(lines[i].lstrip())
        for j in range(i + 1, min(len(lines), i + 40)):
            d = _DEF.match(lines[j])
            if d and len(lines[j]) - len(lines[j].lstrip()) == indent:
                chain.append(d.group(1))
                params = _params(lines, j)
                break
        else:
            return [], []
    else:
        indent = len(lines[i]) - len(lines[i].lstrip())
    for j in range(i - 1, -1, -1):
        line = lines[j]
        if not line.strip() or line.lstrip()[0] in ")]}#":
            continue  # the end of a def's header, or a comment
        level = len(line) - len(line.lstrip())
        if level >= indent:
            continue
        d = _DEF.match(line)
        if d:
            if not chain and not decorator:
                params = _params(lines, j)
            chain.insert(0, d.group(1))
        indent = level
        if level == 0:
            break
    return chain, params


def _params(lines: list[str], j: int) -> list[str]:
    """The parameter names of the def starting at line ``j``, in order, with their stars
    (``*args``, ``**kwargs``, and ``*`` where keyword-only ones start)."""
    params = header_params(header_text(lines[j : signature_end(lines, j) + 1]))
    if params is None:
        return _params_as_written(lines, j)
    names: list[str] = []
    for p in params:
        if p.kind == "kwonly" and not any(n.startswith("*") for n in names):
            names.append("*")
        names.append({"varargs": "*", "varkw": "**"}.get(p.kind, "") + p.name)
    return names


def _params_as_written(lines: list[str], j: int) -> list[str]:
    """:func:`_params` of a header Python cannot read, from its words (a ``**kwargs`` one
    with its stars)."""
    header = ""
    for line in lines[j : j + 30]:
        header += line.split("#", 1)[0] + " "
        if re.search(r"\)\s*(?:->[^:]*)?:\s*$", line.split("#", 1)[0]):
            break
    if "(" not in header:
        return []
    return [
        ("**" if stars == "**" else "") + name
        for stars, name in _PARAM.findall(header[header.index("(") :])
    ]


_Keyed = list[tuple[int, str, str, int | None]]
# the last versions' markers, by text object: a commit's new version is its neighbour's
# old one (diffusers calls ``deprecate(…)`` all over its pipelines: each version's markers
# were read twice)
_KEYED: ByText[tuple[str, _Keyed]] = ByText(64)


def _keyed(text: str | None, module: str) -> _Keyed:
    """(line number, message or line, subject) of each marker of a module (a marker whose
    message names several subjects gives one row each; ``""`` when it names none)."""
    if not text:
        return []
    known = _KEYED.get(text)
    if known is not None and known[0] == module:
        return known[1]
    out = _keyed_anew(text, module)
    _KEYED.put(text, (module, out))
    return out


def _keyed_anew(text: str, module: str) -> _Keyed:
    """:func:`_keyed`, read."""
    lines = text.split("\n")
    out: list[tuple[int, str, str, int | None]] = []
    for lineno, line in _marks(text):
        message = message_near(lines, lineno - 1)
        helper = _HELPER_CALL.match(line) is not None
        chain, params = _enclosing(lines, lineno - 1, False)
        if helper and (not chain or private_name(".".join(chain))):
            continue  # a helper called at a module's or class's level deprecates no def,
            # nor one in a private def, which passes a caller's on (diffusers'
            # ``_resolve_dtype(torch_dtype, dtype)`` warns of its callers' ``torch_dtype``)
        itself = ".".join([module, *chain]) if chain else None
        kw = next((p[2:] for p in params if p.startswith("**")), "")
        taken = _taken_from_kwargs(line, lines, lineno - 1, kw) if helper and kw else ""
        if taken:  # (diffusers' ``deprecate("dduf_file", "0.41.0", message)`` in
            # ``from_pretrained(cls, name, **kwargs)``, which pops ``"dduf_file"``: the
            # argument, not the method, as "deprecated from_pretrained" said)
            out.append((lineno, message or line.strip(), f"{itself}({taken})", None))
            continue
        for subject, position in _subjects(message, lines, lineno - 1, module) or [("", None)]:
            if subject == itself and _is_helper(chain, params, lines, lineno - 1):
                continue  # a helper's own definition: no deprecation of its own
            out.append((lineno, message or line.strip(), subject, position))
    return out


_FIRST_LITERAL = re.compile(r"""\(\s*["']([A-Za-z_]\w*)["']\s*,""")


def _taken_from_kwargs(line: str, lines: list[str], i: int, kw: str) -> str:
    """The keyword a helper's call at line ``i`` deprecates, where its first argument is
    a name the def it sits in takes from its ``**kw`` (``kwargs.pop("dduf_file", None)``,
    ``kwargs.get(…)``, ``"dduf_file" in kwargs``; not another dict's ``config.get(…)``)
    above the call; "" for none."""
    m = _FIRST_LITERAL.search(line)
    if m is None:
        return ""
    name, indent, kw = m.group(1), indent_of(line), re.escape(kw)
    read = re.compile(
        rf"""(?<![\w.]){kw}\s*\.\s*(?:pop|get)\(\s*["']{name}["']"""
        rf"""|["']{name}["']\s+(?:not\s+)?in\s+{kw}\b"""
    )
    for k in range(i - 1, max(-1, i - 400), -1):
        above = lines[k]
        if read.search(above):
            return name
        if _DEF.match(above) and indent_of(above) < indent:
            return ""  # the def's header: not taken from its kwargs above the call
    return ""


_HELPER_DEF = re.compile(rf"{_HELPER_NAME}$")
_FIRST_ARG = re.compile(r"[\w.]+\s*\(\s*\*?([A-Za-z_]\w*)\s*[,)]")


def _is_helper(chain: list[str], params: list[str], lines: list[str], i: int) -> bool:
    """Whether the def ``chain`` ends with, whose marker is at line ``i``, is a deprecation
    helper, not a deprecated function: a def whose name says it deprecates (diffusers'
    ``deprecate``), or one whose warning call passes one of its own parameters as the
    message (``def project_deprecation(message): warnings.warn(message,
    ProjectDeprecationWarning)``)."""
    if any(_HELPER_DEF.match(name) for name in chain):
        return True
    names = {p.lstrip("*") for p in params} - {"self", "cls", ""}
    statement = lines[i]
    for above in range(i - 1, max(-1, i - 6), -1):  # up to the line that opens the call
        code = code_of(lines[above]).strip()
        if not code.endswith(("(", ",")):
            break
        statement = lines[above] + " " + statement
    first = _FIRST_ARG.search(code_of(statement))
    return first is not None and first.group(1) in names


def _as_users_see(
    public: PublicSurface | None, module: str, path: str, subject: str, text: str = ""
) -> tuple[str, Visibility]:
    """The subject named as users reach it (a re-exported name by its public name, a bare
    name the module ``text`` neither imports nor defines by the package's one public object
    of that name) and whether it is public: a name of the package's surface is; another
    name, or a message without one, is as public as its module."""
    if not subject.startswith(module + "."):
        if (
            public is not None
            and subject.isidentifier()
            and not binds_at_top(text, subject)
            and (named := public.named(subject))
        ):
            return named, Visibility.PUBLIC  # a bare name of the package's one such object
        return subject, Visibility.INTERNAL if is_private_module(path) else Visibility.PUBLIC
    qual, _, param = subject[len(module) + 1 :].partition("(")
    alias = public.public_name(module, qual) if public is not None else None
    member = qual.partition(".")[2] if alias is not None else qual  # (a private class
    # exported under a public name is public: ``from .m import _Impl as Impl``)
    if private_name(member):  # a private helper's (aiohttp's ``ClientSession._request(auth)``,
        return subject, Visibility.INTERNAL  # beside the public ``__init__(auth)``)
    if alias is not None:
        return alias + (f"({param}" if param else ""), Visibility.PUBLIC
    if public is None or public.is_public(module, qual):
        return subject, Visibility.PUBLIC
    return subject, Visibility.INTERNAL


def detect(view: CommitView) -> list[ApiChange]:
    """Deprecations the ``after`` side says that the ``before`` side did not: compared by
    message and by subject, so a reformatted call or a new ``stacklevel`` is no news."""
    items: list[ApiChange] = []
    named: set[str] = set()  # the names already deprecated by the commit (in any module:
    # click's get_text_stream both in its package's __getattr__ and in utils.py)
    for path in view.paths:
        after_text = view.after.get(path) or ""
        if not wants(view.changed.get(path), path) or not _maybe_marked(after_text):
            continue
        public = public_surface(view.repo) if view.repo is not None else None
        module = public.module_of(path) if public is not None else module_name(path)
        old = _keyed(view.before.get(path), module)
        said = {message for _, message, _, _ in old}
        subjects = {subject for _, _, subject, _ in old if subject}
        seen: set[str] = set()
        told: dict[str, int] = {}  # message -> the marker line that said it first
        for lineno, message, subject, position in _keyed(after_text, module):
            if message in said or subject in subjects or (subject or message) in seen:
                continue
            if told.setdefault(message, lineno) != lineno and not subject:
                continue  # the same message at another marker (a decorator's category=)
            subject, visibility = _as_users_see(public, module, path, subject, after_text)
            if subject and subject in named:
                continue
            named.add(subject)
            seen.add(subject or message)
            items.append(
                ApiChange(
                    kind=RadarKind.DEPRECATION,
                    change=ApiChangeType.DEPRECATED,
                    name=subject or message[:80],
                    path=path,
                    line=lineno,
                    breaking=False,
                    visibility=visibility,
                    position=position,
                )
            )
    return items
