"""Co-authors, sign-offs and other trailers in commit bodies."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"src/a.py": "a = 1\n"}))
    commit(
        repo,
        CommitSpec(
            "Speed up the tokenizer (#4821)",
            "2026-03-02T08:00:00+00:00",
            body="Caches the vocabulary lookups.\n\nCo-authored-by: Bo Chen <bo@example.com>\nCo-authored-by: Eve <eve@example.com>\nSigned-off-by: Test Author <author@example.com>",
            files={
                "src/tokenizer.py": "from functools import lru_cache\n\n\n@lru_cache\ndef lookup(w):\n    return hash(w)\n"
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            'Revert "Speed up the tokenizer (#4821)"',
            "2026-03-02T09:00:00+00:00",
            body="This reverts commit 0000000.\n\nReviewed-by: Ana <ana@example.com>\nFixes: #4830",
            files={"src/tokenizer.py": "def lookup(w):\n    return hash(w)\n"},
        ),
    )
