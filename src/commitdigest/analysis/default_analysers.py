"""The built-in analysers, registered through the plugin hook of
:mod:`commitdigest.analysis.analysers` like any other: ``rules`` (offline, the default) and
``llm`` (an OpenAI-compatible endpoint, with the rules as its fallback). The LLM room is
imported only when the ``llm`` analyser is built.
"""

from __future__ import annotations

from collections.abc import Sequence

from commitdigest.analysis.analysers import AnalyserRequest, Built, Register
from commitdigest.analysis.radar.models import items_digest
from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.models import Analysis, ApiChange, Commit

__all__ = ["AsyncRuleAnalyser", "register_analysers"]


def register_analysers(register: Register) -> None:
    """The hook: the built-in analysers."""
    register("rules", build_rules, about="offline, the default: rules over the whole commit")
    register("llm", build_llm, about="an OpenAI-compatible endpoint, the rules its fallback")


def build_rules(request: AnalyserRequest) -> Built:
    return Built(AsyncRuleAnalyser())


def build_llm(request: AnalyserRequest) -> Built:
    """The LLM analyser with ``request.client``, else a client built from the settings
    (owned: closed with the run)."""
    from commitdigest.analysis.llm.analyser import LLMAnalyser, LLMOptions

    options = LLMOptions.from_settings(request.llm)
    if request.client is not None:
        return Built(LLMAnalyser(request.client, options), request.client)
    from commitdigest.analysis.llm.client import build_chat_client

    owned = build_chat_client(request.llm)
    return Built(LLMAnalyser(owned, options), owned, owned)


class AsyncRuleAnalyser:
    """The rule-based analyser behind the async :class:`CommitAnalyser` interface."""

    def __init__(self, rules: RuleAnalyser | None = None) -> None:
        self._rules = rules or RuleAnalyser()

    @property
    def id(self) -> str:
        return self._rules.id

    @property
    def version(self) -> str:
        return self._rules.version

    @property
    def uses_focus(self) -> bool:
        return False

    def version_for(self, facts: Sequence[ApiChange] | None) -> str:
        """With the radar, the facts replace the rules' own guess: another analysis."""
        return self.version if facts is None else f"{self.version}+radar-{items_digest(facts)}"

    async def analyse(
        self,
        commit: Commit,
        *,
        repository: str,
        lang: str,
        focus: str | None = None,
        facts: Sequence[ApiChange] | None = None,
    ) -> Analysis:
        return self._rules.analyse(commit, lang=lang, radar=facts)
