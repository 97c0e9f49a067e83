"""Deliver a day's report to the configured channels: once, with retries, on the record.

:func:`deliver_day` runs after the report files are written. Every channel is tried on
its own (concurrently): a failing one never stops the others nor touches the files, and
each gets a :class:`DeliveryResult`. A delivery is a row of the store's ``deliveries``
table (day, channel, status, attempts, error, delivered_at, digest hash); a day already
``sent`` to a channel is skipped unless ``force`` is given. An attempt that fails with a
retryable error (5xx, 429, time-out, connection error) is tried again after a backoff
(doubling from ``backoff_s`` up to ``max_backoff_s``; a 429's ``Retry-After`` is
honoured up to ``max_retry_after_s``); other errors (4xx, a missing secret) are final.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Literal

import httpx2

from commitdigest.config.channels import ChannelConfig
from commitdigest.errors import DeliveryError, OutputError, StoreError, UsageError
from commitdigest.files import write_bytes_atomic
from commitdigest.http import RetryPolicy, async_client
from commitdigest.redaction import install_log_redaction, redact
from commitdigest.render.folder import Report, ReportsFolder
from commitdigest.store import Store
from commitdigest.store.deliveries import DeliveryLog, PendingDelivery

from .channels import (
    Channel,
    DeliveryJob,
    Prepared,
    build_channel,
)
from .digest import content_hash, report_day, sample_context

log = logging.getLogger("commitdigest.deliver")
Sleep = Callable[[float], Awaitable[None]]
Status = Literal["sent", "skipped", "failed"]


@dataclass(frozen=True)
class DeliveryResult:
    channel: str
    type: str
    day: str
    status: Status
    attempts: int = 0
    error: str | None = None  # why it failed (secrets masked)
    detail: str | None = None  # why it was skipped; how much of the digest was cut

    @property
    def ok(self) -> bool:
        return self.status != "failed"


# ---- sending with retries -------------------------------------------------------------


async def send_with_retries(
    channel: Channel,
    message: Prepared,
    *,
    on_attempt: Callable[[int, str | None], None] = lambda n, error: None,
    sleep: Sleep = asyncio.sleep,
) -> tuple[int, DeliveryError | None]:
    """Send ``message``, retrying what may pass later; (attempts made, final error)."""
    config = channel.config
    attempt = 0
    while True:
        attempt += 1
        try:
            await channel.send(message)
        except DeliveryError as exc:
            error = exc
        except Exception as exc:  # a bug in a sender: report it, do not retry
            error = DeliveryError(f"internal error: {type(exc).__name__}: {exc}")
        else:
            on_attempt(attempt, None)
            return attempt, None
        on_attempt(attempt, error.message)
        if not error.retryable or attempt >= config.max_attempts:
            return attempt, error
        policy = retry_policy(config)
        if policy.asks_too_much(error.retry_after):
            return attempt, DeliveryError(
                f"{error.message} (asked to retry after {error.retry_after:.0f} s, "
                f"more than max_retry_after_s = {config.max_retry_after_s:g})"
            )
        delay = policy.backoff(attempt, error.retry_after)
        log.info(
            "deliver %s: attempt %d failed (%s); retrying in %.2f s",
            channel.name,
            attempt,
            error.message,
            delay,
        )
        await sleep(delay)


def retry_policy(config: ChannelConfig) -> RetryPolicy:
    """The channel's retry settings as the HTTP layer's policy (exact waits, no jitter)."""
    return RetryPolicy(
        max_attempts=config.max_attempts,
        backoff_initial_s=config.backoff_s,
        backoff_max_s=config.max_backoff_s,
        retry_after_max_s=config.max_retry_after_s,
        jitter=False,
    )


def _client(transport: httpx2.AsyncBaseTransport | None) -> httpx2.AsyncClient:
    return async_client(transport=transport, follow_redirects=False)


async def deliver_day(
    context: Report,
    channels: Sequence[ChannelConfig],
    store: Store | None,
    *,
    force: bool = False,
    report_paths: Mapping[str, Path] | None = None,
    transport: httpx2.AsyncBaseTransport | None = None,
    sleep: Sleep = asyncio.sleep,
) -> list[DeliveryResult]:
    """Deliver ``context`` — a day's report, or a week's digest — to every enabled channel;
    one result per channel, in order.

    Never raises for a channel's failure (see each result's ``status`` and ``error``).
    Without a store nothing is recorded and nothing is skipped.
    """
    install_log_redaction()
    job = DeliveryJob(context, report_day(context), dict(report_paths or {}))
    records = store.deliveries() if store is not None else None
    async with _client(transport) as client:
        return list(
            await asyncio.gather(
                *(
                    _deliver_one(config, job, client, records, force=force, sleep=sleep)
                    for config in channels
                    if config.enabled
                )
            )
        )


async def _deliver_one(
    config: ChannelConfig,
    job: DeliveryJob,
    client: httpx2.AsyncClient,
    records: DeliveryLog | None,
    *,
    force: bool,
    sleep: Sleep,
) -> DeliveryResult:
    def result(
        status: Status, attempts: int = 0, error: str | None = None, detail: str | None = None
    ) -> DeliveryResult:
        return DeliveryResult(config.name, config.type, job.day, status, attempts, error, detail)

    try:
        channel = build_channel(config, client)
        message = channel.prepare(job)
    except Exception as exc:  # no message can be made: the channel fails, the others go on
        error = redact(f"cannot build the message: {type(exc).__name__}: {exc}")
        log.info("deliver %s: %s", config.name, error)  # the result says it (printed once)
        return result("failed", error=error)
    digest_hash = content_hash(message.text)
    detail = (
        f"{message.items_shown} items shown, {message.items_omitted} more in the report"
        if message.items_omitted
        else None
    )
    record_id: int | None = None
    if records is not None:
        try:
            previous = None if force else records.last_sent(job.day, config.name)
            if previous is not None:
                changed = previous.digest_hash != digest_hash
                note = "; the report has changed since (use --force to send it again)"
                return result(
                    "skipped",
                    detail=f"already delivered at {previous.delivered_at}"
                    + (note if changed else ""),
                )
            record_id = records.start(job.day, config, digest_hash, forced=force)
        except StoreError as exc:
            log.warning("deliver %s: cannot use the store (%s); sending anyway", config.name, exc)

    def on_attempt(attempts: int, error: str | None) -> None:
        if records is None or record_id is None:
            return
        status = "sent" if error is None else "sending"
        try:
            records.update(record_id, status, attempts, error)
        except StoreError as exc:
            log.warning("deliver %s: cannot record the attempt: %s", config.name, exc)

    attempts, failure = await send_with_retries(
        channel, message, on_attempt=on_attempt, sleep=sleep
    )
    if failure is None:
        log.info("deliver %s: sent %s (%d attempt(s))", config.name, job.day, attempts)
        return result("sent", attempts, detail=detail)
    if records is not None and record_id is not None:
        try:
            records.update(record_id, "failed", attempts, failure.message)
        except StoreError as exc:
            log.warning("deliver %s: cannot record the failure: %s", config.name, exc)
    # the result carries the failure: the caller prints it once
    log.info("deliver %s: failed after %d attempt(s): %s", config.name, attempts, failure)
    return result("failed", attempts, failure.message, detail)


async def send_test(
    channel: ChannelConfig,
    *,
    lang: str,
    transport: httpx2.AsyncBaseTransport | None = None,
    sleep: Sleep = asyncio.sleep,
) -> DeliveryResult:
    """Send a sample message (:func:`sample_context`) to check a channel's setup.

    One attempt, nothing recorded in the store: a wrong URL or secret is reported at once,
    with the service's own answer, instead of after the backoff of a real delivery.
    """
    install_log_redaction()
    channel = channel.model_copy(update={"max_attempts": 1})
    context = sample_context(lang)
    job = DeliveryJob(context, report_day(context), {}, test=True)
    async with _client(transport) as client:
        return await _deliver_one(channel, job, client, None, force=True, sleep=sleep)


@dataclass(frozen=True)
class DryRun:
    channel: str
    path: Path
    items_shown: int
    items_omitted: int


async def dry_run(
    context: Report,
    channels: Sequence[ChannelConfig],
    out_dir: Path,
    *,
    report_paths: Mapping[str, Path] | None = None,
    test: bool = False,
) -> list[DryRun]:
    """Write what each enabled channel would send for ``context``'s day to
    ``<out_dir>/<day>.<channel>.<json|eml>`` — the exact body, without sending, without
    reading a secret and without recording anything. A channel that cannot build its
    message raises :class:`DeliveryError` naming it."""
    job = DeliveryJob(context, report_day(context), dict(report_paths or {}), test=test)
    written: list[DryRun] = []
    async with _client(None) as client:
        for config in channels:
            if not config.enabled:
                continue
            channel = build_channel(config, client)
            try:
                message = channel.prepare(job)
            except Exception as exc:
                raise DeliveryError(
                    redact(f"{config.name}: cannot build the message: {type(exc).__name__}: {exc}")
                ) from None
            suffix, data = channel.payload_file(message)
            path = write_bytes_atomic(out_dir / f"{job.day}.{config.name}.{suffix}", data)
            written.append(DryRun(config.name, path, message.items_shown, message.items_omitted))
    return written


# ---- helpers for the command line -----------------------------------------------------


def select_channels(
    channels: Sequence[ChannelConfig], names: Sequence[str] | None
) -> list[ChannelConfig]:
    """The channels named (all when ``names`` is empty); an unknown name is a UsageError."""
    if not names:
        return list(channels)
    known = {c.name: c for c in channels or ()}
    unknown = [n for n in names if n not in known]
    if unknown:
        have = ", ".join(known) or "none: add [[deliver]] entries to commitdigest.toml"
        raise UsageError(f"unknown channel {unknown[0]!r} (configured: {have})")
    return [known[n] for n in dict.fromkeys(names)]


def failed(results: Sequence[DeliveryResult]) -> list[DeliveryResult]:
    return [r for r in results if not r.ok]


@dataclass(frozen=True)
class GivenUp:
    """A delivery sent no more: its first failure is older than its channel's
    ``retry_days``."""

    day: str
    channel: str
    first_failure: datetime
    retry_days: int


@dataclass
class Retried:
    """What :func:`retry_pending` did: the deliveries sent again, those given up."""

    results: list[DeliveryResult] = field(default_factory=list)
    given_up: list[GivenUp] = field(default_factory=list)


def retry_until(pending: PendingDelivery, channel: ChannelConfig) -> datetime:
    """Until when ``pending`` is sent again: its first failure plus the channel's
    ``retry_days``."""
    return pending.first_failure + timedelta(days=channel.retry_days)


async def retry_pending(
    folder: ReportsFolder,
    channels: Sequence[ChannelConfig],
    store: Store,
    *,
    now: datetime | None = None,
    skip_days: Collection[str] = (),
    transport: httpx2.AsyncBaseTransport | None = None,
    sleep: Sleep = asyncio.sleep,
) -> Retried:
    """Send again, from the report's JSON in ``folder``, every delivery that has not
    reached its channel (failed, or cut off), oldest day first; what was sent is never sent
    twice. One whose first failure is older than its channel's ``retry_days`` is recorded
    as given up instead. Deliveries to a channel that is no longer configured, or disabled,
    are left as they are."""
    records = store.deliveries()
    moment = now or datetime.now(tz=UTC)
    known = {c.name: c for c in channels if c.enabled}
    done = Retried()
    by_day: dict[str, list[ChannelConfig]] = {}
    for pending in records.pending():
        channel = known.get(pending.channel)
        if channel is None or pending.day in skip_days:
            continue
        if moment > retry_until(pending, channel):
            records.give_up(pending)
            done.given_up.append(
                GivenUp(pending.day, pending.channel, pending.first_failure, channel.retry_days)
            )
            log.info("deliver %s %s: given up", pending.channel, pending.day)
            continue
        by_day.setdefault(pending.day, []).append(channel)
    for day, targets in by_day.items():
        try:
            report = folder.load(day)
        except OutputError as exc:
            done.results += [
                DeliveryResult(c.name, c.type, day, "failed", error=exc.message) for c in targets
            ]
            continue
        done.results += await deliver_day(
            report,
            targets,
            store,
            report_paths=folder.files(day),
            transport=transport,
            sleep=sleep,
        )
    return done


@dataclass(frozen=True)
class DeliveryState:
    """Where a day's (or a week's) delivery to a channel stands, for ``deliver status``."""

    day: str
    channel: str
    type: str
    state: str  # sent / failed / sending / given up
    attempts: int  # every attempt, over all runs
    last_error: str | None
    delivered_at: str | None
    first_failure: datetime | None  # of the failures not settled yet
    retry_until: datetime | None  # each run sends it again until then
    next_retry: str | None  # "the next run", or None: it is not sent again by itself
    why: str


def delivery_states(
    store: Store, channels: Sequence[ChannelConfig] | None, *, now: datetime | None = None
) -> list[DeliveryState]:
    """The state of every delivery (its latest record per day and channel, newest day
    first), with when it is sent again and why (or why not); ``channels``: the configured
    ones (None when no settings file says which)."""
    log_ = store.deliveries()
    moment = now or datetime.now(tz=UTC)
    pending = {(p.day, p.channel): p for p in log_.pending()}
    known = {c.name: c for c in channels or ()}
    states = []
    for record in log_.latest():
        waiting = pending.get((record.day, record.channel))
        channel = known.get(record.channel)
        until: datetime | None = None
        next_retry: str | None = None
        if record.status == "sent":
            why = f"delivered at {record.delivered_at}"
        elif record.status == "given up":
            why = (
                f"given up: its first failure is older than retry_days; "
                f"`commitdigest deliver --date {record.day} --channel {record.channel}` sends it"
            )
        elif waiting is None:  # pragma: no cover - a failed latest record is pending
            why = record.status
        elif channels is None:
            next_retry = "the next run"
            why = (
                f"failed since {_stamp(waiting.first_failure)}; every run sends it again "
                "until that is older than the channel's retry_days"
            )
        elif channel is None:
            why = "not sent again: the channel is no longer configured"
        elif not channel.enabled:
            why = "not sent again: the channel is disabled (enabled = false)"
        else:
            until = retry_until(waiting, channel)
            if moment > until:
                why = (
                    f"the next run gives it up: its first failure "
                    f"({_stamp(waiting.first_failure)}) is older than retry_days = "
                    f"{channel.retry_days}"
                )
            else:
                next_retry = "the next run"
                why = (
                    f"failed since {_stamp(waiting.first_failure)}; every run sends it again "
                    f"until {_stamp(until)} (retry_days = {channel.retry_days})"
                )
        states.append(
            DeliveryState(
                day=record.day,
                channel=record.channel,
                type=record.channel_type,
                state=record.status,
                attempts=log_.attempts(record.day, record.channel),
                last_error=record.error,
                delivered_at=record.delivered_at,
                first_failure=waiting.first_failure if waiting else None,
                retry_until=until,
                next_retry=next_retry,
                why=why,
            )
        )
    return states


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
