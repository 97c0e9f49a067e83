"""A commit's patch as the radar reads it (``radar/patch.py``): its changed lines and their
numbers, a cut patch's hunk spans, and the new version of a file made from the old one and
git's own patch, which must be the new blob's text exactly, whatever the edit."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
from datetime import UTC, datetime
from pathlib import Path

import pytest
from gitfixture import CommitSpec, commit, init_repo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from commitdigest.analysis.radar.commit import CommitInput
from commitdigest.analysis.radar.driver import WindowScanner
from commitdigest.analysis.radar.patch import LINES, Hunk, hunk_lines, patch_changes, patched
from commitdigest.sources.blobs import BlobReader
from commitdigest.sources.git import DEFAULT_LIMITS, PatchLimits, read_commits
from commitdigest.sources.repo_info import resolve_repository_sync


def test_a_patchs_changed_lines_and_numbers_leave_out_only_its_header() -> None:
    """A removed line that reads ``-- x`` (``--- x`` in the patch) or an added ``++ x`` is a
    changed line like any other; the ``--- a/…``/``+++ b/…`` header is none."""
    patch = (
        "diff --git a/q.sql b/q.sql\n--- a/q.sql\n+++ b/q.sql\n"
        "@@ -1,3 +1,3 @@\n select 1;\n--- old comment\n+++ new comment\n keep;\n"
        "@@ -10 +10,2 @@\n-x\n+y\n+z\n"
    )
    reading = patch_changes(patch)
    assert reading[:3] == (
        "-- old comment\n++ new comment\nx\ny\nz",
        frozenset({2, 10}),
        frozenset({2, 10, 11}),
    )
    assert reading.hunks == (
        Hunk(0, 0, "select 1;\n-- old comment\nkeep;\n", "select 1;\n++ new comment\nkeep;\n"),
        Hunk(9, 9, "x\n", "y\nz\n"),
    )
    assert patch_changes("@@ -3,0 +4,2 @@\n+a\n+b\n").hunks == (Hunk(3, 3, "", "a\nb\n"),)
    assert patch_changes("@@ -4,2 +3,0 @@\n-a\n-b\n").hunks == (Hunk(3, 3, "a\nb\n", ""),)


def test_a_cut_patchs_hunk_headers_give_the_lines_its_hunks_span() -> None:
    assert hunk_lines("@@ -3,2 +3,3 @@\n@@ -10 +11,0 @@\n@@ -0,0 +1 @@") == (
        frozenset({3, 4, 10}),
        frozenset({3, 4, 5, 1}),
    )
    assert hunk_lines("") == (frozenset(), frozenset())


def test_hunks_that_do_not_fit_the_old_text_make_nothing() -> None:
    """The old lines a hunk covers must be the text's own lines there: else the file is read
    (a patch is never applied to a text it was not made from)."""
    hunks = patch_changes("@@ -2 +2 @@\n-b\n+B\n").hunks
    assert patched("a\nb\nc\n", hunks) == "a\nB\nc\n"
    assert patched("a\nx\nc\n", hunks) is None  # another line there
    assert patched("a\n", hunks) is None  # too short
    assert patched("a\nb", patch_changes("@@ -2 +2 @@\n-b\n+B\n").hunks) is None  # "b" has no \n
    ends = patch_changes("@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+B\n").hunks
    assert patched("a\nb", ends) == "a\nB\n"
    assert patched("a\nb\nc\n", ends) is None  # its "b" is not the last line
    assert patched("a\nB\nc\n", hunks, backwards=True) == "a\nb\nc\n"
    assert patched("a\nb\nc\n", hunks, backwards=True) is None
    overlapping = (Hunk(1, 1, "b\n", "B\n"), Hunk(0, 0, "a\n", "A\n"))
    assert patched("a\nb\n", overlapping) is None


def test_far_lines_are_found_by_their_numbers() -> None:
    """A hunk far down a long text, and one past its end."""
    old = "".join(f"line {n}\n" for n in range(1, 20_001))
    patch = "@@ -15000 +15000,2 @@\n-line 15000\n+fifteen thousand\n+and one\n"
    new = patched(old, patch_changes(patch).hunks)
    assert new == old.replace("line 15000\n", "fifteen thousand\nand one\n")
    assert patched("\n" * 100, patch_changes("@@ -101 +101 @@\n-x\n+y\n").hunks) is None


# lines that look like a patch's own marks, CRLF and unterminated ends, wide characters
LINE = st.sampled_from(
    ["", "x = 1", "-- x", "++ y", "@@ -1 +1 @@", "\\ no", " lead", "é 漢字 🙂", "a\r", "\t"]
)
VERSION = st.tuples(st.lists(LINE, max_size=30), st.booleans())  # lines, last one ended


def _text(version: tuple[list[str], bool]) -> str:
    lines, ended = version
    return "\n".join(lines) + ("\n" if ended and lines else "")


def _log(repo: Path, limits: PatchLimits = DEFAULT_LIMITS) -> list[CommitInput]:
    info = resolve_repository_sync(repo)
    start, end = datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
    commits = asyncio.run(read_commits(info, start, end, limits=limits))
    return [CommitInput.from_commit(c) for c in reversed(commits)]


@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(versions=st.lists(VERSION, min_size=2, max_size=10))
def test_a_version_made_from_the_old_one_and_gits_patch_is_the_new_blob(
    tmp_path_factory: pytest.TempPathFactory, versions: list[tuple[list[str], bool]]
) -> None:
    """Each version of a file, made from the one before and the patch ``git log`` gave,
    is the new blob's text exactly; and the old one, made from the new one, the old
    blob's."""
    repo = init_repo(tmp_path_factory.mktemp("patched"))
    for n, version in enumerate(versions):
        text = _text(version)
        commit(
            repo,
            CommitSpec(
                f"v{n}",
                f"2026-01-01T00:{n:02d}:00+00:00",
                files={"m.py": text, "CHANGES.md": text},
                allow_empty=True,
            ),
        )
    made = 0
    with BlobReader(repo) as reader:
        for c in _log(repo):
            for path, hunks in c.read_patches().edits.items():
                old, new = c.before_ids[path], c.after_ids[path]
                texts = reader.read_text([old, new])
                old_text = texts[old]
                assert old_text is not None
                new_text = texts[new]
                assert new_text is not None
                forwards = patched(old_text, hunks)
                assert forwards == new_text
                backwards = patched(new_text, hunks, backwards=True)
                assert backwards == old_text
                for text in (forwards, backwards):  # its lines, made from the other's
                    assert LINES.get(text) == text.split("\n")
                made += 1
    changed = sum(_text(a) != _text(b) for a, b in itertools.pairwise(versions))
    assert made == 2 * changed  # every changed version of both files was made


class _Counting:
    """A blob reader that notes what it was asked for."""

    def __init__(self, reader: BlobReader) -> None:
        self.reader = reader
        self.asked: list[str] = []

    def read_text(self, specs: object) -> dict[str, str | None]:
        specs = list(specs)  # type: ignore[call-overload]
        self.asked += specs
        return self.reader.read_text(specs)

    def __getattr__(self, name: str) -> object:
        return getattr(self.reader, name)


@pytest.mark.parametrize("order", ["oldest first", "newest first"])
def test_the_scanner_reads_a_patched_file_once_and_finds_the_same(
    tmp_path: Path, order: str
) -> None:
    """A file whose whole patches the source has is read from git once: each other version
    is made from its neighbour, whichever way the window is scanned (the report scans it
    newest first, as ``git log`` reads it), also across a commit that no kind reads the file
    at (a body changed only), and found the same as read."""
    repo = init_repo(tmp_path / "r")
    body = "".join(f"def f{n}(a, b):\n    return a\n\n\n" for n in range(40))
    versions = [
        body,
        body.replace("def f3(a, b)", "def f3(a)"),
        body.replace("def f3(a, b)", "def f3(a)").replace("def f7", "def g7"),
        body.replace("def f3(a, b)", "def f3(a)")
        .replace("def f7", "def g7")
        .replace(
            "def f20(a, b):\n    return a", "def f20(a, b):\n    return b"
        ),  # a body only: no kind reads the file at this commit
        body.replace("def f3", "def g3").replace("def f7", "def g7"),
    ]
    for n, text in enumerate(versions):
        commit(repo, CommitSpec(f"v{n}", f"2026-01-0{n + 1}T00:00:00+00:00", files={"m.py": text}))
    inputs = _log(repo)[1:]
    scanned = inputs if order == "oldest first" else inputs[::-1]
    with BlobReader(repo) as reader:
        counting = _Counting(reader)
        scanner = WindowScanner(counting, inputs[0].parent or "")  # type: ignore[arg-type]
        found = {c.sha: scanner.scan(c) for c in scanned}
        plain = WindowScanner(reader, inputs[0].parent or "")
        read = {c.sha: plain.scan(dataclasses.replace(c, edited=frozenset())) for c in scanned}
    versions_read = {counting.asked.count(i) for c in inputs for i in c.after_ids.values()}
    versions_read |= {counting.asked.count(i) for c in inputs for i in c.before_ids.values()}
    assert sorted(versions_read) == [0, 1]
    assert len(set(counting.asked)) == 1  # one version of the first commit scanned
    assert found == read
    assert [i.name for i in found[inputs[0].sha]] == ["m.f3(b)"]  # the made ones compared
    assert [i.name for i in found[inputs[1].sha]] == ["m.f7"]
    assert found[inputs[2].sha] == []  # the body only
    assert "m.f3" in [i.name for i in found[inputs[3].sha]]  # (and f30..f39: "def f3" too)


def test_a_patch_the_budget_cut_is_kept_whole_for_the_radar_and_read_as_if_whole(
    tmp_path: Path,
) -> None:
    """The report's budget cuts a big module's patches (16 KiB a file by default); with the
    radar, the source keeps them whole beside the cut ones (``PatchLimits.whole``): each
    version is made from its neighbour, as with a small budget never reached, and the items
    are the same as with the cut patches' hunk spans and both versions read from git."""
    from commitdigest.pipeline.report import _radar_reads

    repo = init_repo(tmp_path / "r")
    body = "".join(f"def f{n}(a, b):\n    return a + {n}\n\n\n" for n in range(300))
    versions = [
        body,
        body.replace("def f3(a, b)", "def f3(a)").replace("a + 1", "a - 1"),
        body.replace("def f3(a, b)", "def f3(a)").replace("def f250", "def g250"),
    ]
    for n, text in enumerate(versions):
        commit(repo, CommitSpec(f"v{n}", f"2026-01-0{n + 1}T00:00:00+00:00", files={"m.py": text}))
    budget = PatchLimits(max_patch_bytes_per_file=200, max_patch_bytes_per_commit=200)
    cut = _log(repo, budget)[1:]
    whole = _log(repo, dataclasses.replace(budget, whole=_radar_reads))[1:]
    assert all(c.hunks and not c.edited for c in cut)  # cut: hunk spans, no edit
    assert all(c.read_patches().edits and not c.hunks for c in whole)  # whole: the edits
    found = []
    for inputs in (cut, whole):
        with BlobReader(repo) as reader:
            counting = _Counting(reader)
            scanner = WindowScanner(counting, inputs[0].parent or "")  # type: ignore[arg-type]
            found.append([scanner.scan(c) for c in inputs])
        # whole: one version read, the other two made from it; cut: all three read
        assert len(counting.asked) == (1 if inputs is whole else 3)
    assert found[0] == found[1]
    assert [i.name for i in found[1][0]] == ["m.f3(b)"]
    assert [i.name for i in found[1][1]] == ["m.f250"]
