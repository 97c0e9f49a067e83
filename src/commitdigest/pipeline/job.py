"""The daily job, whole: what ``commitdigest run`` does, callable from Python.

:func:`run_job` is one async function from a request to a :class:`RunOutcome`; the
command line, the scheduler, the GitHub Action and a library caller all get the same job:

1. take the run lock and open the store; plan the days (:func:`~.daily.plan_days`);
2. send again what failed to reach a channel on an earlier run — never what was sent —
   and give up a delivery whose first failure is older than its channel's ``retry_days``
   (:func:`~commitdigest.deliver.service.retry_pending`); a run with no new day does this
   too;
3. write the reports of the planned days (:func:`~.daily.run_daily`);
4. send each new day to each channel — unless it is part of a backfill: ``run --since``,
   or a catch-up of more days than the channel's ``max_catch_up_days`` (default 2), whose
   reports are written and held back (:class:`HeldBack`) unless ``deliver=True``
   (``run --deliver``); a normal catch-up of a day or two still sends each day;
5. write the weekly digest when one is due and send it to the channels with
   ``weekly = true``;
6. say how each report came out (:class:`ReportHealth`) and compute the exit code in one
   place (:func:`exit_code`).

A shard (``run --shard K/N``) holds part of a day: it writes its reports and sends
nothing (``deliver`` runs after the shards).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Literal

from commitdigest.config import Settings
from commitdigest.config.channels import ChannelConfig
from commitdigest.deliver.service import (
    DeliveryResult,
    Retried,
    deliver_day,
    failed,
    retry_pending,
    select_channels,
)
from commitdigest.errors import DeliveryFailed, LLMDegradedError, LLMError, SourceError
from commitdigest.pipeline.daily import (
    RUN_COMMAND,
    DailyPlan,
    RunRequest,
    plan_days,
    run_daily,
    run_lock,
    run_weekly,
)
from commitdigest.pipeline.report import ReportOutcome
from commitdigest.pipeline.weekly import WeeklyOutcome
from commitdigest.progress import Progress
from commitdigest.render.folder import ReportsFolder
from commitdigest.sources.open import RepositoryOpener
from commitdigest.store import Store, default_home

__all__ = [
    "HeldBack",
    "ReportHealth",
    "RunOutcome",
    "RunRequest",
    "deliver_report",
    "exit_code",
    "retry_deliveries",
    "run_job",
]


Status = Literal["ok", "partial", "degraded", "failed"]


@dataclass(frozen=True)
class ReportHealth:
    """How one report of the run came out: a day's, or the weekly's (``weekly``).

    ``ok``: complete. ``partial``: written, but a repository could not be read, or an
    earlier, more complete report was kept (``exit_code`` says which: 3, or 8 for more
    LLM fallbacks). ``degraded``: written, but more than ``llm.max_fallback_share`` of the
    run's analyses fell back to the rules (8: the endpoint needs attention). ``failed``:
    nothing could be written (every repository failed)."""

    label: str
    status: Status
    exit_code: int = 0
    reason: str = ""
    weekly: bool = False


@dataclass(frozen=True)
class HeldBack:
    """Days written and not sent to ``channels``: a backfill's."""

    days: list[str]
    channels: list[str]
    reason: str  # why: a backfill (run --since), or a catch-up longer than the channel's cap


@dataclass
class RunOutcome:
    """Everything a run did, in order; :attr:`exit_code` sums it up."""

    plan: DailyPlan
    retried: Retried = field(default_factory=Retried)  # earlier failures sent again, given up
    reports: ReportOutcome = field(default_factory=ReportOutcome)
    delivered: list[DeliveryResult] = field(default_factory=list)  # the new days
    held: list[HeldBack] = field(default_factory=list)
    weekly: WeeklyOutcome | None = None
    weekly_delivered: list[DeliveryResult] = field(default_factory=list)
    health: list[ReportHealth] = field(default_factory=list)

    @property
    def deliveries(self) -> list[DeliveryResult]:
        """Every delivery attempted by the run (retries, new days, the weekly)."""
        return [*self.retried.results, *self.delivered, *self.weekly_delivered]

    @property
    def delivery_failed(self) -> bool:
        return bool(failed(self.deliveries))

    @property
    def exit_code(self) -> int:
        return exit_code(self)


def exit_code(outcome: RunOutcome) -> int:
    """The run's exit code, from its reports' health and its deliveries: a report's own
    code first — 3 (a repository could not be read, data is missing) before 8 (the LLM
    fell back more than in the report kept) before any other — then 7 when a delivery
    failed, else 0."""
    codes = {h.exit_code for h in outcome.health if h.exit_code}
    for code in (SourceError.exit_code, LLMError.exit_code, *sorted(codes)):
        if code in codes:
            return code
    return DeliveryFailed.exit_code if outcome.delivery_failed else 0


async def run_job(
    settings: Settings,
    home: Path | None = None,
    request: RunRequest | None = None,
    *,
    progress: Progress | None = None,
    now: datetime | None = None,
) -> RunOutcome:
    """The daily job (see the module): reports, deliveries and their retries, the weekly;
    ``home`` is the store's folder (default: ``$COMMITDIGEST_HOME``…). Raises our errors
    for what stops the whole run (a bad option, the lock held, no repositories); a
    repository or a channel that fails is in the outcome instead."""
    request = request or RunRequest()
    home = home or default_home()
    shard = request.shard
    lock = f"run-shard-{shard.label}.lock" if shard else "run.lock"
    command = f"{RUN_COMMAND}-shard-{shard.label}" if shard else RUN_COMMAND
    with run_lock(home, settings.run.lock_timeout_s, lock), Store.open(home) as store:
        plan = plan_days(
            store,
            settings,
            on_date=request.date,
            since=request.since,
            until=request.until,
            now=now,
            command=command,
        )
        outcome = RunOutcome(plan)
        folder = ReportsFolder(settings.output_dir)
        channels = [] if shard else [c for c in settings.deliver if c.enabled]
        sends = _sends(plan, channels, request, outcome)
        if channels:  # first what failed before: a run with nothing new retries too
            outcome.retried = await retry_pending(
                folder, channels, store, now=now, skip_days={d for ds in sends.values() for d in ds}
            )
        opener = RepositoryOpener(store=store, home=home, github=settings.github)
        try:
            if plan.days:
                outcome.reports = await run_daily(
                    settings,
                    store,
                    plan,
                    opener=opener,
                    request=request,
                    progress=progress,
                    now=now,
                )
                # a day where a repository failed is not sent: the next run does it again
                if not outcome.reports.failures:
                    outcome.delivered = await _deliver_days(
                        outcome.reports, channels, sends, store, folder
                    )
            if shard is None:
                outcome.weekly = await run_weekly(
                    settings, store, opener=opener, progress=progress, now=now
                )
                outcome.weekly_delivered = await _deliver_weekly(
                    outcome.weekly, channels, store, folder
                )
        finally:
            await opener.aclose()
    outcome.health = _health(outcome)
    return outcome


def _sends(
    plan: DailyPlan, channels: Sequence[ChannelConfig], request: RunRequest, outcome: RunOutcome
) -> dict[str, list[str]]:
    """The days each channel is sent (by name); what is held back goes to ``outcome``."""
    days = plan.labels
    sends: dict[str, list[str]] = {}
    held: dict[str, list[str]] = {}
    for channel in channels:
        if not days:
            continue
        if request.deliver or not (plan.backfill or len(days) > channel.max_catch_up_days):
            sends[channel.name] = days
        elif plan.backfill:
            held.setdefault("a backfill: run --since", []).append(channel.name)
        else:
            cap = channel.max_catch_up_days
            why = f"a catch-up of {len(days)} days, more than max_catch_up_days = {cap}"
            held.setdefault(why, []).append(channel.name)
    outcome.held = [HeldBack(days, names, why) for why, names in held.items()]
    return sends


async def _deliver_days(
    reports: ReportOutcome,
    channels: Sequence[ChannelConfig],
    sends: dict[str, list[str]],
    store: Store,
    folder: ReportsFolder,
) -> list[DeliveryResult]:
    results: list[DeliveryResult] = []
    for day in reports.days:
        targets = [c for c in channels if day.label in sends.get(c.name, ())]
        if day.context is not None and targets:
            results += await deliver_day(
                day.context, targets, store, report_paths=folder.files(day.label)
            )
    return results


async def _deliver_weekly(
    made: WeeklyOutcome | None,
    channels: Sequence[ChannelConfig],
    store: Store,
    folder: ReportsFolder,
) -> list[DeliveryResult]:
    targets = [c for c in channels if c.weekly]
    if made is None or made.context is None or made.failures or not targets:
        return []
    return await deliver_day(made.context, targets, store, report_paths=folder.files(made.week))


def _health(outcome: RunOutcome) -> list[ReportHealth]:
    reports = outcome.reports
    health: list[ReportHealth] = []
    failures = "; ".join(f"{name}: {why}" for name, why in reports.failures.items())
    if reports.failures and not reports.days:  # every repository failed: nothing written
        health += [
            ReportHealth(day, "failed", SourceError.exit_code, failures)
            for day in outcome.plan.labels
        ]
    for day in reports.days:
        if reports.failures:
            health.append(ReportHealth(day.label, "partial", SourceError.exit_code, failures))
        elif day.kept:
            health.append(ReportHealth(day.label, "partial", day.kept_code, day.kept_reason))
        elif reports.degraded:  # too many analyses fell back: never a healthy-looking run
            health.append(
                ReportHealth(day.label, "degraded", LLMDegradedError.exit_code, reports.degraded)
            )
        else:
            health.append(ReportHealth(day.label, "ok"))
    made = outcome.weekly
    if made is not None and made.context is not None:
        if made.failures:
            why = "; ".join(f"{name}: {reason}" for name, reason in made.failures.items())
            health.append(ReportHealth(made.week, "partial", SourceError.exit_code, why, True))
        else:
            health.append(ReportHealth(made.week, "ok", weekly=True))
    return health


async def retry_deliveries(
    settings: Settings, home: Path | None = None, *, now: datetime | None = None
) -> Retried:
    """``deliver --retry``: under the run lock, what :func:`run_job` does first — send
    again what failed, give up what is older than its channel's ``retry_days``."""
    home = home or default_home()
    with run_lock(home, settings.run.lock_timeout_s), Store.open(home) as store:
        return await retry_pending(
            ReportsFolder(settings.output_dir), settings.deliver, store, now=now
        )


async def deliver_report(
    settings: Settings,
    label: str,
    home: Path | None = None,
    *,
    channels: Sequence[str] | None = None,
    force: bool = False,
) -> list[DeliveryResult]:
    """``deliver --date D``: send the report ``label`` (a day, or a week ``YYYY-Www``) from
    the reports folder to the channels named (all by default), under the run lock; a
    channel that already has it is skipped unless ``force``."""
    home = home or default_home()
    targets = select_channels(settings.deliver, channels)
    folder = ReportsFolder(settings.output_dir)
    report = folder.load(label)
    with run_lock(home, settings.run.lock_timeout_s), Store.open(home) as store:
        return await deliver_day(
            report, targets, store, force=force, report_paths=folder.files(label)
        )
