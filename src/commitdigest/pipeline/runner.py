"""Running an analyser over many commits: cache first, concurrently, saved as they complete.

Analyses are written to the store as they are made: each at most :data:`SAVE_EVERY_S` after
it was made, together with those made meanwhile, in one transaction. An interrupted run
resumes where it stopped, less at most a second of work, and a batch of rule analyses costs
one write, not one each.
Fallback analyses (the LLM failed, rules stood in) are not cached: the
next run asks the LLM again.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from commitdigest.analysis.analysers import CommitAnalyser
from commitdigest.analysis.grounding import ground
from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.i18n import LLM_NOTES, pick
from commitdigest.models import Analysis, AnalysisStatus, ApiChange, Commit
from commitdigest.store import AnalysisKey, Store


@dataclass
class AnalysisTally:
    made: int = 0  # analyses computed in this run
    cached: int = 0  # analyses taken from the store
    fallback: int = 0  # LLM failures that rules stood in for

    def add(self, other: AnalysisTally) -> None:
        """Count ``other``'s analyses too (a run analyses in parts)."""
        self.made += other.made
        self.cached += other.cached
        self.fallback += other.fallback


@dataclass(frozen=True)
class AnalysisHints:
    """What an analyser is told besides each commit."""

    # per repository: its subscription's focus emphasis (free text for the prompt)
    emphasis: Mapping[str, str] = field(default_factory=dict)
    # the radar's items by (repository, sha); None when the radar did not run
    facts: Mapping[tuple[str, str], Sequence[ApiChange]] | None = None


NO_HINTS = AnalysisHints()
SAVE_EVERY_S = 1.0  # an analysis is written at most this long after it was made


async def analyse_commits(
    analyser: CommitAnalyser,
    work: Sequence[tuple[str, Commit]],
    *,
    lang: str,
    store: Store,
    hints: AnalysisHints = NO_HINTS,
    on_done: Callable[[int], None] = lambda n: None,
    grounding: bool = True,
) -> tuple[dict[tuple[str, str], Analysis], AnalysisTally]:
    """Analyse each ``(repository, commit)``; return analyses by ``(repository, sha)``.

    ``hints.emphasis`` (per repository) goes to an analyser that uses it, and then into the
    cache key. ``hints.facts``, the radar's items by ``(repository, sha)`` when it ran, go to
    the analyser too, and into the key as the analyser says (:meth:`version_for`). The analyser
    bounds its own concurrency (the LLM client's rate limiter); rule-based analysis is
    CPU-only and runs inline.

    With ``grounding``, every LLM analysis — made now or taken from the store, where it is
    kept as the model said it — loses the mentions its commit does not support
    (:mod:`commitdigest.analysis.grounding`); one left without a summary is replaced by the
    rules' analysis, marked as a fallback.
    """
    emphasis = hints.emphasis if analyser.uses_focus else {}
    facts = hints.facts
    takes_facts = callable(getattr(analyser, "version_for", None))  # else: an older analyser

    def commit_facts(repo: str, sha: str) -> Sequence[ApiChange] | None:
        """The commit's items; ``None`` where the radar did not scan (off, a GitHub source)."""
        return None if facts is None or not takes_facts else facts.get((repo, sha))

    def version(repo: str, sha: str) -> str:
        base = analyser.version_for(commit_facts(repo, sha)) if takes_facts else analyser.version
        text = emphasis.get(repo)
        if not text:
            return base
        return f"{base}+focus-{hashlib.sha256(text.encode()).hexdigest()[:12]}"

    keys = {
        AnalysisKey(repo, commit.sha, analyser.id, version(repo, commit.sha), lang): commit
        for repo, commit in work
    }
    cached: Mapping[AnalysisKey, Analysis] = store.get_analyses(keys)
    tally = AnalysisTally(cached=len(cached))
    on_done(len(cached))
    result = {(k.repository, k.sha): a for k, a in cached.items()}
    unsaved: list[tuple[AnalysisKey, Analysis]] = []
    timer: asyncio.TimerHandle | None = None

    def save() -> None:
        nonlocal timer
        if timer is not None:
            timer.cancel()
            timer = None
        if unsaved:
            store.put_analyses(unsaved)
            unsaved.clear()

    def made(key: AnalysisKey, analysis: Analysis) -> None:
        """Keep ``analysis``: written with those made within SAVE_EVERY_S of it."""
        nonlocal timer
        unsaved.append((key, analysis))
        if timer is None:
            timer = asyncio.get_running_loop().call_later(SAVE_EVERY_S, save)

    async def one(key: AnalysisKey, commit: Commit) -> None:
        extra = {"facts": commit_facts(key.repository, key.sha)} if takes_facts else {}
        analysis = await analyser.analyse(
            commit,
            repository=key.repository,
            lang=lang,
            focus=emphasis.get(key.repository),
            **extra,
        )
        if analysis.status == AnalysisStatus.FALLBACK:
            tally.fallback += 1
        else:
            made(key, analysis)
        result[(key.repository, key.sha)] = analysis
        tally.made += 1
        on_done(1)

    pending = [one(key, commit) for key, commit in keys.items() if key not in cached]
    try:
        await _run_all(pending)
    finally:
        save()  # what was made stays made, whatever stopped the run
    if grounding:
        for key, commit in keys.items():
            found = result.get((key.repository, key.sha))
            if found is not None:
                facts_of = commit_facts(key.repository, key.sha)
                result[(key.repository, key.sha)] = grounded(found, commit, facts_of, lang)
    return result, tally


def grounded(
    analysis: Analysis, commit: Commit, facts: Sequence[ApiChange] | None, lang: str
) -> Analysis:
    """An LLM analysis grounded in its commit; the rules' analysis (a marked fallback)
    when nothing it said could be verified."""
    if analysis.analyser != "llm" or analysis.status is AnalysisStatus.FALLBACK:
        return analysis
    checked = ground(analysis, commit, facts, lang)
    if checked.summary.strip():
        return checked
    record = checked.grounding
    n = len(record.unsupported) if record else 0
    note = pick(LLM_NOTES, lang)["ungrounded"].format(n=n)
    rules = RuleAnalyser().analyse(commit, lang=lang, radar=facts)
    return rules.model_copy(
        update={
            "status": AnalysisStatus.FALLBACK,
            "notes": [note, *rules.notes],
            "grounding": record,
        }
    )


async def _run_all(pending: list[Coroutine[Any, Any, None]]) -> None:
    if pending:
        tasks = [asyncio.ensure_future(coro) for coro in pending]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
