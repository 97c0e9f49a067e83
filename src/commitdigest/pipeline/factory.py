"""Building the analysers, the chat client and the daily overview from the settings.

The LLM room (and with it the ``openai`` SDK) is imported only when an LLM is used, so a
report made with the rule analyser never pays for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from commitdigest.analysis.overview import OverviewItem, overview_input_digest, rule_overview
from commitdigest.config import LLMSettings
from commitdigest.config.settings import SECRET_HINTS
from commitdigest.errors import UsageError
from commitdigest.models import Analysis, Overview
from commitdigest.pipeline.runner import AsyncRuleAnalyser, CommitAnalyser
from commitdigest.store import OverviewKey, Store

if TYPE_CHECKING:
    from commitdigest.analysis.llm.analyser import LLMOptions
    from commitdigest.analysis.llm.chat import ChatClient
    from commitdigest.analysis.llm.client import OpenAIChatClient

DEFAULT_BASE_URL = "https://api.openai.com/v1"
ANALYSERS = ("rules", "llm")


def build_chat_client(settings: LLMSettings) -> OpenAIChatClient:
    """The real client for ``settings``; a dummy key for servers that need none."""
    from commitdigest.analysis.llm.chat import StructuredMode
    from commitdigest.analysis.llm.client import (
        LLM_RETRY,
        ClientOptions,
        Endpoint,
        OpenAIChatClient,
    )
    from commitdigest.http import RateLimiter, async_client

    key = settings.api_key.get_secret_value() if settings.api_key else None
    if not key and not settings.base_url:
        raise UsageError(
            "the LLM analyser needs OPENAI_API_KEY (or OPENAI_BASE_URL for a server that "
            "needs no key)"
        )
    key_from = settings.origin("api_key") or SECRET_HINTS["llm.api_key"]
    modes = {
        "json_schema_strict": StructuredMode.JSON_SCHEMA,
        "json_schema": StructuredMode.JSON_SCHEMA,
        "json_object": StructuredMode.JSON_OBJECT,
        "prompt": StructuredMode.TEXT,
    }
    endpoint = Endpoint(
        base_url=settings.base_url or DEFAULT_BASE_URL,
        api_key=key or "not-needed",
        provider=settings.provider,
        key_source=(
            f"the API key from {key_from}"
            if key
            else f"the request without an API key (set {SECRET_HINTS['llm.api_key']})"
        ),
        url_source=settings.origin("base_url")
        or ("the default: OPENAI_BASE_URL is not set" if not settings.base_url else None),
    )
    options = ClientOptions(
        timeout=settings.timeout_s,
        retry=replace(
            LLM_RETRY, max_attempts=settings.max_attempts, max_wait_s=settings.max_wait_s
        ),
        strict_schema=settings.structured_output == "json_schema_strict",
        first_mode=modes.get(settings.structured_output),
    )
    return OpenAIChatClient(
        endpoint,
        options,
        limiter=RateLimiter(
            max_concurrency=settings.max_concurrency,
            requests_per_minute=settings.requests_per_minute,
        ),
        http_client=async_client(timeout=settings.timeout_s),
    )


def llm_options(settings: LLMSettings) -> LLMOptions:
    from commitdigest.analysis.llm.analyser import LLMOptions

    return LLMOptions.from_settings(settings)


@dataclass
class AnalysisSetup:
    """The analyser of a run and, for the LLM, its client (closed by :meth:`aclose`)."""

    analyser: CommitAnalyser
    client: ChatClient | None = None
    llm: LLMSettings | None = None
    owned: OpenAIChatClient | None = None  # the client built here, closed by aclose

    async def aclose(self) -> None:
        if self.owned is not None:
            await self.owned.aclose()

    def endpoint(self) -> str:
        """The LLM endpoint and where its URL came from, for messages."""
        where = getattr(self.client, "where", None)
        return where if isinstance(where, str) else "the LLM endpoint"

    def record(self, made: int, fallback: int) -> dict[str, Any]:
        """What the run's LLM did, for the run record: the analyses made and fallen back, the
        client's counts (calls, retries, waits, twins, refusals and what they taught) and
        the analyser's (answers repaired, re-asked, why they fell back)."""
        out: dict[str, Any] = {"made": made, "fallback": fallback}
        for part in (self.client, self.analyser):
            stats = getattr(part, "stats", None)
            as_dict = getattr(stats, "as_dict", None)
            if callable(as_dict):
                out.update(as_dict())
        return out

    def degraded(self, made: int, fallback: int) -> str | None:
        """Why a run whose ``made`` analyses had ``fallback`` fallbacks is degraded (more
        than ``llm.max_fallback_share`` of them); ``None`` when it is not."""
        share = self.llm.max_fallback_share if self.llm is not None else 1.0
        if made == 0 or fallback / made <= share:
            return None
        reasons = getattr(getattr(self.analyser, "stats", None), "fallbacks", None) or {}
        why = max(reasons, key=reasons.__getitem__) if reasons else None
        return (
            f"{fallback} of {made} LLM analyses fell back to the rules, more than "
            f"llm.max_fallback_share = {share:g}; endpoint {self.endpoint()}"
            + (f"; most often: {why}" if why else "")
            + "; `commitdigest llm check` tests it (the reports were written, marked)"
        )


def build_analysis(
    name: str, llm: LLMSettings | None, *, client: ChatClient | None = None
) -> AnalysisSetup:
    """``rules``, or ``llm`` with ``client`` (default: the real client for ``llm``)."""
    if name == "rules":
        return AnalysisSetup(AsyncRuleAnalyser())
    if name != "llm":
        raise UsageError(f"unknown analyser {name!r}: choose from {', '.join(ANALYSERS)}")
    from commitdigest.analysis.llm.analyser import LLMAnalyser

    settings = llm or LLMSettings()
    if client is None:
        owned = build_chat_client(settings)
        return AnalysisSetup(LLMAnalyser(owned, llm_options(settings)), owned, settings, owned)
    return AnalysisSetup(LLMAnalyser(client, llm_options(settings)), client, settings)


async def daily_overview(
    setup: AnalysisSetup,
    *,
    repository: str,
    day: str,
    items: Sequence[OverviewItem],
    lang: str,
    store: Store,
) -> Overview:
    """The repository's overview of ``day``: LLM (cached by its input) or rule-made."""
    if not items:
        return rule_overview(items, lang)
    if setup.client is None or setup.llm is None:
        return rule_overview(items, lang)
    from commitdigest.analysis.llm.overview import (
        OVERVIEW_PROMPT_VERSION,
        OverviewDay,
        llm_overview,
    )

    settings = setup.llm
    key = OverviewKey(
        repository,
        day,
        "llm",
        f"{settings.model}@{OVERVIEW_PROMPT_VERSION}",
        lang,
        overview_input_digest(items),
    )
    cached = store.get_overview(key)
    if cached is not None:
        return cached
    overview = await llm_overview(
        setup.client,
        OverviewDay(repository=repository, label=day, items=items, lang=lang),
        llm_options(settings),  # the analyses' budget rules
    )
    if overview.analyser == "llm":  # a rule-made fallback is not cached: ask again next time
        store.put_overview(key, overview)
    return overview


def overview_items(titles_and_analyses: Sequence[tuple[str, str, Analysis]]) -> list[OverviewItem]:
    return [OverviewItem.from_analysis(t, s, a) for t, s, a in titles_and_analyses]
