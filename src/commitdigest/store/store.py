"""The store's operations: cached analyses and run records."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import astuple, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import TypeAdapter, ValidationError

from commitdigest.config.settings import default_home

from ..models import Analysis, ApiChange, Overview
from .db import Database

if TYPE_CHECKING:
    from .deliveries import DeliveryLog
    from .http_cache import HttpCache

STORE_FILE = "commitdigest.sqlite3"


@dataclass(frozen=True)
class AnalysisKey:
    """A cached analysis is valid for exactly this commit, analyser, version and language."""

    repository: str
    sha: str
    analyser: str
    analyser_version: str
    lang: str


@dataclass(frozen=True)
class OverviewKey:
    """A cached overview is valid for this repository, day, analyser and exact input."""

    repository: str
    day: str
    analyser: str
    analyser_version: str
    lang: str
    input_hash: str  # digest of the analyses the overview was made from


@dataclass(frozen=True)
class RunRecord:
    id: int
    started_at: str
    finished_at: str | None
    command: str
    window_start: str
    window_end: str
    tz: str
    repositories: list[str]
    commits: int
    analysed: int
    cached: int
    timings: dict[str, float]
    outputs: list[str]
    status: str
    error: str | None
    llm: dict[str, Any] = field(default_factory=dict)  # what the run's LLM did (counts)


def _now() -> str:
    return datetime.now(tz=UTC).isoformat(timespec="seconds")


_RADAR_ITEMS = TypeAdapter(list[ApiChange])


class Store:
    """The SQLite store: the analysis, overview and radar caches and the runs; the GitHub
    HTTP cache (:meth:`github_cache`) and the deliveries (:meth:`deliveries`) on the same
    :class:`~.db.Database` (``db``)."""

    def __init__(self, db: Database, path: Path) -> None:
        self.db = db
        self.path = path

    @classmethod
    def open(cls, home: Path | None = None) -> Store:
        path = (home or default_home()) / STORE_FILE
        return cls(Database.open(path), path)

    def github_cache(self) -> HttpCache:
        """The GitHub source's cache on this store's database."""
        from .http_cache import HttpCache

        return HttpCache(self.db)

    def deliveries(self) -> DeliveryLog:
        """The deliveries' records on this store's database."""
        from .deliveries import DeliveryLog

        return DeliveryLog(self.db)

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- analyses ---------------------------------------------------------------------

    def get_analyses(self, keys: Iterable[AnalysisKey]) -> dict[AnalysisKey, Analysis]:
        """The cached analyses among ``keys`` (an entry that no longer validates is a miss)."""
        found: dict[AnalysisKey, Analysis] = {}
        for key in keys:
            row = self.db.first(
                "SELECT analysis_json FROM analyses WHERE repository = ? AND sha = ? "
                "AND analyser = ? AND analyser_version = ? AND lang = ?",
                (key.repository, key.sha, key.analyser, key.analyser_version, key.lang),
            )
            if row is None:
                continue
            try:
                found[key] = Analysis.model_validate_json(row[0])
            except ValidationError:
                continue
        return found

    def put_analyses(self, made: Sequence[tuple[AnalysisKey, Analysis]]) -> None:
        """Store analyses, in one transaction."""
        now = _now()
        with self.db.write() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO analyses (repository, sha, analyser, analyser_version,"
                " lang, analysis_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (k.repository, k.sha, k.analyser, k.analyser_version, k.lang,
                     a.model_dump_json(), now)
                    for k, a in made
                ],
            )  # fmt: skip

    # ---- radar facts ------------------------------------------------------------------

    def get_radar(self, keys: Iterable[str]) -> dict[str, list[ApiChange]]:
        """The cached radar facts among ``keys`` (one query; a stale entry is a miss)."""
        found: dict[str, list[ApiChange]] = {}
        for key, text in self._radar_rows("key, items_json", list(keys)):
            try:
                found[key] = _RADAR_ITEMS.validate_json(text)
            except ValidationError:
                continue
        return found

    def count_radar(self, keys: Iterable[str]) -> int:
        """How many of ``keys`` have radar facts stored (their texts are not read)."""
        return sum(n for (n,) in self._radar_rows("COUNT(*)", list(dict.fromkeys(keys))))

    def _radar_rows(self, columns: str, keys: list[str]) -> Iterator[tuple[Any, ...]]:
        """The rows of ``SELECT <columns>`` from the radar cache for ``keys``, asked 500 at a
        time (SQLite bounds a statement's parameters)."""
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ", ".join("?" * len(chunk))
            sql = f"SELECT {columns} FROM radar_cache WHERE key IN ({marks})"
            yield from self.db.read(sql, chunk)

    def put_radar(self, items: dict[str, list[ApiChange]]) -> None:
        now = _now()
        with self.db.write() as conn:
            conn.executemany(
                "INSERT OR REPLACE INTO radar_cache (key, items_json, stored_at) VALUES (?, ?, ?)",
                [
                    (key, _RADAR_ITEMS.dump_json(value).decode(), now)
                    for key, value in items.items()
                ],
            )

    # ---- overviews --------------------------------------------------------------------

    def get_overview(self, key: OverviewKey) -> Overview | None:
        row = self.db.first(
            "SELECT overview_json FROM overviews WHERE repository = ? AND day = ? AND analyser = ?"
            " AND analyser_version = ? AND lang = ? AND input_hash = ?",
            astuple(key),
        )
        if row is None:
            return None
        try:
            return Overview.model_validate_json(row[0])
        except ValidationError:
            return None

    def put_overview(self, key: OverviewKey, overview: Overview) -> None:
        with self.db.write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO overviews (repository, day, analyser, analyser_version,"
                " lang, input_hash, overview_json, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (*astuple(key), overview.model_dump_json(), _now()),
            )

    def count_analyses(self) -> int:
        row = self.db.first("SELECT COUNT(*) FROM analyses")
        return int(row[0]) if row else 0

    # ---- runs -------------------------------------------------------------------------

    def start_run(
        self,
        *,
        command: str,
        window_start: datetime,
        window_end: datetime,
        tz: str,
        repositories: list[str],
    ) -> int:
        with self.db.write() as conn:
            cur = conn.execute(
                "INSERT INTO runs (started_at, command, window_start, window_end, tz,"
                " repositories_json) VALUES (?, ?, ?, ?, ?, ?)",
                (
                    _now(),
                    command,
                    window_start.isoformat(),
                    window_end.isoformat(),
                    tz,
                    json.dumps(repositories, ensure_ascii=False),
                ),
            )
            return int(cur.lastrowid or 0)

    def finish_run(
        self,
        run_id: int,
        *,
        status: str,
        commits: int = 0,
        analysed: int = 0,
        cached: int = 0,
        timings: dict[str, float] | None = None,
        outputs: list[str] | None = None,
        error: str | None = None,
        llm: dict[str, Any] | None = None,
    ) -> None:
        """Complete run ``run_id``'s record. Its many parameters are kept on purpose: each
        keyword is one column of the ``runs`` row this one UPDATE writes, named at the call,
        so a record type for them would only repeat the table's columns."""
        with self.db.write() as conn:
            conn.execute(
                "UPDATE runs SET finished_at = ?, status = ?, commits = ?, analysed = ?,"
                " cached = ?, timings_json = ?, outputs_json = ?, error = ?, llm_json = ?"
                " WHERE id = ?",
                (
                    _now(),
                    status,
                    commits,
                    analysed,
                    cached,
                    json.dumps(timings or {}),
                    json.dumps(outputs or [], ensure_ascii=False),
                    error,
                    json.dumps(llm or {}, ensure_ascii=False),
                    run_id,
                ),
            )

    def last_ok_window_end(self, command: str) -> datetime | None:
        """The latest end of a window that a fully successful ``command`` run covered."""
        rows = self.db.read(
            "SELECT window_end FROM runs WHERE command = ? AND status = 'ok'", (command,)
        )
        return max((datetime.fromisoformat(r[0]) for r in rows), default=None)

    def runs(self, limit: int = 20) -> list[RunRecord]:
        rows = self.db.read(
            "SELECT id, started_at, finished_at, command, window_start, window_end, tz,"
            " repositories_json, commits, analysed, cached, timings_json, outputs_json,"
            " status, error, llm_json FROM runs ORDER BY id DESC LIMIT ?",
            (limit,),
        )
        return [_run_from_row(r) for r in rows]


def _run_from_row(r: tuple[Any, ...]) -> RunRecord:
    return RunRecord(
        id=r[0],
        started_at=r[1],
        finished_at=r[2],
        command=r[3],
        window_start=r[4],
        window_end=r[5],
        tz=r[6],
        repositories=json.loads(r[7]),
        commits=r[8],
        analysed=r[9],
        cached=r[10],
        timings=json.loads(r[11]),
        outputs=json.loads(r[12]),
        status=r[13],
        error=r[14],
        llm=json.loads(r[15] or "{}"),
    )
