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
