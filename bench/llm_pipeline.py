"""Benchmark: the LLM analysis stage against the fake OpenAI server.

Prints, in one run:
1. the wall time of analysing N commits at concurrency C against a server with a fixed
   latency, beside the ideal ceil(N/C) * latency (floor: <= 1.15x the ideal);
2. the number of LLM calls on a re-run of the same commits (floor: 0);
3. the fault server: a day of 31 commits under 30 % transient faults (5xx, 429s that say
   when, dropped connections, requests that hang, slow answers, empty and malformed
   bodies; three seeds), with the client as the settings build it (30 s time-out):
   wall time (floor: 8 s) and fallbacks (floor: 0), with the calls, retries, waits and
   twins it took;
4. rate limits: 31 commits, 8 workers, a server that takes 2 at a time and answers 429
   with a reset header, the body's "try again in 0.3s", or Retry-After (floor: 0 lost);
5. the providers' documented behaviours (tests/fake_providers.py): fallbacks (floor: 0)
   and refused requests (floor: one per adaptation) for each;
6. over generated commits from a one-line change to 250,000 changed lines, the largest
   estimated prompt of any request against the input budget, and prompt + max_tokens
   against the context window (floor: never over).

Usage: python bench/llm_pipeline.py [--commits 45] [--concurrency 8] [--latency 0.3]
Exits non-zero when a floor is missed. Runs offline (127.0.0.1 only).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from fake_openai import FakeOpenAI, answer  # noqa: E402
from fake_providers import (  # noqa: E402
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
    serve,
)

from commitdigest.analysis.llm.analyser import LLMAnalyser, LLMOptions  # noqa: E402
from commitdigest.analysis.llm.client import (  # noqa: E402
    ChatRequest,
    ChatResult,
    ClientOptions,
    Endpoint,
    OpenAIChatClient,
    ScriptedChatClient,
    build_chat_client,
)
from commitdigest.analysis.llm.prompt import estimate_messages  # noqa: E402
from commitdigest.analysis.llm.ratelimit import RateLimiter, RetryPolicy  # noqa: E402
from commitdigest.config import LLMSettings  # noqa: E402
from commitdigest.models import Commit, FileChange  # noqa: E402
from commitdigest.pipeline.factory import llm_options  # noqa: E402
from commitdigest.pipeline.runner import analyse_commits  # noqa: E402
from commitdigest.store import Store  # noqa: E402

WHEN = datetime(2026, 1, 13, 12, tzinfo=UTC)
REPLY = {
    "change_type": "bugfix",
    "change_type_reason": "",
    "importance": "medium",
    "summary": "A summary.",
    "impact": ["src"],
    "insights": [],
    "risks": [],
    "recommendations": ["Test it."],
}


def make_commit(index: int, changed_lines: int, files: int = 1) -> Commit:
    per_file = max(1, changed_lines // files)
    changes = []
    for f in range(files):
        body = "".join(f"+line {n} of file {f} in commit {index}\n" for n in range(per_file))
        patch = f"@@ -0,0 +1,{per_file} @@\n{body}"
        changes.append(
            FileChange(
                path=f"src/pkg_{f % 7}/mod_{f}.py", additions=per_file, deletions=0, patch=patch
            )
        )
    return Commit(
        sha=f"{index:040x}",
        title=f"fix: generated change {index} (#{1000 + index})",
        body="Generated for the benchmark.",
        author="bench",
        authored_at=WHEN,
        committed_at=WHEN,
        files=tuple(changes),
    )


async def latency_stage(n: int, concurrency: int, latency: float, home: Path) -> tuple[float, int]:
    commits = [("bench/repo", make_commit(i, 40 + i * 13 % 200, 1 + i % 4)) for i in range(n)]
    with FakeOpenAI(default=answer(REPLY, delay=latency)) as server:
        client = OpenAIChatClient(
            Endpoint(server.base_url, "bench"),
            ClientOptions(timeout=30, retry=RetryPolicy(max_attempts=2)),
            limiter=RateLimiter(max_concurrency=concurrency),
        )
        analyser = LLMAnalyser(client, LLMOptions(model="fake-model"))
        with Store.open(home) as store:
            # warm the connection pool and imports outside the timed part
            await client.complete(
                ChatRequest(
                    messages=[{"role": "user", "content": "hi"}], model="fake-model", max_tokens=16
                )
            )
            before = len(server.chat_requests)
            clock = time.perf_counter()
            _, tally = await analyse_commits(analyser, commits, lang="zh", store=store)
            wall = time.perf_counter() - clock
            assert tally.made == n and tally.fallback == 0, tally
            first_calls = len(server.chat_requests) - before
            assert first_calls == n, first_calls
            _, again = await analyse_commits(analyser, commits, lang="zh", store=store)
            rerun_calls = len(server.chat_requests) - before - first_calls
            assert again.cached == n
        await client.aclose()
    return wall, rerun_calls


@dataclass
class Day:
    """How one day of commits went against a server."""

    wall: float
    fallbacks: int
    requests: int
    stats: dict[str, Any]


def day_commits(n: int) -> list[tuple[str, Commit]]:
    return [("bench/repo", make_commit(i, 40 + i * 13 % 200, 1 + i % 4)) for i in range(n)]


async def day_against(
    server: FakeOpenAI, model: str, n: int, concurrency: int, home: Path, **settings: Any
) -> Day:
    """Analyse a day of ``n`` commits with the client the settings build (after a warm-up
    request outside the timed part, as in the first stage)."""
    llm = LLMSettings(
        base_url=server.base_url,
        model=model,
        max_concurrency=concurrency,
        timeout_s=30,
        **settings,
    )
    client = build_chat_client(llm)
    analyser = LLMAnalyser(client, llm_options(llm))
    async with client:
        with Store.open(home) as store:
            await client.complete(
                ChatRequest(
                    messages=[{"role": "user", "content": "hi"}], model=model, max_tokens=16
                )
            )
            before = len(server.chat_requests)
            clock = time.perf_counter()
            _, tally = await analyse_commits(analyser, day_commits(n), lang="zh", store=store)
            wall = time.perf_counter() - clock
    stats = {**client.stats.as_dict(), **analyser.stats.as_dict()}
    return Day(wall, tally.fallback, len(server.chat_requests) - before, stats)


async def fault_stage(seed: int, n: int, concurrency: int, latency: float, home: Path) -> Day:
    provider = Faulty(rate=0.3, seed=seed, delay=latency)
    with serve(provider) as server:
        return await day_against(server, "fake-model", n, concurrency, home)


async def rate_limit_stage(style: str, n: int, concurrency: int, home: Path) -> Day:
    provider = RateLimited(style=style, limit=2, delay=0.1)
    with serve(provider) as server:
        return await day_against(server, "fake-model", n, concurrency, home)


BEHAVIOURS: list[tuple[str, Callable[[], Provider], dict[str, Any]]] = [
    ("reasoning model, known name (o4-mini)", lambda: OpenAIReasoning(), {}),
    ("reasoning model refusing max_tokens, temperature", lambda: OpenAIReasoning(model="r-7"), {}),
    ("DeepSeek json_schema refused, json needs 'json'", lambda: DeepSeek(), {}),
    ("DeepSeek, provider set", lambda: DeepSeek(), {"provider": "deepseek"}),
    ("DeepSeek reasoner: reasoning_content", lambda: DeepSeek(model="deepseek-reasoner"), {}),
    ("DashScope Qwen3: enable_thinking must be false", lambda: DashScopeQwen3(), {}),
    (
        "DashScope Qwen3 with vLLM's chat_template_kwargs",
        lambda: DashScopeQwen3(),
        {"extra_body": {"chat_template_kwargs": {"enable_thinking": False}}},
    ),
    (
        "strict server refusing chat_template_kwargs",
        lambda: StrictServer(),
        {"extra_body": {"chat_template_kwargs": {"enable_thinking": False}}},
    ),
    ("vLLM parser: answer in reasoning_content", lambda: VLLMWrongParser(), {}),
    ("reasoning_content beside the answer", lambda: Reasoning(where="reasoning_content"), {}),
    ("reasoning field (Ollama, OpenRouter)", lambda: Reasoning(where="reasoning"), {}),
    ("<think> block in the content", lambda: Reasoning(where="think"), {}),
    ("429 with x-ratelimit-reset-requests", lambda: RateLimited(style="x-ratelimit"), {}),
    ("429 with 'try again in 0.3s' in the body", lambda: RateLimited(style="body"), {}),
    ("429 with Retry-After", lambda: RateLimited(style="retry-after"), {}),
    ("keys in another case at every level", lambda: NestedKeys(), {}),
    ("answer in the wrong language, then right", lambda: WrongLanguage(), {}),
    (
        "30 % transient faults",
        lambda: Faulty(rate=0.3, seed=5, faults=("500", "503", "429-reset", "drop", "empty")),
        {},
    ),
]


async def behaviour_stage(home: Path) -> list[tuple[str, Day, Provider]]:
    rows = []
    for i, (name, make, settings) in enumerate(BEHAVIOURS):
        provider = make()
        with serve(provider) as server:
            day = await day_against(server, provider.model, 6, 8, home / str(i), **settings)
        rows.append((name, day, provider))
    return rows


async def budget_stage(options: LLMOptions) -> list[tuple[int, int, int, int, int]]:
    rows = []
    for lines, files in (
        (1, 1),
        (100, 3),
        (2_000, 10),
        (20_000, 40),
        (100_000, 300),
        (250_000, 1_000),
        (250_000, 1),
    ):
        requests: list[ChatRequest] = []

        def handler(request: ChatRequest, requests: list[ChatRequest] = requests) -> ChatResult:
            requests.append(request)
            return ChatResult(text=json.dumps(REPLY))

        client = ScriptedChatClient(handler=handler)
        analyser = LLMAnalyser(client, options)
        analysis = await analyser.analyse(
            make_commit(lines, lines, files), repository="bench/repo", lang="zh"
        )
        assert analysis.analyser == "llm", analysis.notes
        prompts = [estimate_messages(r.messages, r.json_schema) for r in requests]
        worst_total = max(p + (r.max_tokens or 0) for p, r in zip(prompts, requests, strict=True))
        rows.append((lines, files, len(requests), max(prompts), worst_total))
    return rows


def figures(stats: dict[str, Any]) -> str:
    names = ("retries", "waits", "hedges", "hedges_won", "refused")
    return ", ".join(f"{stats[k]} {k.replace('_', ' ')}" for k in names if stats.get(k)) or "-"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=45)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--latency", type=float, default=0.3)
    args = parser.parse_args()
    ok = True

    with tempfile.TemporaryDirectory() as home:
        wall, rerun = asyncio.run(
            latency_stage(args.commits, args.concurrency, args.latency, Path(home))
        )
    ideal = math.ceil(args.commits / args.concurrency) * args.latency
    ratio = wall / ideal
    print(f"analysis stage: N={args.commits} C={args.concurrency} latency={args.latency}s")
    print(
        f"  measured {wall:.3f} s   ideal ceil(N/C)*latency {ideal:.3f} s   ratio {ratio:.3f}"
        f"   (floor 1.15: {'OK' if ratio <= 1.15 else 'MISSED'})"
    )
    ok &= ratio <= 1.15
    print(f"  LLM calls on re-run: {rerun}   (floor 0: {'OK' if rerun == 0 else 'MISSED'})")
    ok &= rerun == 0

    floor_s = 8.0
    print(
        f"fault server: a day of 31 commits, C={args.concurrency}, latency {args.latency}s, "
        "30 % transient faults (time-out 30 s)"
    )
    for seed in (1, 2, 3):
        with tempfile.TemporaryDirectory() as home:
            day = asyncio.run(fault_stage(seed, 31, args.concurrency, args.latency, Path(home)))
        good = day.wall <= floor_s and day.fallbacks == 0
        ok &= good
        print(
            f"  seed {seed}: {day.wall:.2f} s (floor {floor_s:g} s), fallbacks {day.fallbacks} "
            f"(floor 0), {day.requests} requests: {figures(day.stats)}   "
            f"{'OK' if good else 'MISSED'}"
        )
    print("rate limits: 31 commits, 8 workers, a server that takes 2 at a time")
    for style in ("x-ratelimit", "body", "retry-after"):
        with tempfile.TemporaryDirectory() as home:
            day = asyncio.run(rate_limit_stage(style, 31, 8, Path(home)))
        ok &= day.fallbacks == 0
        print(
            f"  429 with {style:<12} {day.wall:.2f} s, lost {day.fallbacks} (floor 0), "
            f"{day.requests} requests: {figures(day.stats)}   "
            f"{'OK' if day.fallbacks == 0 else 'MISSED'}"
        )
    with tempfile.TemporaryDirectory() as home:
        rows = asyncio.run(behaviour_stage(Path(home)))
    passed = 0
    print("providers' documented behaviours (6 commits each; refused: floor one per adaptation)")
    for name, day, provider in rows:
        good = day.fallbacks == 0 and provider.refused <= provider.max_refused
        passed += good
        learnt = "; ".join(day.stats.get("learnt", [])) or "-"
        print(
            f"  {'OK    ' if good else 'MISSED'} {name:<52} fallbacks {day.fallbacks}, "
            f"refused {provider.refused}, learnt: {learnt}"
        )
    print(f"  {passed} of {len(rows)} behaviours pass")
    ok &= passed == len(rows)

    options = LLMOptions(model="fake-model")
    print(
        f"prompt budget: input budget {options.input_budget_tokens} estimated tokens, "
        f"context window {options.context_window}"
    )
    print(
        f"  {'changed lines':>13} {'files':>6} {'requests':>8} {'largest prompt':>14} "
        f"{'prompt+max_tokens':>17}"
    )
    for lines, files, n, largest, total in asyncio.run(budget_stage(options)):
        fits = largest <= options.input_budget_tokens and total <= options.context_window
        ok &= fits
        print(
            f"  {lines:>13,} {files:>6,} {n:>8} {largest:>14,} {total:>17,}"
            f"   {'OK' if fits else 'OVER'}"
        )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
