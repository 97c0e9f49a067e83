"""The SQLite store's file: its one connection (:class:`Database`) and its migrations.

Migrations are an append-only list, each keyed by a name that says what it does (never
edit, rename or reorder an entry; add a new one). The ``_migrations`` table records which
have run, by name, so opening a store created by an older commitdigest upgrades it in
place, and a store that ran a migration this commitdigest does not know asks for an
upgrade.

Stores made before migrations had names recorded them by number (``version`` 1 to
:data:`NUMBERED`, the first entries of :data:`MIGRATIONS` in order); opening one gives each
number its name. ``version`` is kept, counting in the order the migrations ran, so that a
commitdigest from before names still sees a newer store as one and asks for an upgrade.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import StoreError


@dataclass(frozen=True)
class Migration:
    """One change of the schema: ``name`` says what it does, ``sql`` does it."""

    name: str
    sql: str


MIGRATIONS: tuple[Migration, ...] = (
    # analyses cached per commit and analyser
    Migration(
        "create_analyses_cache",
        """
        CREATE TABLE analyses (
            repository TEXT NOT NULL,
            sha TEXT NOT NULL,
            analyser TEXT NOT NULL,
            analyser_version TEXT NOT NULL,
            lang TEXT NOT NULL,
            analysis_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (repository, sha, analyser, analyser_version, lang)
        )
        """,
    ),
    # one row per report run
    Migration(
        "create_runs",
        """
        CREATE TABLE runs (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            started_at TEXT NOT NULL,
            finished_at TEXT,
            command TEXT NOT NULL,
            window_start TEXT NOT NULL,
            window_end TEXT NOT NULL,
            tz TEXT NOT NULL,
            repositories_json TEXT NOT NULL,
            commits INTEGER NOT NULL DEFAULT 0,
            analysed INTEGER NOT NULL DEFAULT 0,
            cached INTEGER NOT NULL DEFAULT 0,
            timings_json TEXT NOT NULL DEFAULT '{}',
            outputs_json TEXT NOT NULL DEFAULT '[]',
            status TEXT NOT NULL DEFAULT 'running',
            error TEXT
        )
        """,
    ),
    # daily overviews, keyed by what they were made from
    Migration(
        "create_overviews_cache",
        """
        CREATE TABLE overviews (
            repository TEXT NOT NULL,
            day TEXT NOT NULL,
            analyser TEXT NOT NULL,
            analyser_version TEXT NOT NULL,
            lang TEXT NOT NULL,
            input_hash TEXT NOT NULL,
            overview_json TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (repository, day, analyser, analyser_version, lang, input_hash)
        )
        """,
    ),
    # GitHub source cache: conditional responses (ETag + body + Link) and commit details
    # (etag NULL: a commit's details never change, kept by SHA)
    Migration(
        "create_github_cache",
        """
        CREATE TABLE github_cache (
            key TEXT PRIMARY KEY,
            etag TEXT,
            body TEXT NOT NULL,
            link TEXT NOT NULL DEFAULT '',
            stored_at TEXT NOT NULL
        )
        """,
    ),
    # report deliveries: one row per delivery of a day to a channel (its attempts
    # counted); status 'sending' while it runs, then 'sent' or 'failed'
    Migration(
        "create_deliveries",
        """
        CREATE TABLE deliveries (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            day TEXT NOT NULL,
            channel TEXT NOT NULL,
            channel_type TEXT NOT NULL,
            status TEXT NOT NULL,
            attempts INTEGER NOT NULL DEFAULT 0,
            error TEXT,
            started_at TEXT NOT NULL,
            delivered_at TEXT,
            digest_hash TEXT NOT NULL,
            forced INTEGER NOT NULL DEFAULT 0
        )
        """,
    ),
    # the breaking-change radar's facts per commit, keyed "radar:v<version>:<window base>:<sha>"
    # (a commit never changes; a new radar version misses and scans again)
    Migration(
        "create_radar_cache",
        """
        CREATE TABLE radar_cache (
            key TEXT PRIMARY KEY,
            items_json TEXT NOT NULL,
            stored_at TEXT NOT NULL
        )
        """,
    ),
    # what a run's LLM did: analyses made and fallen back, calls, retries, waits, twins,
    # refused requests and what they taught, repaired answers (a JSON object)
    Migration(
        "add_runs_llm_json",
        """
        ALTER TABLE runs ADD COLUMN llm_json TEXT NOT NULL DEFAULT '{}'
        """,
    ),
)
NUMBERED = 7  # migrations that stores made before names recorded by number (1 to 7)


class Database:
    """The store file's one connection, shared by every table's owner (:class:`~.store.Store`'s
    caches and runs, :class:`~.http_cache.HttpCache`, :class:`~.deliveries.DeliveryLog`):
    one file, one writer lock. :meth:`open` creates and migrates it; :meth:`memory` is a
    private in-memory database with the same tables."""

    def __init__(self, conn: sqlite3.Connection, where: str) -> None:
        self._conn = conn
        self.where = where  # the file, or "memory": for messages

    @classmethod
    def open(cls, path: Path) -> Database:
        """Open (creating if needed) and migrate the store at ``path``."""
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # check_same_thread=False: a store opened by a synchronous caller is used by the
            # work run_sync runs on a worker thread when the caller's thread already runs a
            # loop; the caller waits meanwhile, so one thread at a time uses the connection
            conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            conn.execute("PRAGMA foreign_keys=ON")
            migrate(conn)
        except StoreError as exc:
            raise StoreError(f"cannot open the store at {path}: {exc}") from None
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the store at {path}: {exc}") from None
        return cls(conn, str(path))

    @classmethod
    def memory(cls) -> Database:
        """A private, migrated in-memory database (gone when closed)."""
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        migrate(conn)
        return cls(conn, "memory")

    def read(self, sql: str, args: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """The rows of one query."""
        try:
            return list(self._conn.execute(sql, args).fetchall())
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the store at {self.where}: {exc}") from None

    def first(self, sql: str, args: Sequence[object] = ()) -> tuple[Any, ...] | None:
        """The first row of one query, or ``None``."""
        rows = self.read(sql, args)
        return rows[0] if rows else None

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (``BEGIN IMMEDIATE``: the writer lock at once); rolled back
        on any error (a database error is raised as :class:`StoreError`)."""
        try:
            with transaction(self._conn):
                yield self._conn
        except sqlite3.Error as exc:
            raise StoreError(f"cannot write to the store at {self.where}: {exc}") from None

    def close(self) -> None:
        self._conn.close()


def migrate(conn: sqlite3.Connection) -> list[str]:
    """Apply the migrations not yet recorded; return the names of those applied now."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _migrations"
        " (version INTEGER PRIMARY KEY, applied_at TEXT, name TEXT)"
    )
    columns = {row[1] for row in conn.execute("PRAGMA table_info(_migrations)")}
    if "name" not in columns:
        _name_numbered(conn)
    known = {m.name for m in MIGRATIONS}
    done = {
        name if name is not None else version
        for version, name in conn.execute("SELECT version, name FROM _migrations")
    }
    unknown = sorted(str(d) for d in done if d not in known)
    if unknown:
        raise StoreError(
            f"the store was written by a newer commitdigest (it ran migration "
            f"{', '.join(unknown)}, which this one does not know): upgrade commitdigest, or "
            "point --home at another folder"
        )
    applied: list[str] = []
    for migration in MIGRATIONS:
        if migration.name in done:
            continue
        with transaction(conn):
            # another process may have migrated between our read and the lock
            if conn.execute(
                "SELECT 1 FROM _migrations WHERE name = ?", (migration.name,)
            ).fetchone():
                continue
            conn.execute(migration.sql)
            conn.execute(
                "INSERT INTO _migrations (name, applied_at) VALUES (?, datetime('now'))",
                (migration.name,),
            )
            applied.append(migration.name)
    return applied


def _name_numbered(conn: sqlite3.Connection) -> None:
    """Give the numbered records of a store made before names their names (a number past
    :data:`NUMBERED` keeps none: a newer commitdigest's, unknown here)."""
    with transaction(conn):
        columns = {row[1] for row in conn.execute("PRAGMA table_info(_migrations)")}
        if "name" in columns:  # another process named them meanwhile
            return
        conn.execute("ALTER TABLE _migrations ADD COLUMN name TEXT")
        conn.executemany(
            "UPDATE _migrations SET name = ? WHERE version = ?",
            [(m.name, n) for n, m in enumerate(MIGRATIONS[:NUMBERED], start=1)],
        )


@contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction on ``conn``: the writer lock at once (``BEGIN IMMEDIATE``),
    committed at the end, rolled back on any error."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
