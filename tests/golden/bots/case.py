"""Automated commits: dependabot, renovate and pre-commit-ci bumps beside a human fix."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]


def build(repo: Path) -> None:
    commit(
        repo,
        CommitSpec(
            "Base",
            "2026-03-01T00:00:00+00:00",
            files={
                "requirements.txt": "httpx==0.27.0\n",
                "uv.lock": "version = 1\n",
                ".pre-commit-config.yaml": "repos: []\n",
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Bump httpx from 0.27.0 to 0.28.1",
            "2026-03-02T01:00:00+00:00",
            author="dependabot[bot]",
            email="49699333+dependabot[bot]@users.noreply.github.com",
            body="Bumps [httpx](https://github.com/encode/httpx) from 0.27.0 to 0.28.1.\n\nSigned-off-by: dependabot[bot] <support@github.com>",
            files={"requirements.txt": "httpx==0.28.1\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "chore(deps): update rust crate serde to v1.0.219",
            "2026-03-02T02:00:00+00:00",
            author="renovate[bot]",
            email="29139614+renovate[bot]@users.noreply.github.com",
            files={"uv.lock": "version = 1\n[[package]]\nname = 'serde'\nversion = '1.0.219'\n"},
        ),
    )
    commit(
        repo,
        CommitSpec(
            "[pre-commit.ci] pre-commit autoupdate",
            "2026-03-02T03:00:00+00:00",
            author="pre-commit-ci[bot]",
            email="66853113+pre-commit-ci[bot]@users.noreply.github.com",
            files={
                ".pre-commit-config.yaml": "repos:\n- repo: https://github.com/astral-sh/ruff-pre-commit\n  rev: v0.9.0\n"
            },
        ),
    )
    commit(
        repo,
        CommitSpec(
            "Fix a crash on empty input",
            "2026-03-02T04:00:00+00:00",
            files={"src/read.py": "def read(s):\n    return s or ''\n"},
        ),
    )
