"""A module version's reading: made from the lines a patch made (never split again), the
public objects at its changed lines, the nearest header above a line."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commitdigest.analysis.radar.patch import patch_changes, patched
from commitdigest.analysis.radar.pylocal import _Side


def test_a_window_scanned_newest_first_makes_each_old_reading_from_the_new_one() -> None:
    """The report scans a window as ``git log`` reads it, newest first: a module's old
    version is then made from the new one already read by the patch (it shares the new
    one's lines, and its reading splits nothing), and a changelog's too; each equals the
    whole reading."""
    from commitdigest.analysis.radar.changelog import _read, _readings, both, sections
    from commitdigest.analysis.radar.pylocal import _side

    body = "".join(f"def f{n}(a, b):\n    return a\n" for n in range(30))
    before = body + "def tail_sides():\n    pass\n"
    three = "def f20(a):\n    # one line became three\n    return a\n"
    after = body.replace("def f20(a, b):\n    return a\n", three) + "def tail_sides():\n    pass\n"
    patch = (
        "@@ -41,2 +41,3 @@\n-def f20(a, b):\n+def f20(a):\n"
        "+    # one line became three\n     return a\n"
    )
    new = _side(after)
    made = patched(after, patch_changes(patch).hunks, backwards=True)
    assert made == before
    old = _side(made)
    assert old.lines[0] is new.lines[0]  # made from the new lines, not split again
    assert old.lines[-2] is new.lines[-2]
    whole = _Side(before)
    assert (old.text, old.lines) == (whole.text, whole.lines)

    entries = "".join(f"- entry {n}\n" for n in range(40))
    log_after = (
        f"# Changelog\n\n## 2.0.0 (both)\n\n- Remove `x`.\n- Drop `y`.\n\n## 1.0.0\n\n{entries}"
    )
    log_before = log_after.replace("- Remove `x`.\n- Drop `y`.\n", "- Fix `z`.\n")
    sections(log_after)  # the edit: line 5 removed, lines 5 and 6 added
    old_sections, new_sections = both(log_before, log_after, (frozenset({5}), frozenset({5, 6})))
    assert new_sections is sections(log_after)
    made, read = _readings.get(log_before)[0], _read(log_before)  # type: ignore[index]
    assert made.lines[-1] is _readings.get(log_after)[0].lines[-1]  # type: ignore[index]  # entry 39
    assert (made.lines, made.heads) == (read.lines, read.heads)
    assert [s.title for s in old_sections] == ["2.0.0 (both)", "1.0.0"]
    assert [e.text for e in old_sections[0].entries] == ["Fix `z`."]


def test_an_object_is_found_by_its_name_def_then_class_then_assignment() -> None:
    """``find`` looks for a name once and keeps the order it always had: a ``def`` (not a
    longer name, not one in a docstring, not another class's), then a ``class``, then an
    assignment at a line's start."""
    text = (
        '"""Docs.\n\ndef run(x): an example\n"""\n'
        "def run_all(): ...\n"
        "class Other:\n    def run(self): ...\n"
        "class Job:\n    retries: int = 3\n    x = run(1)\n\n    async def run(self, n): ...\n"
        "run = Job.run\n"
        "class run_config: ...\n"
    )
    side = _Side(text)
    job_run = side.find("Job.run")
    assert job_run is not None and (job_run.kind, job_run.line) == ("function", 12)
    other = side.find("Other.run")
    assert other is not None and other.line == 7
    top = side.find("run")
    assert top is not None and (top.kind, top.line) == ("attribute", 13)
    retries = side.find("Job.retries")
    assert retries is not None and (retries.kind, retries.line) == ("attribute", 9)
    config = side.find("run_config")
    assert config is not None and (config.kind, config.line) == ("class", 14)
    assert side.find("Job.missing") is None and side.find("Nope.run") is None


def test_a_member_is_looked_for_below_its_class_only_and_found_however_it_is_written() -> None:
    """A class's member is looked for below the first place its class is written ``class
    Name`` (none above it can be its), and only its own name's lines are read whole (a
    field's value is read for the field asked). A class written ``class  Name`` (two
    spaces) is looked for from the top, not from a later class whose name starts the same
    (``class JobBase`` below it: its member was "removed"); a member below such a class, and
    a module-level block's name, are found."""
    text = (
        "class  Job(BaseModel):\n    type: str = Field('job', description='t')\n"
        "    other: int = 1\n\n\n"
        "if HAVE_X:\n    type: str = 'x'\n\n\n"
        "class JobBase(BaseModel):\n    type: str = 'base'\n"
    )
    side = _Side(text)
    job = side.find("Job.type")
    assert job is not None and (job.line, job.value) == (2, "Field('job', description='t')")
    base = side.find("JobBase.type")
    assert base is not None and (base.line, base.value) == (11, "'base'")
    top = side.find("type")
    assert top is not None and top.line == 7
    assert side.find("Job.missing") is None and side.find("Other.type") is None
    other = _Side(text.replace("class  Job", "class Job")).find("Job.other")
    assert other is not None and other.line == 3


def test_a_member_is_looked_for_in_its_class_from_its_header_to_the_next_top_level_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A member of a class is looked for from where ``class Name`` is written to the next
    def or class at the first column that no string holds (a module of many classes names
    ``forward`` once per class: diffusers' pipelines), in each place the class is written
    (one defined twice, in an ``if``/``else``); a def at the margin of a string ends no
    class."""
    blocks = "".join(
        f"class M{n}:\n    def forward(self, x):\n        return x\n\n    def step(self): ...\n\n\n"
        for n in range(40)
    )
    text = (
        "class Pipe:\n    def forward(self, image, steps=50):\n"
        '        """Usage:\n\nclass Example:\n    def forward(self): ...\n"""\n'
        "        return image\n\n\n"
        "class Twice:\n    pass\n\n\n"
        f"{blocks}"
        "if FAST:\n    Twice.fast = True\nelse:\n    class Twice:\n        def run(self): ...\n"
    )
    side = _Side(text)
    asked: list[int] = []  # the def lines whose name is looked up
    real = _Side.qualname
    monkeypatch.setattr(_Side, "qualname", lambda self, i: asked.append(i) or real(self, i))
    pipe = side.find("Pipe.forward")
    assert pipe is not None and (pipe.line, pipe.kind) == (2, "function")
    assert side.find("Pipe.step") is None  # (a method it does not have: M0's … M39's are
    assert set(asked) <= {0, 1, 4}  # not looked at, only Pipe's and the string's lines)
    [(start, stop)] = side._class_spans("Pipe")  # past the string's "class Example"
    assert (start, stop) == (0, text.find("class Twice"))
    last = side.find("M39.forward")
    assert last is not None and last.line == text.count("\n", 0, text.find("class M39")) + 2
    twice = side.find("Twice.run")
    assert twice is not None and twice.line == text.count("\n")
    assert len(side._class_spans("Twice")) == 2
    assert side.find("M3.missing") is None


def test_a_member_of_a_class_the_version_does_not_write_is_looked_for_nowhere(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A class a commit adds is looked up in the version before it: where no ``class Name``
    is written no line is its header, and none of its members is there. diffusers' dummy
    modules define ``__init__``, ``from_config`` and ``from_pretrained`` in each of 200
    classes: each def was read for one (650 of them, 0.18 s of its five months)."""
    blocks = "".join(
        f"class P{n}(metaclass=Dummy):\n    def __init__(self, *args):\n        pass\n\n\n"
        for n in range(200)
    )
    side = _Side(blocks)
    asked: list[int] = []
    real = _Side.qualname
    monkeypatch.setattr(_Side, "qualname", lambda self, i: asked.append(i) or real(self, i))
    assert side.find("NewPipe.__init__") is None
    assert asked == []
    found = side.find("P7.__init__")
    assert found is not None and found.line == 5 * 7 + 2


@pytest.mark.parametrize(
    "text",
    [
        "class A:\n    def b(self): ...\n\n\ndef b(): ...\n",
        "class\tA:\n    def b(self): ...\n",
        "class  A:\n    b: int = 1\n",
        "if X:\n    class A:\n        def b(self): ...\nelse:\n    A = None\n",
        "class Outer:\n    class A:\n        def b(self): ...\n",
        "class AB:\n    def b(self): ...\nclass A(AB):\n    b = 2\n",
        '"""class A:\n    def b(self): ...\n"""\ndef b(): ...\n',
        "A = make()\ndef b(): ...\nclass C:\n    def b(self): ...\n",
    ],
)
@pytest.mark.parametrize("qual", ["A.b", "Outer.A.b", "C.b", "B.b", "b"])
def test_a_member_is_found_in_its_class_as_in_the_whole_text(
    text: str, qual: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looked for in its class's spans only, or nowhere, a member is what a search of the
    whole text finds."""
    found = _Side(text).find(qual)
    monkeypatch.setattr(_Side, "_class_spans", lambda self, cls: [(0, len(self.text))])
    whole = _Side(text).find(qual)
    assert (found and (found.kind, found.line)) == (whole and (whole.kind, whole.line))


@pytest.mark.parametrize(
    "text",
    [  # a reviewer's: triple quotes that do not pair, a class named in a string above it,
        # a class written "class \\tA"
        'class A:\n    # """\n    s = """\ndef fake():\nx = 1\n"""\n    def b(self): ...\n',
        'class A:\n    Q = \'"""\'\n    s = """\ndef fake():\nx = 1\n"""\n    def b(self): ...\n',
        '"""Mentions class A."""\nif X:\n    class A:\n        S = """\ndef f():\nx = 1\n"""\n'
        "        def b(self): ...\n",
        "class \tA:\n    def b(self): ...\n",
    ],
)
def test_a_member_is_found_past_a_def_written_in_a_string_however_the_quotes_fall(
    text: str,
) -> None:
    found = _Side(text).find("A.b")
    assert found is not None and (found.kind, found.line) == ("function", text.count("\n"))


def test_the_objects_at_changed_lines_are_the_public_ones_and_no_private_one_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A private name (``_helper``, ``Job._step``, anything in ``_Cache``) is never reported,
    so the lines it covers give nothing and its header is not read; ``find`` still finds
    one (a base class's private method is looked up by name)."""
    text = (
        "LIMIT = 3\n_cache = {}\n\n\ndef _helper(a):\n    return a\n\n\n"
        "class Job:\n    RETRIES = 3\n    _STEP = 1\n\n"
        "    def _step(self, n):\n        return n\n\n"
        "    def run(self, n, fast=False):\n        return n\n\n\n"
        "class _Cache:\n    SIZE = 4\n\n    def get(self, key):\n        return key\n"
    )
    side = _Side(text)
    read: list[int] = []
    obj_at = _Side.obj_at
    monkeypatch.setattr(_Side, "obj_at", lambda self, j: read.append(j + 1) or obj_at(self, j))
    found = side.objects_at(range(1, text.count("\n") + 1))
    assert sorted(found) == ["Job", "Job.RETRIES", "Job.run", "LIMIT"]
    assert read == [9, 16]  # class Job, Job.run: no private header
    helper = side.find("_helper")
    assert helper is not None and helper.line == 5
    step = side.find("Job._step")
    assert step is not None and step.line == 13


def test_a_string_written_at_the_margin_does_not_end_its_class() -> None:
    """SQLAlchemy's MSDialect writes a query's lines at the margin inside a method: the
    method below is still the class's (``MSDialect.get_columns``, not a module function
    ``get_columns`` its changes were reported as), and a nested class's attribute too; a
    module-level statement still holds what it holds."""
    text = (
        "class MSDialect:\n"
        "    def get_indexes(self, c):\n"
        '        return c.execute("""\nselect ind.name\nfrom sys.indexes\norder by\n""")\n\n'
        "    @cache\n"
        "    def get_columns(self, connection, table_name, schema=None):\n"
        "        return []\n\n"
        "    class Options:\n"
        '        """\nNotes at the margin.\n"""\n'
        "        LIMIT: int = 3\n\n\n"
        "if FAST:\n"
        "    def speedup(x):\n"
        "        return x\n"
    )
    side = _Side(text)
    lines = text.split("\n")
    at = [lines.index(line) + 1 for line in lines if "def get_columns" in line or "LIMIT" in line]
    at += [lines.index("    def speedup(x):") + 1]
    assert sorted(side.objects_at(at)) == [
        "MSDialect.Options.LIMIT", "MSDialect.get_columns", "speedup",
    ]  # fmt: skip


HEADERS = st.sampled_from(["def f(a):", "class C:", "    async def g(self,", "  # def", "x = 1"])


@settings(max_examples=300, deadline=None)
@given(
    blocks=st.lists(st.tuples(HEADERS, st.integers(0, 150)), max_size=8),
    asked=st.lists(st.integers(0, 1200), max_size=12),
)
def test_the_nearest_header_above_a_line_is_the_walk_ups_whatever_was_asked_before(
    blocks: list[tuple[str, int]], asked: list[int]
) -> None:
    """Each walk up stops where the last one started (its answer holds below it): any
    sequence of lines asked gives what a whole walk of at most 120 lines gives."""
    side = _Side("\n".join(line for head, body in blocks for line in [head] + ["    y"] * body))
    headers = [
        i
        for i, line in enumerate(side.lines)
        if line.lstrip().startswith(("def", "class", "async"))
    ]
    for i in (i for i in asked if i < len(side.lines)):
        whole = max((j for j in headers if i - 120 <= j <= i), default=-1)
        assert side.nearest_def(i) == whole


# blocks of a pydantic-style class body: fields, values over several lines, docstrings
# under fields, a nested model (its end dedents), comments, blanks, a string at the margin
FIELD_BLOCKS = st.sampled_from(
    [
        ("    name: str", '    """The name."""'),
        ("    user: str = Field(", "        default='guest',", "    )"),
        (
            "    user: str = Field(",
            "        default=dict(",
            "            a=1,",
            "        ),",
            "    )",
        ),
        (
            "    class Inner(BaseModel):",
            "        inner: int = Field(",
            "            5,",
            "        )",
        ),
        ("    ", "# a comment"),
        ('    doc: str = """', "at the margin", '"""'),
        ("    more: int = Field(", "  dedented=1)"),
        ('    """A docstring', "    More of it.", '    """'),
        ("    items: list = Field(", "        default=[", "        1,", "        2,", "    ])"),
    ]
)


@settings(max_examples=400, deadline=None)
@given(body=st.lists(FIELD_BLOCKS, min_size=1, max_size=40), data=st.data())
def test_a_fields_value_line_is_found_whatever_was_asked_before(
    body: list[tuple[str, ...]], data: st.DataObject
) -> None:
    """Where a line's walk up to its field passes the lines down to where the last walk
    started, it goes on as that walk went: the lines asked in order (a commit's changed
    lines), any of them, find what a fresh walk finds."""
    text = "\n".join(
        ["class Model(BaseModel):", *(line for block in body for line in block), "x = 1"]
    )
    side = _Side(text)
    count = len(side.lines) - 1
    asked = sorted(data.draw(st.sets(st.integers(1, count - 1), max_size=count)))
    for i in asked:
        j = side.nearest_def(i)
        if j < 0:
            continue
        found, whole = side._field_over(i, j), _Side(text)._field_over(i, j)
        assert (found and (found.qualname, found.line)) == (whole and (whole.qualname, whole.line))


def test_a_fields_value_line_after_another_field_is_that_fields() -> None:
    """The walk from a line of a field's value stops at its own field, not at the one above
    that the last walk found (however the lines are asked)."""
    body = ["    user: str = Field(", "        default='guest',", "    )"] * 2
    text = "\n".join(["class Model(BaseModel):", *body, "x = 1"])
    side = _Side(text)
    first, second = side._field_over(2, 0), side._field_over(5, 0)
    assert first is not None and (first.qualname, first.line) == ("Model.user", 2)
    assert second is not None and (second.qualname, second.line) == ("Model.user", 5)
    docs = "".join(f'    f{n}: int = 0\n    """Field {n}."""\n' for n in range(50))
    side = _Side(f"class Model(BaseModel):\n{docs}    last: int = Field(\n        1,\n    )\n")
    assert all(side._field_over(i, 0) is None for i in range(2, 101, 2))  # the docstrings
    last = side._field_over(102, 0)  # (past 80 lines from the class: its own walk)
    assert last is not None and (last.qualname, last.line) == ("Model.last", 102)
    values = "".join(f"        {n},\n" for n in range(90))
    side = _Side(f"class Model(BaseModel):\n    long: list = Field(\n{values}    )\n")
    first = side._field_over(3, 0)
    assert first is not None and (first.qualname, first.line) == ("Model.long", 2)
    near = side._field_over(80, 0)  # the walk from line 3's, reaching 80 lines up
    assert near is not None and (near.qualname, near.line) == ("Model.long", 2)
    assert side._field_over(81, 0) is None  # (out of reach: not the last walk's answer)


# ("\r\r" + "\n" reads as a line "\r": CRLF is read as LF)
LINES = st.sampled_from(["class C:", "x = 1", "    y = 2", "", "# note", "\tz", "\r\r", "@wrap"])


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.tuples(LINES, st.integers(0, 300)), min_size=1, max_size=10),
    asked=st.lists(st.integers(0, 1500), max_size=15),
)
def test_the_top_level_line_above_is_found_by_a_walk_whatever_was_asked_before(
    lines: list[tuple[str, int]], asked: list[int]
) -> None:
    """The last line above a line that starts with code (a method's class) is found by a
    walk up that stops where the last one started, or, past 400 lines, from the list of
    all such lines: any sequence of lines asked, in order or not, gives what the list
    gives (a line ``\\r`` starts no code, but the first one)."""
    text = "\n".join(line for head, body in lines for line in [head] + ["    body"] * body)
    side, listed = _Side(text), _Side(text)
    n = len(side.lines)
    for i in [*sorted(a for a in asked if a <= n), *(a for a in asked if a <= n)]:
        assert side._top_above(i) == listed._top_listed(i)


def test_what_is_kept_by_text_is_found_by_that_text_object_only() -> None:
    """The radar's readings are kept by the text object (never hashed): an equal copy is
    another text, and the least recently used goes first once ``size`` are kept."""
    from commitdigest.analysis.radar.kept import ByText

    kept: ByText[int] = ByText(2)
    a, b, c = "x = 1\n" * 3, "y = 2\n" * 3, "z = 3\n" * 3
    kept.put(a, 1)
    kept.put(b, 2)
    assert kept.get(a) == 1 and kept.get("".join(["x = 1\n"] * 3)) is None  # (a is used)
    kept.put(c, 3)  # b was used least recently: it goes
    assert (kept.get(a), kept.get(b), kept.get(c)) == (1, None, 3)
    kept.clear()
    assert kept.get(a) is None


# what not_code_spans finds, as the regex it replaces found it (the regex read a long
# docstring a character at a time: twice as slow over 25 MB of real modules)
_NOT_CODE = re.compile(
    r"""(\"\"\"|''')(?:\\.|(?!\1)[^\\])*?\1|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|\#[^\n]*""",
    re.S,
)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet="\"'#\\\n a", max_size=40))
def test_the_strings_and_comments_are_those_the_regex_found(text: str) -> None:
    from commitdigest.analysis.radar.pyapi import code_of, not_code_spans

    assert not_code_spans(text) == [m.span() for m in _NOT_CODE.finditer(text)]
    assert code_of(text) == _NOT_CODE.sub("", text)
    assert code_of(text, breaks=True) == _NOT_CODE.sub(lambda m: "\n" * m[0].count("\n"), text)
    assert code_of(text, comments_only=True) == _NOT_CODE.sub(
        lambda m: "" if m[0].startswith("#") else m[0], text
    )


@pytest.mark.parametrize(
    "text",
    [
        'x = """a \\""" b""" + 1  # c',
        "x = '''a\\\\''' + '''b\\\\\\''' c'''",
        'doc = """never closed\ny = "z"  # w',
        "s = 'it\\\nruns on' # yes",
        "u = f\"{'#'}\" # note: 'q'",
    ],
)
def test_the_strings_and_comments_of_written_shapes_are_the_regex_s(text: str) -> None:
    from commitdigest.analysis.radar.pyapi import not_code_spans

    spans = not_code_spans(text)
    assert spans == [m.span() for m in _NOT_CODE.finditer(text)]
    assert spans  # (each has one)


@settings(max_examples=3000, deadline=None)
@given(
    st.lists(st.text(alphabet="\"'#\\()[]:\n ab", max_size=12), min_size=1, max_size=6),
    st.booleans(),
)
def test_where_a_header_ends_is_where_its_lines_read_as_one_text_end(
    pieces: list[str], header: bool
) -> None:
    """A header's lines are read for their brackets one at a time, each without its strings
    of one line and its comments; where that reads otherwise than the lines read as one text
    (a backslash, a string of several lines) they are read so: the end is the same."""
    from commitdigest.analysis.radar.pyapi import _closing_line, _closing_text

    lines = ("def f(" + "".join(pieces) + "\n    pass").split("\n")
    for start in range(len(lines)):
        assert _closing_line(lines, start, header=header) == _closing_text(
            lines, start, header=header
        )


def test_a_long_header_with_strings_on_its_lines_is_read_line_by_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """openai-python's methods take a hundred parameters, most a ``Literal["…"]``: each
    header was read as one text, then each line again (a fifth of the radar's time on its
    generated modules). Its lines are read alone now, and a header with a string of several
    lines is still read whole."""
    from commitdigest.analysis.radar import pyapi

    param = '        p{}: Literal["a)", "#b"] | None = None,  # it\'s {}\n'
    params = "".join(param.format(n, n) for n in range(100))
    head = "    def create(\n        self,\n"
    lines = (head + params + "    ) -> Thing:\n        pass").split("\n")
    read: list[str] = []
    whole = pyapi.code_of
    monkeypatch.setattr(pyapi, "code_of", lambda text, **k: read.append(text) or whole(text, **k))
    assert pyapi.signature_end(lines, 0) == 102
    assert read == []
    lines[1] = '        self, doc="""a'
    lines[2:2] = ['    ) -> never:"""']
    assert pyapi.signature_end(lines, 0) == 103  # the ``)`` in the string closes nothing
    assert read  # (read as one text)


def test_a_modules_strings_are_read_down_to_the_line_asked_and_on_from_there() -> None:
    """Whether a line is inside a docstring is read from the module's top down to that line
    only (huggingface_hub's ``hf_api.py``, 650 KB of docstrings, was read to its end for
    each version a commit edits near its top); a later line reads on, an earlier one reads
    nothing more, and every answer is the whole reading's."""
    from commitdigest.analysis.radar.pyapi import string_spans

    body = "".join(
        f'def f{n}(a):\n    """Doc {n}.\n\n    More.\n    """\n    return a\n' for n in range(500)
    )
    text = 'X = """one\n"""\n' + body
    side = _Side(text)
    inside = {
        line
        for a, b in string_spans(text)
        for line in range(text.count("\n", 0, a) + 1, text.count("\n", 0, b - 1) + 1)
    }
    assert side._in_string(4) == (4 in inside)
    assert len(side._strings) <= 3  # (the first strings only)
    for i in [2000, 10, 2999, 0, 1, 1500, len(side.lines) - 1, 3]:
        assert side._in_string(i) == (i in inside)
    assert [i for i in range(len(side.lines)) if side._in_string(i)] == sorted(inside)


@settings(max_examples=1500, deadline=None)
@given(
    st.lists(st.sampled_from(['"""', "'''", "\\", "# c", "#", "", "x = 1", "s = '", "# \"\"\""]),
         min_size=1, max_size=8),
    st.lists(st.tuples(st.integers(0, 9), st.sampled_from(["# new", "", "# '''", "# a \\"])),
             min_size=1, max_size=4),
)  # fmt: skip
def test_whether_a_comment_edit_can_touch_a_string_is_what_each_version_says(
    lines: list[str], edits: list[tuple[int, str]]
) -> None:
    """A commit that changes only comments is not compared unless a version has a string
    over lines (``\"\"\"``, ``'''``, a backslash at a line's end): each version's answer
    is kept by its text, and a commit whose changed lines hold no such mark gives the
    other version the known one. Along any chain of comment edits (each version handed on
    to the next commit, as the scan does), the answer is the one both texts give."""
    from commitdigest.analysis.radar import python_api

    python_api._SPANNING.clear()
    text = "\n".join(lines) + "\n"
    for at, line in edits:
        old = text.split("\n")
        i = min(at, len(old) - 1)
        changed = f"{old[i]}\n{line}"  # the line removed and the one added
        new = "\n".join([*old[:i], line, *old[i + 1 :]])
        marks = ('"""', "'''", "\\\n", "\\\r")
        fresh = all(
            not (code := c.lstrip()) or code[0] == "#" for c in changed.split("\n")
        ) and not any(m in t for t in (text, new) for m in marks)
        assert python_api._comments_only(changed, text, new) == fresh
        text = new
