"""Commit text that tries to change the report: Markdown and HTML injection, mentions,
backticks, table pipes, bidi and zero-width characters, a very long title."""

from pathlib import Path

from gitfixture import CommitSpec, commit

ARGS = ["--date", "2026-03-02", "--lang", "en"]
TITLES = [
    "| a | b | <script>alert(1)</script>",
    "# not a heading @here @everyone <!channel>",
    "[click](javascript:alert(1)) `unbalanced ``double`` ***",
    "Fix foo_bar <T> in *scheduler* & &amp; \\ backslash",
    "RTL \u202eevil\u202c and zero\u200bwidth \u2066iso\u2069",
    "A very long title " + "word " * 60,
]


def build(repo: Path) -> None:
    commit(repo, CommitSpec("Base", "2026-03-01T00:00:00+00:00", files={"a.py": "a = 0\n"}))
    for i, title in enumerate(TITLES):
        commit(
            repo,
            CommitSpec(
                title,
                f"2026-03-02T1{i}:00:00+00:00",
                author="<b>Mallory</b> | x",
                email="m@example.com",
                body="## injected\n\n---\n<img src=x onerror=alert(1)>\n\n| t | t |\n|---|---|\n\n```\nunclosed fence",
                files={f"src/f{i}.py": f"x = {i}\n"},
            ),
        )
