"""Grounding: an LLM analysis keeps only what its commit supports.

Unit tests of finding, looking up and removing mentions, then the whole report against
the fake LLM server answering with invented and real mentions: invented ones never reach
Markdown, HTML, JSON text or chat; real ones stay; a cached answer is grounded again with
no new request; an answer with nothing real falls back to the rules, marked.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI, RecordedRequest, answer
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.analysis.grounding import Evidence, find_mentions, ground, prune, supported
from commitdigest.analysis.llm.prompt import DATA_OPEN
from commitdigest.cli import app
from commitdigest.models import Analysis, Commit, FileChange, Insight, Risk

PATCH = (
    "@@ -10,3 +10,4 @@ class Scheduler:\n"
    "-    def old_preempt(self, seq):\n"
    "+    def preempt(self, seq_group, budget):\n"
    "+        if envs.VLLM_USE_V1 and self.args.enable_chunked_prefill:\n"
    '+            trace = os.environ.get("vllm_trace")\n'
)


def commit(**extra: Any) -> Commit:
    now = datetime(2026, 3, 2, 10, tzinfo=UTC)
    fields: dict[str, Any] = {
        "sha": "a" * 40,
        "title": "Fix scheduler preemption (#123)",
        "body": "Bump to 0.9.2. See also #77.",
        "author": "dev",
        "authored_at": now,
        "committed_at": now,
        "files": (
            FileChange(path="vllm/core/scheduler.py", patch=PATCH),
            FileChange(path="docs/usage.md", patch=""),  # a file the model never saw
        ),
        "pr_number": 123,
        **extra,
    }
    return Commit(**fields)


def analysis(summary: str, **extra: Any) -> Analysis:
    return Analysis(
        change_type="bugfix", importance="high", analyser="llm", summary=summary, **extra
    )


def kinds(text: str) -> list[tuple[str, str]]:
    return [(m.kind, m.value) for m in find_mentions(text)]


def test_mentions_of_every_kind_are_found() -> None:
    text = (
        "Edits `vllm/core/scheduler.py` and usage.md, renames `Scheduler.preempt` and "
        "old_preempt(), reads VLLM_USE_V1 and `--enable-chunked-prefill`, fixes #123 in "
        "v0.9.2; model_runner.execute_model is slow, e.g. in torch.cuda."
    )
    assert kinds(text) == [
        ("path", "vllm/core/scheduler.py"),
        ("path", "usage.md"),
        ("symbol", "Scheduler.preempt"),
        ("symbol", "old_preempt"),
        ("env", "VLLM_USE_V1"),
        ("flag", "--enable-chunked-prefill"),
        ("issue", "#123"),
        ("version", "v0.9.2"),
        ("symbol", "model_runner.execute_model"),
    ]  # "e.g" and "torch.cuda" are prose, not checked
    assert kinds("`abc1234` and `42`") == []  # a SHA, a number


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("`vllm/core/scheduler.py`", True),
        ("`core/scheduler.py`", True),  # a path's tail
        ("`scheduler.py`", True),
        ("`docs/usage.md`", True),  # in the file list, not in any shown diff
        ("`vllm/core/block_manager.py`", False),
        ("`preempt()`", True),  # foo() for foo
        ("`preempt(seq_group, budget)`", True),
        ("`Scheduler.preempt`", True),  # Class.member: both in the diff
        ("`Scheduler.evict_all`", False),
        ("`pre`", False),  # strict: a whole word, not a piece of one
        ("VLLM_TRACE", True),  # env vars in any case
        ("VLLM_FAKE_FLAG", False),
        ("`--enable-chunked-prefill`", True),  # the flag's dest in the diff
        ("`--enable-magic`", False),
        ("#123", True),
        ("#77", True),
        ("#999", False),
        ("v0.9.2", True),
        ("1.4.0", False),
    ],
)
def test_lookup_is_tolerant_where_it_must_be_and_strict_where_it_matters(
    text: str, ok: bool
) -> None:
    (mention,) = find_mentions(text)
    assert supported(mention, Evidence.of(commit())) is ok


def test_radar_facts_are_evidence() -> None:
    from commitdigest.models import ApiChange, ApiChangeType, RadarKind

    item = ApiChange(kind=RadarKind.ENV_VAR, change=ApiChangeType.REMOVED, name="VLLM_OLD_FLAG")
    (mention,) = find_mentions("`VLLM_OLD_FLAG`")
    assert not supported(mention, Evidence.of(commit()))
    assert supported(mention, Evidence.of(commit(), [item]))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # one of a list of mentions goes with its connector
        ("Touches `scheduler.py` and `fake.py`.", "Touches `scheduler.py`."),
        ("Touches `fake.py`, `scheduler.py` and `other.py`.", "Touches `scheduler.py`."),
        # a subordinate clause that says only that goes
        (
            "Fixes `preempt()` in `scheduler.py`, which also changes `FakeAllocator.free`.",
            "Fixes `preempt()` in `scheduler.py`.",
        ),
        # the main clause still names something real: a neutral phrase stands in
        (
            "Adds `fake_helper()` to `vllm/core/scheduler.py`.",
            "Adds related code to `vllm/core/scheduler.py`.",
        ),
        # nothing real in the sentence: it goes, the others stay
        ("Fixes preemption. Set `VLLM_FAKE` to tune it. See #123.", "Fixes preemption. See #123."),
        ("Only `invented_fn()` changed.", ""),
        # Chinese
        (
            "重写了 `scheduler.py` 中的 `preempt()`，并新增了 `fake_helper()`。"
            "引入 `--fake-flag` 参数。",
            "重写了 `scheduler.py` 中的 `preempt()`。",
        ),
        # a bullet list: the item goes
        ("- real: `preempt()`\n- invented: `--magic`", "- real: `preempt()`"),
    ],
)
def test_prune_removes_the_words_that_carry_a_mention(text: str, expected: str) -> None:
    evidence = Evidence.of(commit())
    mentions = {m.text: supported(m, evidence) for m in find_mentions(text)}
    bad = {t for t, ok in mentions.items() if not ok}
    good = {t for t, ok in mentions.items() if ok}
    lang = "zh" if "重写" in text else "en"
    assert prune(text, bad, good, lang) == expected


def test_ground_cleans_every_field_and_records_what_it_removed() -> None:
    raw = analysis(
        "Fixes `preempt()` in `vllm/core/scheduler.py`. Adds `--enable-magic`.",
        impact=["`scheduler.py` preemption", "`imaginary_fn()` deprecated"],
        insights=[Insight(dimension="architecture", text="`GhostClass` is gone.")],
        risks=[
            Risk(risk="`VLLM_NOPE` ignored", effect="x", mitigation="y"),
            Risk(risk="Preemption order changes", effect="see #999", mitigation="Test #123"),
        ],
        recommendations=["Upgrade past v9.9.9", "Check `preempt()` callers"],
    )
    done = ground(raw, commit(), None, "en")
    assert done.summary == "Fixes `preempt()` in `vllm/core/scheduler.py`."
    assert done.impact == ["`scheduler.py` preemption"]
    assert done.insights == []
    assert [r.risk for r in done.risks] == ["Preemption order changes"]
    assert done.risks[0].effect == "" and done.risks[0].mitigation == "Test #123"
    assert done.recommendations == ["Check `preempt()` callers"]
    assert done.grounding is not None and done.grounding.action == "removed"
    assert done.grounding.unsupported == sorted(
        ["`--enable-magic`", "`imaginary_fn()`", "`GhostClass`", "`VLLM_NOPE`", "#999",
         "v9.9.9"]
    )  # fmt: skip
    assert done.grounding.checked == 10
    clean = ground(analysis("Fixes `preempt()`."), commit(), None, "en")
    assert clean.summary == "Fixes `preempt()`." and clean.grounding is not None
    assert clean.grounding.unsupported == [] and clean.grounding.action == "none"


# ---- the whole report --------------------------------------------------------------------

runner = CliRunner()
REAL_PATH = "src/engine/scheduler.py"
INVENTED = ("`src/engine/ghost_cache.py`", "`GhostAllocator.reclaim()`", "`ENGINE_GHOST_MODE`")


def day_repo(path: Path) -> None:
    specs = []
    for i in range(6):
        specs.append(
            CommitSpec(
                f"fix: scheduler case {i}",
                f"2026-03-02T{10 + i:02d}:00:00+00:00",
                files={REAL_PATH: f"def schedule_{i}(queue):\n    return queue[{i}]\n"},
            )
        )
    build_repo(path, specs)


def reply(request: RecordedRequest) -> Any:
    if "commit_analyses" in request.prompt and DATA_OPEN not in request.prompt:  # overview
        return answer({"themes": ["Scheduling"], "key_changes": [], "risks": []})
    i = next(i for i in range(6) if f"fix: scheduler case {i}" in request.prompt)
    real = f"Rewrites `schedule_{i}()` in `{REAL_PATH}`"
    if i == 5:  # nothing real at all
        summary = f"Adds {INVENTED[1]} and sets {INVENTED[2]}."
    elif i % 2:  # half the answers cite an invented path and symbol
        summary = f"{real}, which also moves {INVENTED[1]} to {INVENTED[0]}. Set {INVENTED[2]}."
    else:
        summary = real + "."
    return answer(
        {
            "change_type": "bugfix",
            "change_type_reason": "",
            "importance": "high",
            "summary": summary,
            "impact": [f"`{REAL_PATH}`"] + ([f"{INVENTED[0]} callers"] if i % 2 else []),
            "insights": [],
            "risks": [],
            "recommendations": [],
        }
    )


def test_invented_mentions_never_reach_a_report_and_real_ones_stay(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    day_repo(repo)
    out = tmp_path / "out"
    with FakeOpenAI(reply) as server:
        environ = {
            "COMMITDIGEST_HOME": str(tmp_path / "home"),
            "OPENAI_BASE_URL": server.base_url,
            "OPENAI_API_KEY": "sk-test-grounding",
            "COMMITDIGEST_LLM__MODEL": "fake-model",
        }
        args = ["report", str(repo), "--date", "2026-03-02", "--tz", "UTC", "--analyser", "llm"]
        args += ["--out", str(out), "--format", "md,json,html", "--lang", "en"]
        first = runner.invoke(app, args, env=environ)
        assert first.exit_code in (0, 8), first.stderr  # 8: a fallback (the all-invented one)
        asked = server.request_count
        again = runner.invoke(app, args, env=environ)
        assert again.exit_code == first.exit_code, again.stderr
        assert server.request_count == asked  # cached answers, grounded again, no new call
    md = (out / "2026-03-02.md").read_text(encoding="utf-8")
    page = (out / "2026-03-02.html").read_text(encoding="utf-8")
    data = json.loads((out / "2026-03-02.json").read_text(encoding="utf-8"))
    texts = json.dumps(
        [c["analysis"] | {"grounding": None} for c in data["repositories"][0]["commits"]]
    )
    from commitdigest.deliver.digest import build_digest, plain_text
    from commitdigest.models import ReportContext

    chat = plain_text(build_digest(ReportContext.model_validate(data), report_url=None))
    for invented in INVENTED:
        bare = invented.strip("`")
        for output in (md, page, texts, chat):
            assert bare not in output, bare
    commits = {c["title"]: c for c in data["repositories"][0]["commits"]}
    for i in range(5):  # the real path and symbol stay in every repaired analysis
        summary = commits[f"fix: scheduler case {i}"]["analysis"]["summary"]
        assert f"`schedule_{i}()`" in summary and REAL_PATH in summary, summary
    odd = commits["fix: scheduler case 1"]["analysis"]
    assert odd["grounding"]["action"] == "removed"
    assert set(odd["grounding"]["unsupported"]) == set(INVENTED)
    assert commits["fix: scheduler case 0"]["analysis"]["grounding"]["unsupported"] == []
    assert md.count("⚠️ 3 unverified mentions removed") == 3  # cases 1, 3 and 5
    # the all-invented answer: the rules' analysis, marked, with what was removed
    empty = commits["fix: scheduler case 5"]["analysis"]
    assert empty["analyser"] == "rules" and empty["status"] == "fallback"
    assert "unverified" in empty["notes"][0]
