"""Real LLM providers work the first time: the CLI against fakes of what each service
documents (tests/fake_providers.py). No fallback where a client can work around it, one
refused request per adaptation (never one per commit), no reasoning text in any output,
and exit 8 with the cause where nothing can be done."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fake_openai import FakeOpenAI
from fake_providers import (
    DashScopeQwen3,
    DeepSeek,
    Faulty,
    NestedKeys,
    OpenAIReasoning,
    Provider,
    RateLimited,
    Reasoning,
    StrictServer,
    VLLMWrongParser,
    WrongLanguage,
    openai_error,
    serve,
)
from gitfixture import CommitSpec, build_repo
from typer.testing import CliRunner

from commitdigest.cli import app

runner = CliRunner()
KEY = "sk-test-PROVIDERS-0123456789abcdef"
DAY = "2026-04-01"
COMMITS = 5


@dataclass
class Run:
    exit_code: int
    stderr: str
    analyses: list[dict[str, Any]]
    outputs: dict[str, str]  # every file written, and stderr
    home: Path

    @property
    def fallbacks(self) -> int:
        return sum(a["status"] == "fallback" for a in self.analyses)

    def runs(self) -> list[tuple[str, str | None, dict[str, Any]]]:
        with sqlite3.connect(self.home / "commitdigest.sqlite3") as conn:
            rows = conn.execute("SELECT status, error, llm_json FROM runs ORDER BY id").fetchall()
        return [(r[0], r[1], json.loads(r[2])) for r in rows]


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("providers") / "repo"
    build_repo(
        path,
        [
            CommitSpec(
                f"fix: change {i} of the scheduler",
                f"{DAY}T{8 + i:02d}:00:00+00:00",
                files={f"src/mod_{i}.py": f"value = {i}\n"},
            )
            for i in range(COMMITS)
        ],
    )
    return path


def report(repo: Path, tmp: Path, base_url: str, model: str, **env: str) -> Run:
    out, home = tmp / "out", tmp / "home"
    environ = {
        "COMMITDIGEST_HOME": str(home),
        "OPENAI_BASE_URL": base_url,
        "OPENAI_API_KEY": KEY,
        "COMMITDIGEST_LLM__MODEL": model,
        "COMMITDIGEST_LLM__TIMEOUT_S": "5",
        **env,
    }
    result = runner.invoke(
        app,
        ["report", str(repo), "--date", DAY, "--tz", "UTC", "--analyser", "llm",
         "--out", str(out), "--format", "md,json,html"],
        env=environ,
    )  # fmt: skip
    outputs = {"stderr": result.stderr}
    analyses: list[dict[str, Any]] = []
    if out.is_dir():
        outputs |= {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
        context = json.loads(outputs.get(f"{DAY}.json", "{}") or "{}")
        for repository in context.get("repositories", []):
            analyses += [c["analysis"] for c in repository["commits"]]
    return Run(result.exit_code, result.stderr, analyses, outputs, home)


def served(provider: Provider, repo: Path, tmp: Path, **env: str) -> Run:
    with serve(provider) as server:
        return report(repo, tmp, server.base_url, provider.model, **{**provider.env, **env})


def assert_clean(run: Run, provider: Provider) -> None:
    """Every commit analysed by the model, the report written, the refusals few."""
    assert run.exit_code == 0, run.stderr
    assert len(run.analyses) == COMMITS
    assert run.fallbacks == 0, [a["notes"] for a in run.analyses if a["status"] == "fallback"]
    assert provider.refused <= provider.max_refused, provider.refused
    for name, text in run.outputs.items():
        assert "THOUGHT-MARKER" not in text and "secret_helper" not in text, name
        assert "<think>" not in text, name
        assert KEY not in text, name


# ---- the first request teaches, once -------------------------------------------------------


@pytest.mark.parametrize("model", ["o4-mini", "house-reasoner-7"])
def test_a_reasoning_model_that_refuses_max_tokens_and_temperature(
    repo: Path, tmp_path: Path, model: str, caplog: pytest.LogCaptureFixture
) -> None:
    """Known by its name (no refusal) or not (two refusals: one per thing learnt)."""
    provider = OpenAIReasoning(model=model)
    run = served(provider, repo, tmp_path)
    assert_clean(run, provider)
    assert provider.refused == (0 if model == "o4-mini" else 2)
    if provider.refused:  # each adaptation is said once, not once per commit
        assert caplog.text.count("from now on: max_completion_tokens") == 1
    # the overview thinks too: it gets the same room, and is the model's
    assert "🧭" in run.outputs[f"{DAY}.md"]
    context = json.loads(run.outputs[f"{DAY}.json"])
    assert context["repositories"][0]["overview"]["analyser"] == "llm"


@pytest.mark.parametrize(
    ("model", "provider_setting", "refused"),
    [
        ("deepseek-chat", "auto", 1),  # a local URL: learnt from one refusal
        ("deepseek-chat", "deepseek", 0),  # the profile knows
        ("deepseek-reasoner", "deepseek", 0),
    ],
)
def test_deepseek_json_object_and_its_reasoner(
    repo: Path, tmp_path: Path, model: str, provider_setting: str, refused: int
) -> None:
    provider = DeepSeek(model=model)
    run = served(provider, repo, tmp_path, COMMITDIGEST_LLM__PROVIDER=provider_setting)
    assert_clean(run, provider)
    assert provider.refused == refused


@pytest.mark.parametrize(
    ("provider_setting", "extra_body", "refused"),
    [
        ("dashscope", "", 0),  # the profile sends enable_thinking: false
        ("auto", "", 1),  # learnt from the server's words
        ("auto", '{"chat_template_kwargs": {"enable_thinking": false}}', 2),  # README's tip
    ],
)
def test_dashscope_qwen3_needs_enable_thinking_false(
    repo: Path, tmp_path: Path, provider_setting: str, extra_body: str, refused: int
) -> None:
    provider = DashScopeQwen3()
    env = {"COMMITDIGEST_LLM__PROVIDER": provider_setting}
    if extra_body:
        env["COMMITDIGEST_LLM__EXTRA_BODY"] = extra_body
    run = served(provider, repo, tmp_path, **env)
    assert_clean(run, provider)
    assert provider.refused == refused


def test_a_strict_server_refuses_vllms_chat_template_kwargs_once(
    repo: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    provider = StrictServer()
    extra = '{"chat_template_kwargs": {"enable_thinking": false}}'
    run = served(provider, repo, tmp_path, COMMITDIGEST_LLM__EXTRA_BODY=extra)
    assert_clean(run, provider)
    assert provider.refused == 1
    assert caplog.text.count("without chat_template_kwargs") == 1


# ---- reasoning never reaches a report -------------------------------------------------------


@pytest.mark.parametrize("where", ["reasoning_content", "reasoning", "think"])
def test_reasoning_is_read_apart_and_never_shown(repo: Path, tmp_path: Path, where: str) -> None:
    provider = Reasoning(where=where)
    assert_clean(served(provider, repo, tmp_path), provider)


def test_an_answer_left_in_reasoning_content_is_used_and_the_fix_named_once(
    repo: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    provider = VLLMWrongParser()
    run = served(provider, repo, tmp_path, COMMITDIGEST_LLM__PROVIDER="vllm")
    assert_clean(run, provider)
    assert caplog.text.count("--reasoning-parser qwen3") == 1
    assert run.runs()[-1][2]["answer_in_reasoning"] == COMMITS + 1  # and the overview


# ---- rate limits: waits, not attempts; one hold-off for every worker -----------------------


@pytest.mark.parametrize("style", ["x-ratelimit", "body", "retry-after"])
def test_rate_limits_cost_waits_not_commits(repo: Path, tmp_path: Path, style: str) -> None:
    provider = RateLimited(style=style, limit=1, delay=0.05)
    run = served(
        provider,
        repo,
        tmp_path,
        COMMITDIGEST_LLM__MAX_ATTEMPTS="1",
        COMMITDIGEST_LLM__MAX_CONCURRENCY="8",
    )
    assert_clean(run, provider)
    assert provider.limited > 0  # the limit was hit, and cost no commit
    record = run.runs()[-1][2]
    assert record["waits"] >= 1 and "retries" not in record


# ---- answers repaired, in the right language -----------------------------------------------


def test_nested_keys_in_another_case_are_read_and_counted(repo: Path, tmp_path: Path) -> None:
    provider = NestedKeys()
    run = served(provider, repo, tmp_path)
    assert_clean(run, provider)
    first = run.analyses[0]
    assert first["insights"][0]["dimension"] == "architecture"
    assert first["risks"][0]["effect"] and first["importance"] == "medium"
    repairs = run.runs()[-1][2]["repairs"]
    assert repairs["keys"] >= COMMITS * 9 and repairs["wrapper"] == COMMITS


def test_an_answer_in_the_wrong_language_is_asked_again(repo: Path, tmp_path: Path) -> None:
    provider = WrongLanguage()
    run = served(provider, repo, tmp_path)
    assert_clean(run, provider)
    assert all("调度" in a["summary"] for a in run.analyses)
    assert run.runs()[-1][2]["unusable"] == {"language": COMMITS}


def test_a_model_that_keeps_the_wrong_language_falls_back_marked_and_degrades(
    repo: Path, tmp_path: Path
) -> None:
    provider = WrongLanguage(stubborn=True)
    run = served(provider, repo, tmp_path)
    assert run.exit_code == 8
    assert run.fallbacks == COMMITS
    assert all(a["notes"][0] == "模型两次未用报告语言作答" for a in run.analyses)
    assert "Fixes a crash" not in run.outputs[f"{DAY}.md"]
    (line,) = [x for x in run.stderr.splitlines() if x.startswith("error: ")]
    assert f"{COMMITS} of {COMMITS} LLM analyses fell back" in line
    assert "(from OPENAI_BASE_URL)" in line and "another language" in line
    status, error, llm = run.runs()[-1]
    assert status == "degraded" and error and "fell back" in error
    assert llm["made"] == llm["fallback"] == COMMITS
    listed = runner.invoke(app, ["runs", "--home", str(run.home)], env={"COLUMNS": "300"})
    assert "degraded" in listed.stdout and f"{COMMITS} made, {COMMITS} fell back" in listed.stdout
    assert f"覆盖：{COMMITS}/{COMMITS} 已分析（规则 {COMMITS}" in run.outputs[f"{DAY}.md"]


# ---- transient faults: no fallback ---------------------------------------------------------


def test_thirty_percent_transient_faults_cost_no_commit(repo: Path, tmp_path: Path) -> None:
    provider = Faulty(rate=0.3, seed=3, faults=("500", "503", "429-reset", "drop", "empty"))
    run = served(provider, repo, tmp_path)
    assert_clean(run, provider)
    assert sum(provider.injected.values()) > 0


# ---- what no client can work around: exit 8 with the cause ----------------------------------


def test_a_dead_endpoint_exits_8_naming_the_url(repo: Path, tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        dead = server.base_url
    run = report(repo, tmp_path, dead, "fake-model", COMMITDIGEST_LLM__MAX_ATTEMPTS="2")
    assert run.exit_code == 8
    (line,) = [x for x in run.stderr.splitlines() if x.startswith("error: ")]
    assert f"cannot reach the LLM endpoint {dead} (from OPENAI_BASE_URL)" in line
    assert "Traceback" not in run.stderr
    assert run.runs()[-1][0] == "failed"


def test_an_unknown_model_exits_8_with_the_servers_words(repo: Path, tmp_path: Path) -> None:
    class Unknown(Provider):
        def refuse(self, request: Any, body: dict[str, Any]) -> Any:
            return openai_error("The model `nope` does not exist", code="model_not_found")

    provider = Unknown(model="nope")
    run = served(provider, repo, tmp_path)
    assert run.exit_code == 8
    assert provider.refused == 1  # not one per commit
    assert "does not exist" in run.stderr and "llm.model" in run.stderr


def test_an_unknown_refusal_on_the_first_request_stops_the_run_once(
    repo: Path, tmp_path: Path
) -> None:
    class Picky(Provider):
        def refuse(self, request: Any, body: dict[str, Any]) -> Any:
            return openai_error("Invalid value for 'seed_mode': must be one of 'a', 'b'")

    provider = Picky()
    run = served(provider, repo, tmp_path)
    assert run.exit_code == 8
    assert provider.refused == 2  # the request, then the probe that shows it is the shape
    assert "seed_mode" in run.stderr


def test_a_server_failing_most_commits_degrades_the_run(repo: Path, tmp_path: Path) -> None:
    class Failing(Provider):
        def refuse(self, request: Any, body: dict[str, Any]) -> Any:
            with self.lock:
                self.answered += 0
            if "change 4" in request.prompt or "commit_analyses" in request.prompt:
                return None  # the first commit (newest) and the overview are answered
            return openai_error("content rejected by the moderation filter")

    provider = Failing()
    run = served(provider, repo, tmp_path)
    assert run.exit_code == 8
    assert run.fallbacks == COMMITS - 1
    assert run.runs()[-1][0] == "degraded"
    assert f"{COMMITS} LLM analyses" in run.stderr


def test_llm_check_prints_what_works_and_the_settings(tmp_path: Path) -> None:
    provider = DashScopeQwen3()
    with serve(provider) as server:
        result = runner.invoke(
            app,
            ["llm", "check"],
            env={
                "COMMITDIGEST_HOME": str(tmp_path),
                "OPENAI_BASE_URL": server.base_url,
                "OPENAI_API_KEY": KEY,
                "COMMITDIGEST_LLM__MODEL": "qwen3-32b",
            },
        )
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "reachable    yes" in text and "accepted (the API key from OPENAI_API_KEY)" in text
    assert "enable_thinking: false" in text  # learnt, once
    assert "[llm.extra_body]" in text and "enable_thinking = false" in text
    assert provider.refused == 1 and KEY not in text + result.stderr


def test_llm_check_on_a_dead_endpoint_exits_8(tmp_path: Path) -> None:
    with FakeOpenAI() as server:
        dead = server.base_url
    result = runner.invoke(
        app,
        ["llm", "check"],
        env={
            "COMMITDIGEST_HOME": str(tmp_path),
            "OPENAI_BASE_URL": dead,
            "OPENAI_API_KEY": KEY,
            "COMMITDIGEST_LLM__MAX_ATTEMPTS": "1",
        },
    )
    assert result.exit_code == 8
    assert "reachable    no" in result.stdout and dead in result.stderr


def test_azure_gets_its_key_header_and_api_version(repo: Path, tmp_path: Path) -> None:
    provider = Provider(name="azure", model="gpt-4o")
    with serve(provider) as server:
        run = report(
            repo, tmp_path, server.base_url + "/openai/deployments/gpt-4o", "gpt-4o",
            COMMITDIGEST_LLM__PROVIDER="azure",
        )  # fmt: skip
        sent = server.chat_requests
    assert_clean(run, provider)
    assert all(r.headers.get("api-key") == KEY for r in sent)
    assert all(r.path.endswith("/chat/completions?api-version=2024-10-21") for r in sent)
    assert all("max_tokens" in r.body for r in sent)  # Azure's older API versions
