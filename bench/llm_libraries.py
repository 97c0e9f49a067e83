"""Evaluation: would LiteLLM or instructor do what commitdigest's own LLM client does?

Each library stands in for commitdigest's client under commitdigest's analyser (the same
prompts, budgets, validation and re-ask), against the same fakes (tests/fake_providers.py):
LiteLLM as the transport (its parameter mapping with ``drop_params``, its retries),
instructor as the structured-output layer (JSON_SCHEMA mode, its re-ask on a validation
error) over the openai SDK. For every documented provider behaviour, six commits are
analysed and counted: analyses that came from the model (no fallback, no reasoning text)
and the requests the server refused. Then the time per request on a server that answers at
once, and the start-up cost of importing each library (a fresh interpreter, best of 3).

Neither library is a dependency: run it where they are installed
(``pip install litellm instructor``); a library that is missing is reported as such.
Usage: python bench/llm_libraries.py
"""

from __future__ import annotations

import asyncio
import importlib
import json
import logging
import subprocess
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

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
)
from commitdigest.analysis.llm.schema import CompactOutput, FullOutput  # noqa: E402
from commitdigest.models import AnalysisStatus, Commit, FileChange  # noqa: E402

CASES: list[tuple[str, Callable[[], Provider], dict[str, Any]]] = [
    ("reasoning model refusing max_tokens (o4-mini)", lambda: OpenAIReasoning(), {}),
    ("the same, a name nobody knows", lambda: OpenAIReasoning(model="r-7"), {}),
    ("DeepSeek: json_schema refused", lambda: DeepSeek(), {}),
    ("DashScope Qwen3: enable_thinking", lambda: DashScopeQwen3(), {}),
    (
        "strict server: chat_template_kwargs refused",
        lambda: StrictServer(),
        {"chat_template_kwargs": {"enable_thinking": False}},
    ),
    ("vLLM: the answer in reasoning_content", lambda: VLLMWrongParser(), {}),
    ("reasoning_content beside the answer", lambda: Reasoning(), {}),
    ("<think> block in the content", lambda: Reasoning(where="think"), {}),
    ("429 with x-ratelimit-reset-requests", lambda: RateLimited(limit=1), {}),
    ("429 with the wait in the body", lambda: RateLimited(style="body", limit=1), {}),
    ("keys in another case", lambda: NestedKeys(), {}),
    ("answer in the wrong language", lambda: WrongLanguage(), {}),
    ("30 % transient faults", lambda: Faulty(rate=0.3, seed=5), {}),
]
COMMITS = 6
WHEN = datetime(2026, 4, 1, 12, tzinfo=UTC)
Make = Callable[[str, str], Any]  # (base_url, model) -> a ChatClient with aclose()


def commit(i: int) -> Commit:
    patch = "@@ -0,0 +1 @@\n+value = 1\n"
    return Commit(
        sha=f"{i:040x}",
        title=f"fix: change {i} of the scheduler",
        author="bench",
        authored_at=WHEN,
        committed_at=WHEN,
        files=(FileChange(path=f"src/mod_{i}.py", additions=1, deletions=0, patch=patch),),
    )


class LiteLLMClient:
    """LiteLLM as the transport under commitdigest's engine: its parameter mapping
    (``drop_params``), its retries (``num_retries``), its reasoning fields."""

    def __init__(self, base_url: str, model: str) -> None:
        self.base_url, self.litellm = base_url, importlib.import_module("litellm")

    async def complete(self, request: ChatRequest) -> ChatResult:
        response_format = {
            "type": "json_schema",
            "json_schema": {"name": request.schema_name, "schema": request.json_schema},
        }
        r = await self.litellm.acompletion(
            model=f"openai/{request.model}",
            api_base=self.base_url,
            api_key="sk-k",
            messages=request.messages,
            max_tokens=request.max_tokens,
            temperature=request.temperature,
            response_format=response_format if request.json_schema else None,
            extra_body=request.extra_body,
            drop_params=True,
            num_retries=3,
            timeout=10,
        )
        choice = r.choices[0]
        return ChatResult(text=choice.message.content or "", finish_reason=choice.finish_reason)

    async def aclose(self) -> None:
        pass


class InstructorClient:
    """instructor over the openai SDK (its retries), in its JSON_SCHEMA mode, with its
    re-ask on a validation error (``max_retries``): it returns the validated answer."""

    def __init__(self, base_url: str, model: str) -> None:
        instructor: Any = importlib.import_module("instructor")
        openai: Any = importlib.import_module("openai")
        self.sdk = openai.AsyncOpenAI(base_url=base_url, api_key="sk-k", max_retries=3, timeout=10)
        self.client = instructor.from_openai(self.sdk, mode=instructor.Mode.JSON_SCHEMA)

    async def complete(self, request: ChatRequest) -> ChatResult:
        model = FullOutput if "insights" in json.dumps(request.json_schema) else CompactOutput
        if request.json_schema is None or "themes" in json.dumps(request.json_schema):
            r = await self.sdk.chat.completions.create(
                model=request.model, messages=request.messages, max_tokens=request.max_tokens
            )
            return ChatResult(text=r.choices[0].message.content or "")
        output = await self.client.chat.completions.create(
            model=request.model,
            messages=request.messages,
            max_tokens=request.max_tokens,
            temperature=request.temperature,
            response_model=model,
            max_retries=2,
            extra_body=request.extra_body,
        )
        return ChatResult(text=json.dumps(output.model_dump(mode="json"), ensure_ascii=False))

    async def aclose(self) -> None:
        await self.sdk.close()


def ours(base_url: str, model: str) -> OpenAIChatClient:
    return OpenAIChatClient(Endpoint(base_url, "sk-k"), ClientOptions(timeout=10))


async def analyses(make: Make, provider: Provider, extra: dict[str, Any]) -> int:
    """How many of :data:`COMMITS` analyses came from the model (no fallback)."""
    with serve(provider) as server:
        client = make(server.base_url, provider.model)
        analyser = LLMAnalyser(client, LLMOptions(model=provider.model, extra_body=extra))
        done = 0
        try:
            for i in range(COMMITS):
                try:
                    a = await analyser.analyse(commit(i), repository="r", lang="zh")
                except Exception:  # what stops our run stops this one too
                    break
                done += a.status is AnalysisStatus.OK and "THOUGHT-MARKER" not in str(a)
        finally:
            await client.aclose()
        return done


async def evaluate(make: Make) -> list[tuple[int, int]]:
    rows = []
    for _, provider_of, extra in CASES:
        provider = provider_of()
        rows.append((await analyses(make, provider, extra), provider.refused))
    return rows


async def overhead(make: Make, n: int = 40) -> float:
    """Milliseconds per request against a server that answers at once."""
    request = ChatRequest(messages=[{"role": "user", "content": "hi"}], model="m", max_tokens=16)
    with serve(Provider()) as server:
        client = make(server.base_url, "m")
        try:
            await client.complete(request)  # warm
            clock = time.perf_counter()
            for _ in range(n):
                await client.complete(request)
            return (time.perf_counter() - clock) / n * 1000
        finally:
            await client.aclose()


def import_time(module: str) -> str:
    best = None
    for _ in range(3):
        code = (
            f"import time; t = time.perf_counter(); import {module}; print(time.perf_counter() - t)"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if done.returncode:
            return "not installed"
        seconds = float(done.stdout.strip())
        best = seconds if best is None else min(best, seconds)
    return f"{best:.2f} s"


def main() -> int:
    makers: dict[str, Make] = {"commitdigest": ours}
    for name, make in (("litellm", LiteLLMClient), ("instructor", InstructorClient)):
        try:
            importlib.import_module(name)
        except ImportError:
            print(f"{name}: not installed (pip install {name})")
            continue
        makers[name] = make
    logging.disable(logging.WARNING)  # the libraries' and our warnings: the table says it
    results = {name: asyncio.run(evaluate(make)) for name, make in makers.items()}
    print(f"{'analyses by the model (6 commits each)':<46}" + "".join(f"{n:>20}" for n in results))
    for i, (name, _, _) in enumerate(CASES):
        cells = [f"{r[i][0]}/6, {r[i][1]} refused" for r in results.values()]
        print(f"{name:<46}" + "".join(f"{c:>20}" for c in cells))
    totals = [sum(row[0] == COMMITS for row in r) for r in results.values()]
    print(f"{'behaviours with no fallback':<46}" + "".join(f"{t:>17}/{len(CASES)}" for t in totals))
    per = {name: asyncio.run(overhead(make)) for name, make in makers.items()}
    print("time per request, server answering at once: " + ", ".join(
        f"{k} {v:.1f} ms" for k, v in per.items()
    ))  # fmt: skip
    modules = ("commitdigest.analysis.llm.client", "litellm", "instructor", "openai")
    print("import time (fresh interpreter, best of 3): " + ", ".join(
        f"{m} {import_time(m)}" for m in modules
    ))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
