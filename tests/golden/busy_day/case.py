"""A busy day: 45 commits of every kind in one window."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]
KINDS = ["Fix", "Add", "Refactor", "docs:", "test:", "perf:", "ci:", "chore(deps): bump"]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"src/base.py": "x = 0\n"}))
    for i in range(45):
        kind = KINDS[i % len(KINDS)]
        if kind.startswith(("docs", "ci")):
            path = f"docs/page{i}.md" if kind == "docs:" else f".github/workflows/w{i}.yml"
        elif kind == "test:":
            path = f"tests/test_{i}.py"
        elif kind.startswith("chore"):
            path = "requirements.txt"
        else:
            path = f"src/mod{i % 9}.py"
        body = "".join(f"def f{i}_{j}(x):\n    return x + {j}\n\n" for j in range(1 + i % 5))
        commit(
            repo,
            CommitSpec(
                f"{kind} change number {i}",
                f"2026-03-02T{i // 4:02d}:{(i % 4) * 15:02d}:00+00:00",
                author=f"Dev {i % 6}",
                email=f"dev{i % 6}@example.com",
                files={path: body},
            ),
        )
