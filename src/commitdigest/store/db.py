"""The SQLite store: where it lives, how it is opened, and its append-only migrations.

Migrations are an append-only list (never edit or reorder an entry; add a new one).
The ``_migrations`` table records which have run, so opening a store created by an
older commitdigest upgrades it in place.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from ..errors import StoreError

MIGRATIONS: list[str] = [
    # 1: analyses cached per commit and analyser
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
    # 2: one row per report run
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
    # 3: daily overviews, keyed by what they were made from
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
    # 4: GitHub source cache: conditional responses (ETag + body + Link) and commit details
    #    (etag NULL: a commit's details never change, kept by SHA)
    """
    CREATE TABLE github_cache (
        key TEXT PRIMARY KEY,
        etag TEXT,
        body TEXT NOT NULL,
        link TEXT NOT NULL DEFAULT '',
        stored_at TEXT NOT NULL
    )
    """,
    # 5: report deliveries: one row per delivery of a day to a channel (its attempts
    #    counted); status 'sending' while it runs, then 'sent' or 'failed'
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
    # 6: the breaking-change radar's facts per commit, keyed "radar:v<version>:<sha>"
    #    (a commit never changes; a new radar version misses and scans again)
    """
    CREATE TABLE radar_cache (
        key TEXT PRIMARY KEY,
        items_json TEXT NOT NULL,
        stored_at TEXT NOT NULL
    )
    """,
    # 7: what a run's LLM did: analyses made and fallen back, calls, retries, waits, twins,
    #    refused requests and what they taught, repaired answers (a JSON object)
    """
    ALTER TABLE runs ADD COLUMN llm_json TEXT NOT NULL DEFAULT '{}'
    """,
]


def connect(path: Path) -> sqlite3.Connection:
    """Open (creating if needed) and migrate the store at ``path``."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # check_same_thread=False: a store opened by a synchronous caller is used by the work
        # run_sync runs on a worker thread when the caller's thread already runs a loop; the
        # caller waits meanwhile, so one thread at a time uses the connection
        conn = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn)
    except StoreError as exc:
        raise StoreError(f"cannot open the store at {path}: {exc}") from None
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open the store at {path}: {exc}") from None
    return conn


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations not yet recorded; return the schema version."""
    conn.execute(
        "CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, applied_at TEXT)"
    )
    done = {row[0] for row in conn.execute("SELECT version FROM _migrations")}
    newer = max(done, default=0)
    if newer > len(MIGRATIONS):
        raise StoreError(
            f"the store was written by a newer commitdigest (schema {newer}, this one knows "
            f"{len(MIGRATIONS)}): upgrade commitdigest, or point --home at another folder"
        )
    for version, sql in enumerate(MIGRATIONS, start=1):
        if version in done:
            continue
        conn.execute("BEGIN IMMEDIATE")
        try:
            # another process may have migrated between our read and the lock
            if conn.execute("SELECT 1 FROM _migrations WHERE version = ?", (version,)).fetchone():
                conn.execute("COMMIT")
                continue
            conn.execute(sql)
            conn.execute(
                "INSERT INTO _migrations (version, applied_at) VALUES (?, datetime('now'))",
                (version,),
            )
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return len(MIGRATIONS)
