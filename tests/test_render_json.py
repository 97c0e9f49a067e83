"""The JSON output: stable, UTF-8, and enough to render the Markdown report again."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from test_mdtext import HOSTILE
from test_render_markdown import (
    GENERATED,
    SHANGHAI,
    day_window,
    make_analysis,
    make_commit,
    repo_input,
    seed_context,
)

from commitdigest.errors import OutputError
from commitdigest.models import IMPORTANCE_ORDER, AnalysisStatus, ReportContext
from commitdigest.render import build_context, load_context, render_json, render_markdown


def hostile_context(lang: str = "en") -> ReportContext:
    when = datetime(2026, 1, 13, 12, tzinfo=SHANGHAI)
    commits = [
        make_commit(title, when - timedelta(minutes=i), author="Ünïcødé 作者")
        for i, title in enumerate(HOSTILE)
    ]
    analyses = {
        c.sha: make_analysis(
            IMPORTANCE_ORDER[i % 3],
            text="\n".join(HOSTILE),
            analyser="llm" if i % 2 else "rules",
            status=AnalysisStatus.FALLBACK if i % 5 == 0 else AnalysisStatus.OK,
        )
        for i, c in enumerate(commits)
    }
    naive = make_commit("naive time", datetime(2026, 1, 13, 3, 0))  # read as UTC
    analyses[naive.sha] = make_analysis(IMPORTANCE_ORDER[0])
    return build_context(
        [repo_input([*commits, naive], analyses=analyses), repo_input([], "o/empty")],
        day_window(),
        lang=lang,
        generated_at=GENERATED,
    )


@pytest.mark.parametrize("make", [seed_context, hostile_context])
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_markdown_renders_from_the_json_alone(make: object, lang: str) -> None:
    ctx = make(lang)  # type: ignore[operator]
    text = render_json(ctx)
    loaded = load_context(text)
    assert loaded == ctx
    assert render_markdown(loaded) == render_markdown(ctx)
    assert render_json(loaded) == text


def test_json_is_pretty_utf8_stable_and_ends_with_a_newline() -> None:
    ctx = hostile_context("zh")
    text = render_json(ctx)
    assert text == render_json(hostile_context("zh"))
    assert text.endswith("}\n") and text.startswith('{\n  "schema_version": 1,')
    assert "Ünïcødé 作者" in text and "\\u4f5c" not in text  # not ASCII-escaped
    data = json.loads(text)
    assert list(data) == [
        "schema_version",
        "generated_at",
        "lang",
        "window",
        "repositories",
        "coverage",
        "usage",
    ]
    assert data["coverage"]["total"] == len(HOSTILE) + 1
    assert text.encode("utf-8").decode("utf-8") == text


def test_lone_surrogates_become_replacement_characters() -> None:
    commit = make_commit("bad \udcff byte", datetime(2026, 1, 13, 1, tzinfo=UTC))
    ctx = build_context(
        [repo_input([commit], analyses={commit.sha: make_analysis(IMPORTANCE_ORDER[2])})],
        day_window(),
        lang="en",
        generated_at=GENERATED,
    )
    text = render_json(ctx)
    text.encode("utf-8")  # must not raise
    loaded = load_context(text)
    assert loaded.repositories[0].commits[0].title == "bad \ufffd byte"
    assert render_markdown(loaded) == render_markdown(ctx)


def test_only_the_generated_at_differs_between_runs() -> None:
    first = json.loads(render_json(seed_context()))
    later_ctx = seed_context().model_copy(update={"generated_at": GENERATED + timedelta(days=1)})
    later = json.loads(render_json(later_ctx))
    assert first["generated_at"] != later["generated_at"]
    first.pop("generated_at")
    later.pop("generated_at")
    assert first == later


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "invalid JSON report context"),
        ("{not json", "invalid JSON report context"),
        ("[1, 2]", "expected a JSON object, got list"),
        ('{"schema_version": 2}', "unsupported report context schema_version 2"),
        ('{"lang": "zh"}', "invalid report context: generated_at"),
    ],
)
def test_bad_input_is_a_one_line_output_error(text: str, message: str) -> None:
    with pytest.raises(OutputError) as info:
        load_context(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def _mutated(change: dict[str, object], where: str = "top") -> str:
    data = json.loads(render_json(seed_context()))
    target = data if where == "top" else data["repositories"][0]["commits"][0]
    target.update(change)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (_mutated({"lang": "fr"}), "unsupported report language 'fr'"),
        (_mutated({"anchor": 'x"><script>'}, "commit"), "invalid anchor"),
        (_mutated({"extra": 1}), "extra: Extra inputs are not permitted"),
        (_mutated({"committed_at": "yesterday"}, "commit"), "committed_at"),
    ],
)
def test_wrong_shape_is_an_output_error(text: str, message: str) -> None:
    with pytest.raises(OutputError) as info:
        load_context(text)
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_duplicate_anchors_are_refused() -> None:
    data = json.loads(render_json(seed_context()))
    commits = data["repositories"][0]["commits"]
    commits[1]["anchor"] = commits[0]["anchor"]
    with pytest.raises(OutputError, match="used twice"):
        load_context(json.dumps(data))
