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
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path
from typing import Literal

import httpx2

from commitdigest.config.channels import ChannelConfig
from commitdigest.errors import DeliveryError, OutputError, StoreError, UsageError
from commitdigest.files import write_bytes_atomic
from commitdigest.http import RetryPolicy, async_client
from commitdigest.models import ReportContext, WeeklyContext
from commitdigest.redaction import install_log_redaction, redact
from commitdigest.render.json_output import load_context
from commitdigest.store import Store
from commitdigest.store.deliveries import DeliveryLog
from commitdigest.window import WEEK_LABEL

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
    context: ReportContext,
    channels: Sequence[ChannelConfig],
    store: Store | None,
    *,
    force: bool = False,
    report_paths: Mapping[str, Path] | None = None,
    transport: httpx2.AsyncBaseTransport | None = None,
    sleep: Sleep = asyncio.sleep,
) -> list[DeliveryResult]:
    """Deliver ``context``'s day to every enabled channel; one result per channel, in order.

    Never raises for a channel's failure (see each result's ``status`` and ``error``).
    Without a store nothing is recorded and nothing is skipped.
    """
    install_log_redaction()
    job = DeliveryJob(context, report_day(context), dict(report_paths or {}))
    records = DeliveryLog(store) if store is not None else None
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
    context: ReportContext,
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
    known = {c.name: c for c in channels}
    unknown = [n for n in names if n not in known]
    if unknown:
        have = ", ".join(known) or "none: add [[deliver]] entries to commitdigest.toml"
        raise UsageError(f"unknown channel {unknown[0]!r} (configured: {have})")
    return [known[n] for n in dict.fromkeys(names)]


def load_day_context(out_dir: Path, day: str) -> tuple[ReportContext, dict[str, Path]]:
    """The context of the report written for ``day`` (from ``<out_dir>/<day>.json``) and
    the report files there, by format; an :class:`OutputError` when there is no JSON."""
    source = out_dir / f"{day}.json"
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise OutputError(
            f"no report context {source}: delivery re-reads a day's JSON report, so keep "
            'json among the formats (formats = ["md", "json"])'
        ) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise OutputError(
            f"cannot read {source}: {getattr(exc, 'strerror', None) or exc}"
        ) from None
    paths = {fmt: out_dir / f"{day}.{fmt}" for fmt in ("md", "json", "html")}
    found = {fmt: p for fmt, p in paths.items() if p.is_file()}
    if WEEK_LABEL.fullmatch(day):  # a weekly digest: delivered as the week's report
        try:
            week = WeeklyContext.model_validate_json(text)
        except ValueError:
            raise OutputError(f"{source} is not a weekly digest's JSON") from None
        return week.as_report(), {}
    return load_context(text), found


def failed(results: Sequence[DeliveryResult]) -> list[DeliveryResult]:
    return [r for r in results if not r.ok]


async def retry_pending(
    out_dir: Path,
    channels: Sequence[ChannelConfig],
    store: Store,
    *,
    today: date,
    retry_days: int,
    skip_days: Collection[str] = (),
    transport: httpx2.AsyncBaseTransport | None = None,
    sleep: Sleep = asyncio.sleep,
) -> tuple[list[DeliveryResult], list[tuple[str, str]]]:
    """Send again every delivery of the last ``retry_days`` days that never reached its
    channel (failed, or cut off), oldest day first, from the day's JSON report; what
    succeeded is never sent twice. Older unsent deliveries are recorded as given up.
    Returns the results and the ``(day, channel)`` pairs given up."""
    records = DeliveryLog(store)
    first = (today - timedelta(days=retry_days)).isoformat()
    given_up = records.give_up(first)
    for day, name in given_up:
        log.info("deliver %s %s: given up after %d days of retries", name, day, retry_days)
    known = {c.name: c for c in channels if c.enabled}
    by_day: dict[str, list[ChannelConfig]] = {}
    for day, name in records.pending(first):
        if day not in skip_days and name in known:
            by_day.setdefault(day, []).append(known[name])
    results: list[DeliveryResult] = []
    for day, targets in by_day.items():
        try:
            context, paths = load_day_context(out_dir, day)
        except OutputError as exc:
            results += [
                DeliveryResult(c.name, c.type, day, "failed", error=exc.message) for c in targets
            ]
            continue
        results += await deliver_day(
            context, targets, store, report_paths=paths, transport=transport, sleep=sleep
        )
    return results, given_up
