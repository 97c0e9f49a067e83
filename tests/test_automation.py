"""Automated commits: which they are, how they are rated, and their block in the report."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from commitdigest.analysis.automation import automation_importance, is_automated, parse_bump
from commitdigest.models import (
    Analysis,
    ApiChange,
    ApiChangeType,
    ChangeType,
    Commit,
    FileChange,
    FileStatus,
    Importance,
    RadarKind,
)

WHEN = datetime(2026, 7, 28, 12, tzinfo=UTC)


def commit(title: str, *paths: str, author: str = "A. Person", body: str = "") -> Commit:
    files = tuple(
        FileChange(path=p, status=FileStatus.MODIFIED, additions=3, deletions=1, patch="")
        for p in paths
    )
    return Commit(sha="a" * 40, parents=("b" * 40,), title=title, body=body, author=author,
                  author_email="", authored_at=WHEN, committed_at=WHEN, files=files)  # fmt: skip


def analysis(importance: Importance) -> Analysis:
    return Analysis(
        change_type=ChangeType.DEPENDENCY,
        importance=importance,
        summary="s",
        analyser="rules",
        analyser_version="x",
    )


@pytest.mark.parametrize(
    ("title", "package", "old", "new", "major"),
    [
        ("Update Rust crate serde to v1.0.229 (#20717)", "serde", None, "v1.0.229", False),
        ("Update Rust crate syn to v3 (#20732)", "syn", None, "v3", True),
        ("Bump requests from 2.31.0 to 2.32.0 in /docs", "requests", "2.31.0", "2.32.0", False),
        ("Bump pydantic from 1.10.2 to 2.0.1", "pydantic", "1.10.2", "2.0.1", True),
        ("chore(deps): update dependency ruff to v0.6.1", "ruff", None, "v0.6.1", False),
        ("Update astral-sh/setup-uv action to v9", "astral-sh/setup-uv", None, "v9", True),
        ("Update pre-commit hook astral-sh/ruff-pre-commit to v0.16.0", "astral-sh/ruff-pre-commit",
         None, "v0.16.0", False),
    ],
)  # fmt: skip
def test_bump_titles(title: str, package: str, old: str | None, new: str, major: bool) -> None:
    bump = parse_bump(title)
    assert bump is not None and (bump.package, bump.old, bump.new) == (package, old, new)
    assert bump.major_jump is major
    assert parse_bump("Sync latest Python releases") is None


def test_which_commits_are_automated() -> None:
    assert is_automated(
        commit("Update Rust crate serde to v1.0.229", "Cargo.lock", author="renovate[bot]")
    )
    assert is_automated(
        commit("[pre-commit.ci] autoupdate", ".pre-commit-config.yaml", author="pre-commit-ci[bot]")
    )
    # a person's pure lock bump is routine too; a merge bot's real change is not
    assert is_automated(commit("Bump ruff to 0.6", "uv.lock", "pyproject.toml"))
    assert not is_automated(
        commit("Reject MD5-only hashes", "crates/uv/src/hash.rs", author="merge-bot[bot]")
    )
    # a release is no routine update, whoever makes it
    release = commit("Bump version to 0.12.0", "Cargo.toml", "CHANGELOG.md", author="release[bot]")
    assert not is_automated(release)
    assert not is_automated(commit("Bump the limit to 5", "pkg/core.py"))
    # a bot's release notes of what was merged are routine; its release, or a person's
    # notes, are not
    notes = "docs/en/docs/release-notes.md"
    assert is_automated(commit("📝 Update release notes", notes, author="github-actions[bot]"))
    assert not is_automated(commit("Release 0.139.2", notes, author="github-actions[bot]"))
    assert not is_automated(commit("📝 Update release notes", notes))
    # code named like a changelog is code: a bot's change to it is no release notes
    assert not is_automated(
        commit("Record each run in the history", "src/pkg/history.py", author="ci-bot[bot]")
    )
    # the config names more accounts
    mine = commit("Refresh data", "data/fixtures/a.lock", author="Acme Updater")
    assert not is_automated(mine) and is_automated(mine, ["acme updater"])


def test_automated_commits_are_low_unless_there_is_a_reason() -> None:
    bump = commit("Update Rust crate serde to v1.0.229", "Cargo.lock", author="renovate[bot]")
    got = automation_importance(analysis(Importance.MEDIUM), bump, [], "en")
    assert got.importance is Importance.LOW and "low" in got.notes[-1]
    # a new major stays in the block, flagged (a lock file cannot tell run-time from build)
    major = commit("Update Rust crate syn to v3", "Cargo.lock", author="renovate[bot]")
    got = automation_importance(analysis(Importance.MEDIUM), major, [], "en")
    assert got.importance is Importance.LOW
    assert any("new major version of `syn` (v3)" in n for n in got.notes)
    ci_major = commit("Update astral-sh/setup-uv action to v9", ".github/workflows/ci.yml",
                      author="renovate[bot]")  # fmt: skip
    assert automation_importance(analysis(Importance.LOW), ci_major, [], "en").importance is (
        Importance.LOW
    )
    # a bot's body quotes release notes: a word there is no reason, an advisory id is
    noisy = commit("Update a to v1.2.4", "Cargo.lock", author="renovate[bot]",
                   body="Release notes: security of the docs improved")  # fmt: skip
    assert automation_importance(analysis(Importance.LOW), noisy, [], "en").importance is (
        Importance.LOW
    )
    advisory = commit("Update a to v1.2.4", "Cargo.toml", author="renovate[bot]",
                      body="Fixes GHSA-abcd-1234-wxyz")  # fmt: skip
    got = automation_importance(analysis(Importance.LOW), advisory, [], "zh")
    assert got.importance is Importance.MEDIUM and "GHSA-abcd-1234-wxyz" in got.notes[-1]
    # the same advisory in a lock file or the project's own tools does not reach users
    for path in ("Cargo.lock", "internal/tools/go.mod", "requirements-dev.txt"):
        quiet = commit("Update a to v1.2.4 [security]", path, author="renovate[bot]",
                       body="Fixes GHSA-abcd-1234-wxyz")  # fmt: skip
        got = automation_importance(analysis(Importance.MEDIUM), quiet, [], "en")
        assert got.importance is Importance.LOW, path
        assert any("does not reach users" in n for n in got.notes), path
    breaking = ApiChange(kind=RadarKind.DEPENDENCY, change=ApiChangeType.VERSION_CHANGED, name="a")
    got = automation_importance(analysis(Importance.HIGH), bump, [breaking], "en")
    assert got.importance is Importance.HIGH


def test_the_bump_is_found_by_the_analysis_and_only_shown_by_the_report() -> None:
    """The analysis stage reads an update's versions from its title and keeps them on the
    analysis; the renderers show that field and never parse a title themselves."""
    from test_render_markdown import GENERATED, day_window, make_commit

    from commitdigest.render import build_context, render_markdown
    from commitdigest.render.context import RepositoryInput

    major = commit("Bump pydantic from 1.10.2 to 2.0.1", "requirements.txt", author="x[bot]")
    got = automation_importance(analysis(Importance.LOW), major, [], "en").bump
    assert got is not None
    assert (got.package, got.old, got.new, got.major) == ("pydantic", "1.10.2", "2.0.1", True)
    unnamed = commit("Lock file maintenance", "uv.lock", author="renovate[bot]")
    assert automation_importance(analysis(Importance.LOW), unnamed, [], "en").bump is None

    def table_row(stored: Analysis) -> str:
        bumped = make_commit("Bump requests from 2.31.0 to 2.32.0", WHEN)
        ctx = build_context(
            [
                RepositoryInput(
                    name="o/r", url=None, branch="main", commits=[bumped],
                    analyses={bumped.sha: stored}, automated=frozenset({bumped.sha}),
                )
            ],
            day_window("2026-07-28", "UTC"), lang="en", generated_at=GENERATED,
        )  # fmt: skip
        md = render_markdown(ctx)
        return next(line for line in md.splitlines() if "Bump requests" in line)

    filled = automation_importance(
        analysis(Importance.LOW), commit("Bump requests from 2.31.0 to 2.32.0"), [], "en"
    )
    assert "| 2.31.0 → 2.32.0 |" in table_row(filled)
    # an analysis without the field (an older report's JSON) shows none: nothing is parsed
    assert "→" not in table_row(analysis(Importance.LOW))
