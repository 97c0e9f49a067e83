"""Text is data until the edge: analyses, overviews and the JSON hold commit text as it is;
each renderer (Markdown, HTML, each chat syntax) escapes it once, for its own format."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gitfixture import CommitSpec, build_repo
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from commitdigest.cli import app
from commitdigest.deliver.digest import build_digest
from commitdigest.models import ReportContext

TITLE = "Fix foo_bar <T> in *scheduler* & `x` #2"
# what a Markdown escaper leaves behind: a backslash before ASCII punctuation
MD_ESCAPE = re.compile(r"\\[!-/:-@\[-`{-~]")


def _report(tmp_path: Path, *formats: str) -> Path:
    repo = tmp_path / "repo"
    build_repo(
        repo,
        [
            CommitSpec(TITLE, "2026-03-02T10:00:00+00:00", files={"src/a.py": "x = 1\n"}),
            CommitSpec(
                "Drop the *old* API_KEY [BREAKING]",
                "2026-03-02T11:00:00+00:00",
                body="Removes `old_api()` & <legacy> paths.",
                files={"src/b.py": "y = 2\n"},
            ),
        ],
    )
    out = tmp_path / "out"
    args = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--lang", "en"]
    for fmt in formats:
        args += ["--format", fmt]
    result = CliRunner().invoke(
        app, [*args, "--out", str(out)], env={"COMMITDIGEST_HOME": str(tmp_path / "home")}
    )
    assert result.exit_code == 0, result.output
    return out


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_the_json_holds_commit_text_unescaped(tmp_path: Path) -> None:
    out = _report(tmp_path, "json")
    data = json.loads((out / "2026-03-02.json").read_text(encoding="utf-8"))
    texts = _strings(data)
    escaped = [t for t in texts if MD_ESCAPE.search(t)]
    assert escaped == [], escaped
    assert any(TITLE in t for t in texts if t != TITLE)  # the analysis quotes it as it is
    context = ReportContext.model_validate(data)
    summaries = [e.analysis.summary for r in context.repositories for e in r.commits]
    assert any("Drop the *old* API_KEY [BREAKING]" in s for s in summaries)


def test_markdown_escapes_the_title_once_and_it_renders_back(tmp_path: Path) -> None:
    out = _report(tmp_path, "md")
    text = (out / "2026-03-02.md").read_text(encoding="utf-8")
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert "<T>" not in html  # never raw markup
    assert "&lt;T&gt;" in html
    assert "\\\\" not in text  # escaped once, never twice


def test_chat_digests_show_titles_literally(tmp_path: Path) -> None:
    from commitdigest.deliver.chat_intl import _slack_escape

    out = _report(tmp_path, "json")
    context = ReportContext.model_validate_json(
        (out / "2026-03-02.json").read_text(encoding="utf-8")
    )
    digest = build_digest(context, lang="en", report_url=None)
    values = [v for repo in digest.repos for _, vs in repo.overview for v, _ in vs]
    values += [c.title for repo in digest.repos for c in repo.high]
    assert values, "the digest shows the day's key changes"
    for value in values:
        assert not MD_ESCAPE.search(value), value
        slack = _slack_escape(value)
        assert ("\\" not in slack and "&lt;" in slack) or "<" not in value
