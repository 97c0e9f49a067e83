"""The git log stream parser, on hand-written byte strings (no git needed)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commitdigest.models import Commit, FileStatus
from commitdigest.sources.gitlog_parse import (
    MARKER,
    GitLogFormatError,
    GitLogParser,
    PatchLimits,
    parse_log,
    pr_number_from_title,
    split_message,
)

SHA1 = "1" * 40
SHA2 = "2" * 40
SHA3 = "3" * 40


def header(
    sha: str = SHA1,
    parents: str = SHA2,
    message: bytes = b"Title (#42)\n\nBody line\n",
    name: bytes = b"Ada",
    email: bytes = b"ada@example.com",
    adate: bytes = b"2026-01-13T23:50:34+08:00",
    cdate: bytes = b"2026-01-13T23:59:59+08:00",
) -> bytes:
    fields = [sha.encode(), parents.encode(), name, email, adate, cdate, message]
    return MARKER + b"\x00".join(fields) + b"\x00\x00"


def raw(status: str, path: bytes, old: bytes | None = None, modes: str = "100644 100644") -> bytes:
    head = f":{modes} abc1234 def5678 {status}".encode()
    return head + b"\x00" + (old + b"\x00" if old is not None else b"") + path + b"\x00"


def section(path: str, body: bytes = b"@@ -1 +1 @@\n-a\n+b\n") -> bytes:
    return f"diff --git a/{path} b/{path}\n".encode() + body


def commit_bytes(files: list[tuple[bytes, bytes]], **kw: object) -> bytes:
    """header + raw entries + terminator + patch sections."""
    out = header(**kw)  # type: ignore[arg-type]
    if not files:
        return out
    out += b"\n" + b"".join(f[0] for f in files) + b"\x00"
    return out + b"".join(f[1] for f in files)


def simple(path: str = "src/a.py", **kw: object) -> bytes:
    p = path.encode()
    return commit_bytes([(raw("M", p), section(path))], **kw)


def test_header_fields_and_timezone() -> None:
    [c] = parse_log(simple(), web_url="https://github.com/o/r/")
    assert c.sha == SHA1 and c.parents == (SHA2,)
    assert (c.title, c.body, c.pr_number) == ("Title (#42)", "Body line", 42)
    assert (c.author, c.author_email) == ("Ada", "ada@example.com")
    assert c.committed_at.utcoffset() == timedelta(hours=8)
    assert c.committed_at.isoformat() == "2026-01-13T23:59:59+08:00"
    assert c.authored_at.isoformat() == "2026-01-13T23:50:34+08:00"
    assert c.url == f"https://github.com/o/r/commit/{SHA1}"
    [f] = c.files
    assert (f.path, f.status, f.additions, f.deletions, f.binary) == (
        "src/a.py",
        FileStatus.MODIFIED,
        1,
        1,
        False,
    )
    assert f.patch == "diff --git a/src/a.py b/src/a.py\n@@ -1 +1 @@\n-a\n+b\n"
    assert not f.patch_truncated and not c.patch_truncated


def test_no_web_url_no_commit_url_and_root_commit() -> None:
    [c] = parse_log(simple(parents=""))
    assert c.url is None and c.parents == ()


def test_empty_commits_between_and_at_end() -> None:
    data = simple(sha=SHA1) + header(sha=SHA2, message=b"empty") + simple(sha=SHA3)
    data += header(sha=SHA2, message=b"empty at end\n")
    commits = parse_log(data)
    assert [c.sha for c in commits] == [SHA1, SHA2, SHA3, SHA2]
    assert commits[1].files == () and commits[3].files == ()
    assert commits[1].title == "empty" and commits[3].title == "empty at end"


def test_commit_with_file_list_but_no_patch() -> None:
    p = b"x"
    data = commit_bytes([(raw("M", p), b"")]) + simple(sha=SHA3)
    first, second = parse_log(data)
    assert [f.path for f in first.files] == ["x"] and first.files[0].patch == ""
    assert second.files[0].patch.startswith("diff --git a/src/a.py")


def test_rename_binary_delete_add_and_mode_change() -> None:
    files = [
        (raw("R085", b"new name.txt", old=b"old name.txt"),
         section("old name.txt", b"similarity index 85%\n--- a/old name.txt\n+++ b/new name.txt\n"
                 b"@@ -1 +1,3 @@\n-old\n+a\n+b\n+c\n")),
        (raw("M", b"img.png"),
         section("img.png", b"index 1..2 100644\nBinary files a/img.png and b/img.png differ\n")),
        (raw("D", b"gone.txt"),
         section("gone.txt", b"--- a/gone.txt\n+++ /dev/null\n@@ -1,7 +0,0 @@\n" + b"-x\n" * 7)),
        (raw("A", b"new.txt"), section("new.txt", b"@@ -0,0 +1,2 @@\n+a\n+b\n")),
        (raw("M", b"run.sh", modes="100644 100755"),
         section("run.sh", b"old mode 100644\nnew mode 100755\n")),
    ]  # fmt: skip
    [c] = parse_log(commit_bytes(files))
    ren, binf, gone, new, mode = c.files
    assert (ren.status, ren.path, ren.old_path, ren.additions) == (
        FileStatus.RENAMED,
        "new name.txt",
        "old name.txt",
        3,
    )
    assert "similarity index 85%" in ren.patch
    assert (binf.binary, binf.additions, binf.deletions) == (True, None, None)
    assert "Binary files" in binf.patch
    assert (gone.status, gone.additions, gone.deletions) == (FileStatus.DELETED, 0, 7)
    assert (new.status, new.additions, new.deletions) == (FileStatus.ADDED, 2, 0)
    assert (mode.status, mode.additions, mode.deletions) == (FileStatus.MODIFIED, 0, 0)
    assert mode.patch.endswith("new mode 100755\n")
    assert c.additions == 5 and c.deletions == 8  # binary counts as 0


def test_line_counts_are_the_lines_after_the_first_hunk_header() -> None:
    body = (
        b"index 1..2 100644\n--- a/g\n+++ b/g\n@@ -1,4 +1,3 @@\n"
        b"---- x\n-+++ y\n keep\n+++ new\n-old\n\\ No newline at end of file\n"
        b"@@ -9 +8,2 @@ def f():\n+a\r\n+Binary files a and b differ\n"
    )
    [c] = parse_log(commit_bytes([(raw("M", b"g"), section("g", body))]))
    assert (c.files[0].additions, c.files[0].deletions, c.files[0].binary) == (3, 3, False)


def test_counts_of_a_type_change_sum_its_two_sections() -> None:
    files = [
        (raw("T", b"f", modes="100644 120000"),
         section("f", b"deleted file mode 100644\n--- a/f\n+++ /dev/null\n@@ -1,3 +0,0 @@\n"
                 b"-a\n-b\n-c\n")
         + section("f", b"new file mode 120000\n--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+g\n")),
        (raw("M", b"bin"), section("bin", b"Binary files a/bin and b/bin differ\n")),
        (raw("M", b"z"), section("z")),
    ]  # fmt: skip
    f, binf, z = parse_log(commit_bytes(files))[0].files
    assert (f.additions, f.deletions) == (1, 3)
    assert (binf.additions, binf.deletions, binf.binary) == (None, None, True)
    assert (z.additions, z.deletions) == (1, 1)


def test_type_change_takes_both_sections() -> None:
    p = b"link"
    files = [
        (raw("T", p, modes="100644 120000"), section("link", b"deleted file mode 100644\n-x\n")
         + section("link", b"new file mode 120000\n+target\n")),
        (raw("M", b"z.txt"), section("z.txt")),
    ]  # fmt: skip
    [c] = parse_log(commit_bytes(files))
    link, z = c.files
    assert link.status is FileStatus.TYPE_CHANGED
    assert (link.additions, link.deletions) == (0, 0)  # no hunk header: no lines
    assert "deleted file mode" in link.patch and "new file mode 120000" in link.patch
    assert z.patch.startswith("diff --git a/z.txt")


def test_awkward_paths_with_z() -> None:
    names = ["with space.txt", "中文/文件.txt", "tab\there.txt", "new\nline.txt", "-dash"]
    files = [(raw("A", n.encode()), section(n.replace("\n", "\\n"))) for n in names]
    [c] = parse_log(commit_bytes(files))
    assert [f.path for f in c.files] == names
    assert all(f.additions == 1 for f in c.files)


def test_non_utf8_message_and_path_do_not_crash() -> None:
    data = commit_bytes(
        [(raw("A", b"caf\xe9.txt"), section("x"))],
        message=b"Caf\xe9 cr\xe8me (#7)\n\n\xff\xfe body",
        name=b"Jos\xe9",
    )
    [c] = parse_log(data)
    assert c.title == "Caf\ufffd cr\ufffdme (#7)" and c.pr_number == 7
    assert c.author == "Jos\ufffd" and c.body == "\ufffd\ufffd body"
    assert c.files[0].path == "caf\ufffd.txt"


def test_diff_like_lines_inside_a_patch_and_message_do_not_split() -> None:
    body = b"@@ -1 +1,2 @@\n+diff --git a/fake b/fake\n diff --git x y\n"
    data = commit_bytes(
        [(raw("M", b"a"), section("a", body))],
        message=b"Quote a patch\n\ndiff --git a/x b/x\n:100644 100644 x y M\n",
    )
    [c] = parse_log(data)
    assert c.files[0].patch.endswith(b"diff --git x y\n".decode())
    assert "diff --git a/x b/x" in c.body


def test_patch_budget_per_file_and_per_commit() -> None:
    big = b"@@ -0,0 +1,500 @@\n" + b"".join(b"+line %04d\n" % i for i in range(500))
    names = [b"a.txt", b"b.txt", b"c.txt"]
    files = [(raw("M", n), section(n.decode(), big)) for n in names]
    limits = PatchLimits(max_patch_bytes_per_file=1000, max_patch_bytes_per_commit=1500)
    [c] = parse_log(commit_bytes(files), limits)
    a, b, cc = c.files
    assert all(f.additions == 500 for f in c.files)  # counted in full, past the budget too
    assert a.patch_truncated and 900 < len(a.patch.encode()) <= 1000
    assert a.patch.endswith("\n")  # cut on a line boundary
    assert b.patch_truncated and len(b.patch.encode()) <= 1500 - len(a.patch.encode())
    assert b.patch.startswith("diff --git a/b.txt")
    assert cc.patch == "" and cc.patch_truncated
    assert c.patch_truncated


def test_per_file_cut_alone_does_not_flag_commit() -> None:
    big = b"".join(b"+%d\n" % i for i in range(1000))
    files = [(raw("M", b"a"), section("a", big))]
    [c] = parse_log(commit_bytes(files), PatchLimits(max_patch_bytes_per_file=100))
    assert c.files[0].patch_truncated and not c.patch_truncated


def test_a_cut_patch_keeps_every_hunks_numbers_the_cut_part_too() -> None:
    hunks = [(10 * k + 1, 3, 10 * k + 1, 4) for k in range(40)]
    body = b"".join(
        b"@@ -%d,%d +%d,%d @@ def f%d():\n  x\n-old\n+new\n+more\n  y\n" % (*h, k)
        for k, h in enumerate(hunks)
    )
    files = [(raw("M", b"big.py"), section("big.py", body)), (raw("M", b"s.py"), section("s.py"))]
    [c] = parse_log(commit_bytes(files), PatchLimits(max_patch_bytes_per_file=300))
    big, small = c.files
    assert big.patch_truncated and big.patch.count("\n@@ ") < 10  # most hunks were cut off
    headers = "\n".join(f"@@ -{a},{b} +{c},{d} @@" for a, b, c, d in hunks)
    assert big.hunks == headers  # ... and their numbers are all here
    assert not small.patch_truncated and small.hunks == ""  # a whole patch has its text
    [whole] = parse_log(commit_bytes(files))
    assert [f.hunks for f in whole.files] == ["", ""]
    # a commit whose budget is spent: the files with no patch at all keep their hunks too
    [spent] = parse_log(commit_bytes(files[::-1] + files), PatchLimits(0, 0))
    assert spent.files[1].patch == "" and spent.files[1].hunks == headers
    assert spent.files[0].hunks == "@@ -1 +1 @@"


def test_the_files_a_reader_keeps_whole_keep_their_cut_patches_whole_too() -> None:
    """``PatchLimits.whole`` names the files whose cut patch is kept whole beside the cut one
    (the radar makes a module's version from its neighbour and the diff): cut by the file's
    budget, or with no budget left at all; the cut patch, the counts and the other files
    are what they are without it; a patch that was not cut, a renamed file and a file past
    the commit's allowance for whole patches have none (the last keeps its hunk headers)."""
    body = b"".join(
        b"@@ -%d,2 +%d,2 @@\n x\n-old %d\n+new %d\n" % (k, k, k, k) for k in range(1, 90)
    )
    files = [
        (raw("M", b"small.py"), section("small.py")),
        (raw("M", b"cut.py"), section("cut.py", body)),  # cut at 400 bytes: the budget is spent
        (raw("M", b"notes.txt"), section("notes.txt", body)),
        (raw("R090", b"moved.py", old=b"old.py"), section("old.py", body)),
        (raw("M", b"late.py"), section("late.py", body)),
        (raw("M", b"tail.py"), section("tail.py")),
    ]
    data = commit_bytes(files)
    budget = PatchLimits(max_patch_bytes_per_file=400, max_patch_bytes_per_commit=451)
    [plain] = parse_log(data, budget)
    [unlimited] = parse_log(data, PatchLimits(10**9, 10**9))
    keep = PatchLimits(400, 451, whole=lambda path: path.endswith(".py"))
    [kept] = parse_log(data, keep)
    assert [f.whole_patch for f in plain.files] == [""] * 6
    small, cut, notes, moved, late, tail = kept.files
    full = {f.path: f.patch for f in unlimited.files}
    assert len(small.patch) + len(cut.patch) == 451  # (the budget is spent after cut.py)
    assert small.whole_patch == "" and not small.patch_truncated  # whole already
    assert cut.patch_truncated and cut.whole_patch == full["cut.py"] and cut.hunks == ""
    assert late.patch == "" and late.patch_truncated and late.whole_patch == full["late.py"]
    assert tail.patch == "" and tail.whole_patch == full["tail.py"]
    assert notes.whole_patch == "" and notes.hunks  # not asked for: its hunk headers
    assert moved.whole_patch == ""  # a rename's patch is no edit of one file
    without = [f.model_copy(update={"whole_patch": "", "hunks": ""}) for f in kept.files]
    assert without == [f.model_copy(update={"hunks": ""}) for f in plain.files]
    assert kept.patch_truncated and plain.patch_truncated
    # the commit's allowance for whole patches: the first fits, the second does not (the
    # bytes it took are given back), the third does
    size = len((full["cut.py"] + full["tail.py"]).encode())
    tight = PatchLimits(400, 451, whole=keep.whole, max_whole_bytes_per_commit=size)
    [few] = parse_log(data, tight)
    assert few.files[1].whole_patch == full["cut.py"]
    assert few.files[4].whole_patch == "" and few.files[4].hunks == plain.files[4].hunks
    assert few.files[5].whole_patch == full["tail.py"]
    assert _feed_in(data, list(range(0, len(data), 7)), tight) == [few]  # (in small pieces)
    # fed in any pieces, the same
    assert _feed_in(data, list(range(0, len(data), 7)), keep) == [kept]


def _stream() -> bytes:
    big = b"".join(
        b"@@ -%d,30 +%d,30 @@\n" % (1000 * k + 1, 1000 * k + 1)
        + b"".join(b"%s%d\n" % (b"+- "[i % 3 : i % 3 + 1], i) for i in range(30))
        for k in range(10)
    )
    files = [
        (raw("M", b"a b"), section("a b", big)),
        (raw("R100", b"n", old=b"o"), section("o")),
    ]
    return (
        commit_bytes(files, sha=SHA1)
        + header(sha=SHA2, message=b"empty")
        + simple(sha=SHA3)
        + header(sha=SHA2, message=b"last")
    )


def _feed_in(data: bytes, cuts: list[int], limits: PatchLimits) -> list[Commit]:
    parser = GitLogParser(limits)
    out: list[Commit] = []
    last = 0
    for cut in sorted(set(cuts)):
        out += parser.feed(data[last:cut])
        last = cut
    return out + parser.feed(data[last:]) + parser.close()


def test_byte_by_byte_feeding_matches_whole() -> None:
    data = _stream()
    limits = PatchLimits(max_patch_bytes_per_file=500, max_patch_bytes_per_commit=700)
    assert _feed_in(data, list(range(len(data))), limits) == parse_log(data, limits)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=len(_stream())), max_size=12))
def test_any_chunking_matches_whole(cuts: list[int]) -> None:
    data = _stream()
    limits = PatchLimits(max_patch_bytes_per_file=400, max_patch_bytes_per_commit=1000)
    assert _feed_in(data, cuts, limits) == parse_log(data, limits)


def test_empty_stream() -> None:
    assert parse_log(b"") == []


@pytest.mark.parametrize(
    "data",
    [
        b"garbage",
        MARKER + b"abc\x00",  # truncated header
        header() + b"X",  # neither a file list nor the next commit
        header() + b"\n:100644 100644 a b M\x00path",  # truncated raw entry
        header() + b"\n" + raw("M", b"p") + b"1\t1\tp\x00X",  # file list not terminated
        header(cdate=b"yesterday", adate=b"soon"),  # no date to place the commit by
        header() + b"\n" + raw("M", b"p") + b"1\t1\tp\x00\x00",  # a numstat line: not asked for
    ],
)
def test_malformed_streams_raise_format_error(data: bytes) -> None:
    with pytest.raises(GitLogFormatError):
        parse_log(data)


def test_one_unreadable_date_is_taken_from_the_other_and_odd_zones_are_applied() -> None:
    [commit] = parse_log(header(cdate=b"yesterday"))
    assert commit.committed_at == commit.authored_at
    [odd] = parse_log(header(adate=b"2026-03-02T11:00:00+99:59"))
    assert odd.authored_at.isoformat() == "2026-02-26T07:01:00+00:00"  # the same instant


def test_feed_after_close_is_an_error() -> None:
    parser = GitLogParser()
    parser.close()
    with pytest.raises(ValueError):
        parser.feed(b"")


def test_negative_limits_rejected() -> None:
    with pytest.raises(ValueError):
        PatchLimits(max_patch_bytes_per_file=-1)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("[Bugfix] Fix it (#1234)", 1234),
        ("Revert foo (#12) (#345)", 345),
        ("trailing space (#9)  ", 9),
        ("(#5) at the start only", None),
        ('Revert "x (#1)"', None),
        ("no number (#abc)", None),
        ("plain", None),
    ],
)
def test_pr_number_from_title(title: str, expected: int | None) -> None:
    assert pr_number_from_title(title) == expected


def test_split_message() -> None:
    assert split_message("\nTitle  \n\n  body\n more\n\n") == ("Title", "body\n more")
    assert split_message("only") == ("only", "")
