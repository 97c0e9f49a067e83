from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path

import pytest

from commitdigest.analysis.default_analysers import AsyncRuleAnalyser
from commitdigest.models import Analysis, AnalysisStatus, ChangeType, Commit, Importance
from commitdigest.pipeline.runner import AnalysisHints, analyse_commits
from commitdigest.store import Store

WHEN = datetime(2026, 1, 13, tzinfo=UTC)


def commits(n: int) -> list[tuple[str, Commit]]:
    return [
        (
            "o/r",
            Commit(
                sha=f"{i:040x}",
                title=f"fix: thing {i}",
                author="a",
                authored_at=WHEN,
                committed_at=WHEN,
            ),
        )
        for i in range(n)
    ]


class Interrupted(Exception):
    """Stands for the run being stopped part-way (a kill, a crash)."""


class CountingAnalyser:
    """Fails (like an interrupted run) on the commits in ``explode``; falls back on ``weak``."""

    id = "fake"
    version = "1"
    uses_focus = False

    def __init__(self, explode: set[int] = frozenset(), weak: set[int] = frozenset()) -> None:  # type: ignore[assignment]
        self.calls: list[str] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.explode = explode
        self.weak = weak

    async def analyse(
        self, commit: Commit, *, repository: str, lang: str, focus: str | None = None
    ) -> Analysis:
        index = int(commit.sha, 16)
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        await asyncio.sleep(0.01 * (index % 3))
        self.in_flight -= 1
        self.calls.append(commit.sha)
        if index in self.explode:
            raise Interrupted
        return Analysis(
            change_type=ChangeType.BUGFIX,
            importance=Importance.LOW,
            summary=f"s{index}",
            analyser="fake",
            status=AnalysisStatus.FALLBACK if index in self.weak else AnalysisStatus.OK,
            notes=["LLM unavailable"] if index in self.weak else [],
        )


def test_cache_first_then_nothing_twice(tmp_path: Path) -> None:
    work = commits(6)
    with Store.open(tmp_path) as store:
        fake = CountingAnalyser()
        result, tally = asyncio.run(analyse_commits(fake, work, lang="zh", store=store))
        assert len(result) == 6 and (tally.made, tally.cached) == (6, 0)
        again = CountingAnalyser()
        result2, tally2 = asyncio.run(analyse_commits(again, work, lang="zh", store=store))
    assert again.calls == [] and (tally2.made, tally2.cached) == (0, 6)
    assert result2 == result
    assert fake.max_in_flight > 1  # analyses overlap


def test_an_interrupted_run_resumes_where_it_stopped(tmp_path: Path) -> None:
    work = commits(9)
    with Store.open(tmp_path) as store:
        with pytest.raises(Interrupted):
            asyncio.run(
                analyse_commits(CountingAnalyser(explode={5}), work, lang="zh", store=store)
            )
        saved = store.count_analyses()
        assert 0 < saved < 9
        resumed = CountingAnalyser()
        result, tally = asyncio.run(analyse_commits(resumed, work, lang="zh", store=store))
    assert len(result) == 9 and tally.cached == saved and len(resumed.calls) == 9 - saved


def test_analyses_are_written_together_and_each_within_a_second(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Quick analyses (rules) cost one transaction for the lot; one made early is in the
    store SAVE_EVERY_S later even while a slow one (a model's) is still being made."""
    from commitdigest.pipeline import runner

    writes: list[int] = []
    with Store.open(tmp_path) as store:
        put = store.put_analyses
        monkeypatch.setattr(
            store, "put_analyses", lambda made: (writes.append(len(made)), put(made))
        )
        asyncio.run(analyse_commits(CountingAnalyser(), commits(9), lang="zh", store=store))
        assert writes == [9] and store.count_analyses() == 9
        monkeypatch.setattr(runner, "SAVE_EVERY_S", 0.2)
        seen: list[int] = []

        class Slow(CountingAnalyser):
            async def analyse(self, commit: Commit, **kw: object) -> Analysis:  # type: ignore[override]
                if commit.sha == work[1][1].sha:
                    await asyncio.sleep(0.8)
                    seen.append(store.count_analyses())  # the quick one, saved meanwhile
                return await super().analyse(commit, **kw)  # type: ignore[arg-type]

        work = commits(11)[9:]
        asyncio.run(analyse_commits(Slow(), work, lang="zh", store=store))
        assert seen == [10] and store.count_analyses() == 11


def test_fallbacks_are_not_cached(tmp_path: Path) -> None:
    work = commits(3)
    with Store.open(tmp_path) as store:
        _, tally = asyncio.run(
            analyse_commits(CountingAnalyser(weak={1}), work, lang="zh", store=store)
        )
        assert tally.fallback == 1 and store.count_analyses() == 2
        retry = CountingAnalyser()
        asyncio.run(analyse_commits(retry, work, lang="zh", store=store))
    assert retry.calls == [f"{1:040x}"]


def test_rules_adapter_keeps_id_and_version(tmp_path: Path) -> None:
    rules = AsyncRuleAnalyser()
    with Store.open(tmp_path) as store:
        result, _ = asyncio.run(analyse_commits(rules, commits(2), lang="en", store=store))
    assert {a.analyser for a in result.values()} == {"rules"}
    assert rules.id == "rules" and rules.version


def test_radar_facts_go_to_the_analyser_and_into_the_cache_key(tmp_path: Path) -> None:
    from commitdigest.models import ApiChange, ApiChangeType, RadarKind

    work = commits(2)
    (repo, first), (_, second) = work
    item = ApiChange(kind=RadarKind.PYTHON_API, change=ApiChangeType.REMOVED, name="pkg.f")
    facts = {(repo, first.sha): [item], (repo, second.sha): []}
    rules = AsyncRuleAnalyser()
    with Store.open(tmp_path) as store:
        plain, _ = asyncio.run(analyse_commits(rules, work, lang="en", store=store))
        with_radar, tally = asyncio.run(
            analyse_commits(rules, work, lang="en", store=store, hints=AnalysisHints(facts=facts))
        )
        again, tally2 = asyncio.run(
            analyse_commits(rules, work, lang="en", store=store, hints=AnalysisHints(facts=facts))
        )
        # an analyser that knows no facts is still called, without them, on its own key
        old = CountingAnalyser()
        asyncio.run(
            analyse_commits(old, work, lang="en", store=store, hints=AnalysisHints(facts=facts))
        )
    assert tally.made == 2 and tally.cached == 0  # other keys than the radar-less run
    assert tally2.cached == 2 and again == with_radar
    assert with_radar[(repo, first.sha)].importance is Importance.HIGH
    assert plain[(repo, first.sha)].importance is not Importance.HIGH
    assert len(old.calls) == 2
