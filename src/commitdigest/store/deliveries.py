"""The ``deliveries`` table: one row per attempt to send a day's report to a channel.

It records what was sent (the digest's hash, whether forced), how many attempts it took and
the last error (redacted), so a re-run never sends a day twice, each run sends again what
failed (:meth:`DeliveryLog.pending`, with the time of the first failure the retry window
counts from) and ``deliver status`` knows what failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from commitdigest.config.channels import ChannelConfig
from commitdigest.redaction import redact

from .db import Database


@dataclass(frozen=True)
class DeliveryRecord:
    id: int
    day: str
    channel: str
    channel_type: str
    status: str  # sending / sent / failed / given up
    attempts: int
    error: str | None
    started_at: str
    delivered_at: str | None
    digest_hash: str
    forced: bool


@dataclass(frozen=True)
class PendingDelivery:
    """A delivery that has not reached its channel yet: failed (or cut off) since its
    first failure, over one run or several."""

    record_id: int  # its latest record
    day: str
    channel: str
    channel_type: str
    error: str | None  # the last error (redacted)
    first_failure: datetime  # when the first attempt that failed began (UTC)
    attempts: int  # attempts made since


def _now() -> str:
    return datetime.now(tz=UTC).isoformat(timespec="seconds")


class DeliveryLog:
    """The ``deliveries`` table, on the store's database (:meth:`Store.deliveries
    <commitdigest.store.Store.deliveries>`)."""

    _COLUMNS = (
        "id, day, channel, channel_type, status, attempts, error, started_at, delivered_at,"
        " digest_hash, forced"
    )

    def __init__(self, db: Database) -> None:
        self._db = db

    def last_sent(self, day: str, channel: str) -> DeliveryRecord | None:
        rows = self._db.read(
            f"SELECT {self._COLUMNS} FROM deliveries WHERE day = ? AND channel = ?"
            " AND status = 'sent' ORDER BY id DESC LIMIT 1",
            (day, channel),
        )
        return _record(rows[0]) if rows else None

    def start(self, day: str, channel: ChannelConfig, digest_hash: str, *, forced: bool) -> int:
        with self._db.write() as conn:
            cur = conn.execute(
                "INSERT INTO deliveries (day, channel, channel_type, status, attempts,"
                " started_at, digest_hash, forced) VALUES (?, ?, ?, 'sending', 0, ?, ?, ?)",
                (day, channel.name, channel.type, _now(), digest_hash, int(forced)),
            )
            return int(cur.lastrowid or 0)

    def update(self, record_id: int, status: str, attempts: int, error: str | None) -> None:
        delivered = _now() if status == "sent" else None
        with self._db.write() as conn:
            conn.execute(
                "UPDATE deliveries SET status = ?, attempts = ?, error = ?, delivered_at = ?"
                " WHERE id = ?",
                (status, attempts, redact(error) if error else None, delivered, record_id),
            )

    def pending(self) -> list[PendingDelivery]:
        """Every delivery whose latest record is not ``sent`` nor ``given up`` (it failed,
        or was cut off while sending), with its first failure since it was last settled,
        oldest day first: what the next run sends again."""
        rows = self._db.read(
            "SELECT d.id, d.day, d.channel, d.channel_type, d.error,"
            " MIN(x.started_at), SUM(x.attempts) FROM deliveries d JOIN ("
            " SELECT day, channel, MAX(id) AS last FROM deliveries GROUP BY day, channel"
            ") m ON d.id = m.last JOIN deliveries x ON x.day = d.day AND x.channel = d.channel"
            " AND x.id > COALESCE((SELECT MAX(y.id) FROM deliveries y WHERE y.day = d.day"
            " AND y.channel = d.channel AND y.status IN ('sent', 'given up')), 0)"
            " WHERE d.status IN ('failed', 'sending') GROUP BY d.id ORDER BY d.day, d.channel",
            (),
        )
        return [
            PendingDelivery(
                record_id=int(str(r[0])),
                day=str(r[1]),
                channel=str(r[2]),
                channel_type=str(r[3]),
                error=None if r[4] is None else str(r[4]),
                first_failure=datetime.fromisoformat(str(r[5])),
                attempts=int(str(r[6] or 0)),
            )
            for r in rows
        ]

    def give_up(self, pending: PendingDelivery) -> None:
        """Record that ``pending`` is sent no more (its retry window is over)."""
        with self._db.write() as conn:
            conn.execute(
                "UPDATE deliveries SET status = 'given up' WHERE id = ?", (pending.record_id,)
            )

    def latest(self, *, limit: int = 200) -> list[DeliveryRecord]:
        """The latest record of each (day, channel), newest day first: the state table."""
        rows = self._db.read(
            f"SELECT {', '.join('d.' + c.strip() for c in self._COLUMNS.split(','))}"
            " FROM deliveries d JOIN ("
            " SELECT day, channel, MAX(id) AS last FROM deliveries GROUP BY day, channel"
            ") m ON d.id = m.last ORDER BY d.day DESC, d.channel LIMIT ?",
            (limit,),
        )
        return [_record(r) for r in rows]

    def attempts(self, day: str, channel: str) -> int:
        """Every attempt made for ``day`` to ``channel``, over all runs."""
        rows = self._db.read(
            "SELECT COALESCE(SUM(attempts), 0) FROM deliveries WHERE day = ? AND channel = ?",
            (day, channel),
        )
        return int(str(rows[0][0])) if rows else 0

    def records(
        self, *, day: str | None = None, channel: str | None = None, limit: int = 50
    ) -> list[DeliveryRecord]:
        """The latest deliveries, newest first (for a ``deliver --status`` listing)."""
        where, args = [], []
        if day is not None:
            where.append("day = ?")
            args.append(day)
        if channel is not None:
            where.append("channel = ?")
            args.append(channel)
        clause = f" WHERE {' AND '.join(where)}" if where else ""
        rows = self._db.read(
            f"SELECT {self._COLUMNS} FROM deliveries{clause} ORDER BY id DESC LIMIT ?",
            (*args, limit),
        )
        return [_record(r) for r in rows]


def _record(r: tuple[object, ...]) -> DeliveryRecord:
    return DeliveryRecord(
        id=int(str(r[0])),
        day=str(r[1]),
        channel=str(r[2]),
        channel_type=str(r[3]),
        status=str(r[4]),
        attempts=int(str(r[5])),
        error=None if r[6] is None else str(r[6]),
        started_at=str(r[7]),
        delivered_at=None if r[8] is None else str(r[8]),
        digest_hash=str(r[9]),
        forced=bool(r[10]),
    )
