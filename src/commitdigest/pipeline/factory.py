"""The run's analyser, built by the one registry of :mod:`commitdigest.analysis.analysers`,
and the daily overview.

The LLM room (and with it the ``openai`` SDK) is imported only when an LLM is used, so a
report made with the rule analyser never pays for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from commitdigest.analysis.analysers import (
    AnalyserRequest,
    Closeable,
    CommitAnalyser,
    build_analyser,
)
from commitdigest.analysis.overview import OverviewItem, overview_input_digest, rule_overview
from commitdigest.config import LLMSettings
from commitdigest.models import Analysis, Overview
from commitdigest.store import OverviewKey, Store

if TYPE_CHECKING:
    from commitdigest.analysis.llm.analyser import LLMOptions
    from commitdigest.analysis.llm.chat import ChatClient


def llm_options(settings: LLMSettings) -> LLMOptions:
    from commitdigest.analysis.llm.analyser import LLMOptions

    return LLMOptions.from_settings(settings)


@dataclass
class AnalysisSetup:
    """The analyser of a run and, for the LLM, its client (closed by :meth:`aclose`)."""

    analyser: CommitAnalyser
    client: ChatClient | None = None
    llm: LLMSettings | None = None
    owned: Closeable | None = None  # the client built for it, closed by aclose

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
    """The analyser registered as ``name`` (``rules``, ``llm``, a plugin's), with ``client``
    for one that asks a model (default: the real client for ``llm``)."""
    settings = llm or LLMSettings()
    built = build_analyser(name, AnalyserRequest(settings, client))
    asks = built.client is not None  # the overview asks the model too, with its settings
    return AnalysisSetup(built.analyser, built.client, settings if asks else None, built.owned)


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
