"""Diffs that fit a token budget: file filter, hunk clipping, chunk planning, accounting."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from commitdigest.analysis.classify import FileKind, classify, patch_worthy
from commitdigest.analysis.llm.plan import (
    DiffPlan,
    ListReason,
    clip_patch,
    file_header,
    format_chunk,
    format_file_list,
    plan_diff,
    prepare_patch,
)
from commitdigest.analysis.llm.tokens import estimate_tokens
from commitdigest.models import Commit, FileChange, FileStatus

NOW = datetime(2026, 1, 13, 12, 0, tzinfo=UTC)


def hunk(start: int, added: int = 0, removed: int = 0, context: int = 3, text: str = "x") -> str:
    """One hunk: context, then removed, then added lines, then context."""
    lines = [f"@@ -{start},{removed + 2 * context} +{start},{added + 2 * context} @@ def f():"]
    lines += [f" ctx {text} {i}" for i in range(context)]
    lines += [f"-old {text} {i}" for i in range(removed)]
    lines += [f"+new {text} {i}" for i in range(added)]
    lines += [f" ctx {text} {i}" for i in range(context)]
    return "\n".join(lines) + "\n"


def git_patch(path: str, *hunks: str) -> str:
    return (
        f"diff --git a/{path} b/{path}\nindex 0123..4567 100644\n--- a/{path}\n+++ b/{path}\n"
        + ("".join(hunks))
    )


def change(path: str, *hunks: str, **kw: object) -> FileChange:
    text = "".join(hunks)
    fields: dict[str, object] = {
        "additions": sum(line.startswith("+") for line in text.splitlines()),
        "deletions": sum(line.startswith("-") for line in text.splitlines()),
        "patch": git_patch(path, *hunks) if hunks else "",
    }
    fields.update(kw)
    return FileChange(path=path, **fields)


def commit(*files: FileChange) -> Commit:
    return Commit(
        sha="0" * 40, title="t", author="a", authored_at=NOW, committed_at=NOW, files=files
    )


def placement(plan: DiffPlan) -> Counter[str]:
    seen: Counter[str] = Counter()
    seen.update(f.path for c in plan.chunks for f in c.files)
    seen.update(x.path for x in plan.listed_only)
    seen.update(plan.omitted)
    return seen


def check_invariants(c: Commit, plan: DiffPlan, budget: int, max_chunks: int) -> None:
    assert placement(plan) == Counter(f.path for f in c.files)  # each file exactly once
    assert 1 <= len(plan.chunks) <= max_chunks
    for chunk in plan.chunks:
        assert chunk.estimated_tokens == estimate_tokens(format_chunk(chunk))
        assert chunk.estimated_tokens + plan.reserved_for_file_list <= budget or not chunk.files
        for f in chunk.files:
            assert f.kind in (FileKind.SOURCE, FileKind.TEST, FileKind.DOCS, FileKind.CONFIG)
            assert f.patch.endswith("\n")
    assert plan.file_list_tokens == estimate_tokens(format_file_list(plan))
    if plan.reserved_for_file_list:  # reserve_file_list=True
        assert plan.file_list_tokens <= plan.reserved_for_file_list


# ---- the file filter -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "kind"),
    [
        ("src/pkg/core.py", FileKind.SOURCE),
        ("tests/test_core.py", FileKind.TEST),
        ("pkg/core_test.go", FileKind.TEST),
        ("docs/guide.md", FileKind.DOCS),
        ("README.md", FileKind.DOCS),
        (".github/workflows/ci.yml", FileKind.CONFIG),
        ("pyproject.toml", FileKind.CONFIG),
        ("package.json", FileKind.CONFIG),
        ("package-lock.json", FileKind.LOCK),
        ("web/yarn.lock", FileKind.LOCK),
        ("pnpm-lock.yaml", FileKind.LOCK),
        ("uv.lock", FileKind.LOCK),
        ("Cargo.lock", FileKind.LOCK),
        ("go.sum", FileKind.LOCK),
        ("Gemfile.lock", FileKind.LOCK),
        ("composer.lock", FileKind.LOCK),
        ("Pipfile.lock", FileKind.LOCK),
        ("vendor/github.com/x/y.go", FileKind.VENDORED),
        ("third_party/abseil/str.cc", FileKind.VENDORED),
        ("web/node_modules/left-pad/index.js", FileKind.VENDORED),
        ("external/zlib/inflate.c", FileKind.VENDORED),
        ("proto/api_pb2.py", FileKind.GENERATED),
        ("api/service.pb.go", FileKind.GENERATED),
        ("client/api.generated.ts", FileKind.GENERATED),
        ("static/app.min.js", FileKind.MINIFIED),
        ("static/site.min.css", FileKind.MINIFIED),
        ("assets/logo.png", FileKind.BINARY),
        ("fonts/Inter.woff2", FileKind.BINARY),
        ("dist/release.tar.gz", FileKind.BINARY),
    ],
)
def test_classify_by_path(path: str, kind: FileKind) -> None:
    f = change(path, hunk(10, added=2))
    assert classify(f) is kind
    assert patch_worthy(f) is (kind in (FileKind.SOURCE, FileKind.TEST, FileKind.DOCS, "config"))


def test_classify_by_flag_and_content() -> None:
    assert classify(change("src/a.py", hunk(1, added=1), binary=True)) is FileKind.BINARY
    go = "@@ -0,0 +1,3 @@\n+// Code generated by protoc-gen-go. DO NOT EDIT.\n+package x\n+\n"
    assert classify(change("api/x.go", patch=go)) is FileKind.GENERATED
    rs = "@@ -1,4 +1,4 @@\n # This file is @generated by a tool\n-a\n+b\n"
    assert classify(change("src/gen.rs", patch=rs)) is FileKind.GENERATED
    # the same words far down a file are no marker
    deep = "@@ -120,2 +120,2 @@\n-# Code generated by hand. DO NOT EDIT.\n+x = 1\n"
    assert classify(change("src/a.py", patch=deep)) is FileKind.SOURCE
    minified = "@@ -1 +1 @@\n-" + "a=1;" * 2000 + "\n+" + "b=2;" * 2000 + "\n"
    assert classify(change("static/app.js", patch=minified)) is FileKind.MINIFIED
    # one long line among many ordinary ones is still source
    mixed = hunk(1, added=200) + "+" + "s" * 1500 + "\n"
    assert classify(change("src/data.py", patch=mixed)) is FileKind.SOURCE


def test_prepare_patch_drops_git_headers_and_reduces_deletion_only_hunks() -> None:
    mixed = hunk(10, added=2, removed=1)
    gone = hunk(50, removed=7)
    text = git_patch("a.py", mixed, gone, mixed)
    body = prepare_patch(text)
    assert "diff --git" not in body and "+++ b/a.py" not in body
    assert body == mixed + "@@ -50,13 +50,6 @@ def f():\n[7 deleted lines]\n" + mixed
    assert prepare_patch("old mode 100644\nnew mode 100755") == "old mode 100644\nnew mode 100755\n"


# ---- clipping ----------------------------------------------------------------------------


def test_clip_keeps_whole_hunks_while_they_fit() -> None:
    hunks = [hunk(100 * i + 1, added=20, text=f"h{i}") for i in range(10)]
    body = "".join(hunks)
    room = estimate_tokens("".join(hunks[:3])) + 30  # three hunks and the marker, not four
    clipped = clip_patch(body, room)
    assert clipped is not None
    assert estimate_tokens(clipped) <= room
    kept, marker = clipped.rsplit("… [", 1)
    assert kept == "".join(hunks[:3])
    shown = kept.count("\n")
    assert marker == f"{body.count(chr(10)) - shown} more lines of this file's diff not shown]\n"


def test_clip_cuts_a_too_large_first_hunk_at_a_line_boundary() -> None:
    body = hunk(1, added=1000)
    clipped = clip_patch(body, 200)
    assert clipped is not None
    assert estimate_tokens(clipped) <= 200
    kept, _ = clipped.split("… [")
    assert body.startswith(kept) and kept.endswith("\n")
    assert kept.count("\n") > 10


def test_clip_cuts_a_single_huge_line() -> None:
    body = "@@ -1 +1 @@ " + "中" * 10_000 + "\n+x\n"
    clipped = clip_patch(body, 100)
    assert clipped is not None
    assert estimate_tokens(clipped) <= 100
    assert clipped.startswith("@@ -1 +1 @@ 中")
    assert clip_patch(body, 5) is None  # not even the marker fits


# ---- planning ----------------------------------------------------------------------------


def test_a_commit_that_fits_is_one_chunk_with_everything() -> None:
    a = change("src/a.py", hunk(1, added=5, removed=2), hunk(40, added=1))
    t = change("tests/test_a.py", hunk(1, added=8))
    c = commit(t, a)
    plan = plan_diff(c, 4000)
    check_invariants(c, plan, 4000, 4)
    assert len(plan.chunks) == 1
    assert [f.path for f in plan.chunks[0].files] == ["src/a.py", "tests/test_a.py"]
    assert not plan.listed_only and not plan.omitted
    text = format_chunk(plan.chunks[0])
    assert text.startswith("=== src/a.py (modified, +6/-2) ===\n@@ -1,8 +1,11 @@")
    assert hunk(1, added=5, removed=2) + hunk(40, added=1) in text
    assert not any(line.startswith("#") for line in text.splitlines())
    assert "- src/a.py (modified, +6/-2)\n" in format_file_list(plan)


def test_filtered_files_are_listed_not_patched() -> None:
    c = commit(
        change("src/a.py", hunk(1, added=3)),
        change("package-lock.json", hunk(1, added=300, removed=200)),
        change("vendor/lib/x.go", hunk(1, added=50)),
        change("static/app.min.js", hunk(1, added=1)),
        change("api/x_pb2.py", hunk(1, added=40)),
        change("img/logo.png", binary=True, additions=None, deletions=None),
        change("src/old.py", hunk(1, removed=30), status=FileStatus.DELETED),
        change("src/b.py", hunk(1, removed=4)),
        change("src/moved.py", old_path="src/was.py", status=FileStatus.RENAMED),
    )
    plan = plan_diff(c, 20_000)
    check_invariants(c, plan, 20_000, 4)
    assert [f.path for ch in plan.chunks for f in ch.files] == ["src/a.py"]
    reasons = {x.path: x.reason for x in plan.listed_only}
    assert reasons == {
        "package-lock.json": ListReason.LOCK,
        "vendor/lib/x.go": ListReason.VENDORED,
        "static/app.min.js": ListReason.MINIFIED,
        "api/x_pb2.py": ListReason.GENERATED,
        "img/logo.png": ListReason.BINARY,
        "src/old.py": ListReason.DELETED,
        "src/b.py": ListReason.DELETION_ONLY,
        "src/moved.py": ListReason.NO_DIFF,
    }
    listing = format_file_list(plan)
    assert "- package-lock.json (modified, +300/-200) [not shown: lockfile]" in listing
    assert "- img/logo.png (modified, binary) [not shown: binary]" in listing
    assert "- src/was.py -> src/moved.py (renamed, +0/-0) [not shown: no diff text]" in listing
    assert "old 0" not in format_chunk(plan.chunks[0])


def test_priority_clipping_and_chunking() -> None:
    src_big = change("src/big.py", *[hunk(100 * i + 1, added=40) for i in range(30)])
    src_small = change("src/small.py", hunk(1, added=5))
    test = change("tests/test_big.py", *[hunk(100 * i + 1, added=40) for i in range(10)])
    doc = change("docs/guide.md", hunk(1, added=600))
    c = commit(doc, test, src_small, src_big)
    budget = 3000
    plan = plan_diff(c, budget, max_chunks=2)
    check_invariants(c, plan, budget, 2)
    order = [f.path for ch in plan.chunks for f in ch.files]
    assert order[:2] == ["src/big.py", "src/small.py"]  # source first, larger first
    big, small, test_ = plan.chunks[0].files
    assert big.clipped and not small.clipped and test_.clipped
    assert estimate_tokens(test_.patch) <= 0.4 * budget  # clipped to its share
    assert estimate_tokens(big.patch) > 0.4 * budget  # grown into the room part 1 had left
    assert plan.chunks[0].estimated_tokens > 0.9 * (budget - plan.reserved_for_file_list)
    assert big.patch.endswith("more lines of this file's diff not shown]\n")
    kept = big.patch.rsplit("… [", 1)[0]
    assert kept and kept.count("@@") >= 1 and prepare_patch(src_big.patch).startswith(kept)
    assert [f.path for f in plan.chunks[1].files] == ["docs/guide.md"]  # no room left in part 1
    assert "- docs/guide.md (modified, +600/-0) [diff in part 2 of 2]\n" in (  # whole again
        format_file_list(plan)
    )


def test_the_file_share_counts_the_header_too() -> None:
    a = change("src/a.py", hunk(1, added=60))
    body = estimate_tokens(prepare_patch(a.patch))
    budget = next(b for b in range(body, 10 * body) if int(0.4 * b) == body)
    big = change("src/z.py", hunk(1, added=3000))
    plan = plan_diff(commit(a, big), budget, max_chunks=1, reserve_file_list=False)
    z, a_ = plan.chunks[0].files  # z (larger) first; it grows into the room a leaves
    assert a_.clipped and estimate_tokens(f"{file_header(a_)}\n{a_.patch}") <= body
    assert z.clipped and plan.chunks[0].estimated_tokens > 0.9 * budget


def test_a_single_huge_file_uses_the_whole_budget() -> None:
    c = commit(change("src/huge.py", *[hunk(100 * i + 1, added=30) for i in range(400)]))
    plan = plan_diff(c, 10_000)
    check_invariants(c, plan, 10_000, 4)
    (f,) = plan.chunks[0].files
    assert f.clipped and len(plan.chunks) == 1
    assert plan.chunks[0].estimated_tokens > 0.9 * (10_000 - plan.reserved_for_file_list)


def test_what_fits_nowhere_is_listed_over_budget() -> None:
    files = [change(f"src/m{i:02}.py", hunk(1, added=100, text=f"m{i}")) for i in range(30)]
    c = commit(*files)
    plan = plan_diff(c, 2500, max_chunks=2)
    check_invariants(c, plan, 2500, 2)
    assert len(plan.chunks) == 2
    over = [x.path for x in plan.listed_only if x.reason is ListReason.OVER_BUDGET]
    assert over and not plan.omitted
    assert "[not shown: over budget]" in format_file_list(plan)


def test_the_names_list_keeps_to_its_share() -> None:
    files = [change(f"vendor/p{i:03}/x.go", hunk(1, added=3)) for i in range(200)]
    c = commit(*files)
    for budget in range(2000, 2100, 3):
        plan = plan_diff(c, budget)
        check_invariants(c, plan, budget, 4)
        assert plan.omitted and plan.listed_only
        assert plan.reserved_for_file_list <= int(0.25 * budget)


def test_the_names_list_has_a_cap_and_counts_the_rest() -> None:
    files = [change(f"vendor/pkg{i:04}/x.go", hunk(1, added=3)) for i in range(2000)]
    c = commit(change("src/a.py", hunk(1, added=3)), *files)
    plan = plan_diff(c, 8000)
    check_invariants(c, plan, 8000, 4)
    assert [f.path for ch in plan.chunks for f in ch.files] == ["src/a.py"]
    assert 0 < len(plan.listed_only) < 2000 and len(plan.omitted) > 0
    assert plan.reserved_for_file_list <= 0.25 * 8000
    assert format_file_list(plan).endswith(f"… {len(plan.omitted)} more files not listed\n")


def test_budgets_around_the_whole_commit() -> None:
    files = [change(f"src/f{i:02}.py", hunk(1, added=i % 4, text="y")) for i in range(40)]
    c = commit(*files)
    whole = whole_cost(c)
    for budget in range(whole - 300, whole + 40, 3):
        for reserve in (True, False):
            plan = plan_diff(c, budget, reserve_file_list=reserve)
            check_invariants(c, plan, budget, 4)
    plan = plan_diff(c, whole + 200)
    assert len(plan.chunks) == 1 and len(plan.chunks[0].files) == 40


def test_packed_chunks_never_overflow() -> None:
    files = [change(f"src/p{i:02}.py", hunk(1, added=20 + 7 * i, text="z")) for i in range(12)]
    c = commit(*files)
    for budget in range(600, 1800, 11):
        plan = plan_diff(c, budget, max_chunks=2, reserve_file_list=False)
        check_invariants(c, plan, budget, 2)


def test_header_flags_source_truncation_and_escapes_paths() -> None:
    f = change("src/we\nird.py", hunk(1, added=2), patch_truncated=True)
    plan = plan_diff(commit(f), 2000)
    text = format_chunk(plan.chunks[0])
    assert text.splitlines()[0] == "=== src/we\\x0aird.py (modified, +2/-0, diff truncated) ==="


def test_empty_and_tiny_budgets() -> None:
    assert plan_diff(commit(), 1000).chunks[0].files == []
    c = commit(change("src/a.py", hunk(1, added=500)))
    for budget in (0, 1, 10, 50):
        check_invariants(c, plan_diff(c, budget), budget, 4)
    with pytest.raises(ValueError):
        plan_diff(c, -1)
    with pytest.raises(ValueError):
        plan_diff(c, 100, max_chunks=0)


def test_a_quarter_million_changed_lines_plan_within_budget() -> None:
    line = "+    value = compute(alpha, beta, gamma)  # comment\n"
    one = "@@ -0,0 +1,150000 @@\n" + line * 150_000  # one huge hunk
    many = "".join(f"@@ -{i * 10},0 +{i * 10},5 @@\n" + line * 5 for i in range(1, 10_001))
    files = [
        FileChange(path="src/huge.py", additions=150_000, deletions=0, patch=one),
        FileChange(path="src/many.py", additions=50_000, deletions=0, patch=many),
        *[
            FileChange(path=f"tests/t{i}.py", additions=1000, deletions=0, patch=many[:60_000])
            for i in range(50)
        ],
    ]
    c = commit(*files)
    plan = plan_diff(c, 22_000)
    check_invariants(c, plan, 22_000, 4)
    assert len(plan.chunks) == 4
    assert plan.chunks[0].files[0].path == "src/huge.py"


# ---- the property ------------------------------------------------------------------------


def whole_cost(c: Commit) -> int:
    """Tokens of the file list and of all diff text in one chunk (a budget that fits it all)."""
    plan = plan_diff(c, 10**9, list_share=1.0, reserve_file_list=False)
    return plan.file_list_tokens + plan.chunks[0].estimated_tokens


PATHS = [
    "src/mod{}.py", "tests/test_{}.py", "docs/page{}.md", "ci/job{}.yml", "pkg{}/yarn.lock",
    "vendor/v{}/x.go", "web/app{}.min.js", "img/pic{}.png", "gen/x{}_pb2.py", "中文/文件{}.py",
]  # fmt: skip


@st.composite
def file_changes(draw: st.DrawFn, index: int) -> FileChange:
    path = draw(st.sampled_from(PATHS)).format(index)
    status = draw(st.sampled_from(list(FileStatus)))
    if draw(st.integers(0, 9)) == 0:
        return FileChange(path=path, status=status, binary=True, additions=None, deletions=None)
    text = draw(st.sampled_from(["x", "中文", "é"]))
    width = draw(st.integers(1, 60))
    hunks = []
    added = removed = 0
    for h in range(draw(st.integers(0, 4))):
        big = draw(st.integers(0, 9)) == 0  # now and then thousands of lines
        n_add = draw(st.integers(0, 3000) if big else st.integers(0, 20))
        n_del = draw(st.integers(0, 30))
        hunks.append(f"@@ -{h * 2000 + 1},{n_del} +{h * 2000 + 1},{n_add} @@\n")
        hunks.append(f"-{text * width}\n" * n_del + f"+{text * width}\n" * n_add)
        added, removed = added + n_add, removed + n_del
    return FileChange(
        path=path, status=status, additions=added, deletions=removed, patch="".join(hunks),
        patch_truncated=draw(st.booleans()),
    )  # fmt: skip


@st.composite
def commits(draw: st.DrawFn) -> Commit:
    n = draw(st.one_of(st.integers(0, 12), st.integers(0, 300)))
    return commit(*[draw(file_changes(i)) for i in range(n)])


@settings(  # no shrinking: a failing example of 300 files would shrink for minutes
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    commits(),
    st.one_of(st.integers(0, 30_000), st.floats(0.0, 1.3)),
    st.integers(1, 6),
    st.floats(0.05, 1.0),
    st.floats(0.0, 0.5),
    st.booleans(),
)
def test_every_file_is_placed_once_within_budget_deterministically(
    c: Commit, size: int | float, max_chunks: int, share: float, list_share: float, reserve: bool
) -> None:
    budget = size if isinstance(size, int) else int(size * whole_cost(c))  # around the edge
    plan = plan_diff(
        c, budget, max_chunks=max_chunks, file_share=share, list_share=list_share,
        reserve_file_list=reserve,
    )  # fmt: skip
    check_invariants(c, plan, budget, max_chunks)
    named = len(plan.listed_only) + sum(len(ch.files) for ch in plan.chunks)
    if reserve and named:  # the file list keeps to its share
        assert plan.reserved_for_file_list <= int(list_share * budget)
    originals = {f.path: prepare_patch(f.patch) for f in c.files}
    for f in (f for ch in plan.chunks for f in ch.files):  # whole, or a head and a marker
        head, marker, rest = f.patch.rpartition("… [")
        if not f.clipped:
            assert f.patch == originals[f.path]
        else:
            assert marker and rest.endswith(" more lines of this file's diff not shown]\n")
            assert originals[f.path].startswith(head[:-1])
    assert plan == plan_diff(
        c, budget, max_chunks=max_chunks, file_share=share, list_share=list_share,
        reserve_file_list=reserve,
    )  # fmt: skip
