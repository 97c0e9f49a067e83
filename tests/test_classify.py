"""One file classifier: the area view (importance, summaries) and the kind view (the LLM's
diff budget) read the same tables, so they never disagree about what a file is."""

from __future__ import annotations

import pytest

from commitdigest.analysis.classify import Area, FileKind, classify_path, kind_of_path

AGREE = [
    ("package-lock.json", Area.DEPENDENCY, FileKind.LOCK),
    ("bun.lock", Area.DEPENDENCY, FileKind.LOCK),
    ("npm-shrinkwrap.json", Area.DEPENDENCY, FileKind.LOCK),
    (".terraform.lock.hcl", Area.DEPENDENCY, FileKind.LOCK),
    ("deps/pubspec.lock", Area.DEPENDENCY, FileKind.LOCK),
    ("external/zlib/inflate.c", Area.GENERATED, FileKind.VENDORED),
    ("third-party/x.py", Area.GENERATED, FileKind.VENDORED),
    ("src/vendor/lib.go", Area.GENERATED, FileKind.VENDORED),
    ("api/gen-src/client.ts", Area.GENERATED, FileKind.GENERATED),
    ("proto/a_pb2.py", Area.GENERATED, FileKind.GENERATED),
    ("web/app.min.js", Area.GENERATED, FileKind.MINIFIED),
    ("lib/model.g.dart", Area.GENERATED, FileKind.GENERATED),
    ("tests/test_x.py", Area.TESTS, FileKind.TEST),
    ("docs/guide.md", Area.DOCS, FileKind.DOCS),
    (".github/workflows/ci.yml", Area.CI_BUILD, FileKind.CONFIG),
    ("src/pkg/core.py", Area.SOURCE, FileKind.SOURCE),
]


@pytest.mark.parametrize(("path", "area", "kind"), AGREE)
def test_both_views_agree(path: str, area: Area, kind: FileKind) -> None:
    assert classify_path(path) is area
    assert kind_of_path(path) is kind


@pytest.mark.parametrize("path", [p for p, _, _ in AGREE])
def test_what_the_llm_skips_never_counts_as_source(path: str) -> None:
    if kind_of_path(path) in (FileKind.LOCK, FileKind.VENDORED, FileKind.GENERATED):
        assert classify_path(path) is not Area.SOURCE


def test_data_files_are_classified_by_what_they_are() -> None:
    from commitdigest.analysis.classify import Area, classify_file

    assert classify_file("crates/uv-python/download-metadata.json", 12) is Area.GENERATED
    assert classify_file("pkg/schemas/big.json", 2016) is Area.GENERATED
    assert classify_file("pkg/schemas/small.json", 20) is Area.SOURCE
    assert classify_file("pkg/schemas/small.json", None) is Area.SOURCE
    assert classify_file("pkg/core.py", 5000) is Area.SOURCE
    assert classify_file("pyproject.toml", 3) is Area.DEPENDENCY  # a manifest, not CI


def test_a_generated_data_file_is_not_counted_as_source() -> None:
    from datetime import UTC, datetime

    from commitdigest.analysis.rules import RuleAnalyser
    from commitdigest.models import Commit, FileChange, FileStatus

    files = (
        FileChange(path="crates/uv-python/download-metadata.json", status=FileStatus.MODIFIED,
                   additions=1008, deletions=1008, patch=""),
        FileChange(path="crates/uv-python/fetch.py", status=FileStatus.MODIFIED, additions=3,
                   deletions=2, patch=""),
    )  # fmt: skip
    when = datetime(2026, 7, 28, tzinfo=UTC)
    commit = Commit(sha="a" * 40, parents=("b" * 40,), title="Sync latest Python releases",
                    body="", author="x", author_email="x@example.org", authored_at=when,
                    committed_at=when, files=files)  # fmt: skip
    notes = " ".join(RuleAnalyser().analyse(commit, lang="en").notes)
    assert "5 lines of core source" in notes and "2,021" not in notes
