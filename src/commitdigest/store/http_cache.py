"""The GitHub source's cache (:mod:`commitdigest.sources.github_cache`) on the store's SQLite
connection (table ``github_cache``).

Two kinds of rows share the table:

* conditional responses, keyed ``GET <url> <accept>``: the ``ETag``, the body and the
  ``Link`` header (a ``304 Not Modified`` carries no body, and pagination needs the links);
* commit details, keyed ``commit <api url> <owner/repo>@<sha>`` with no ETag: a commit never
  changes, so its files, counts and full patches are kept for good and never asked again.

Keys hold URLs only: tokens travel in headers and are never written here. Without a store
(``HttpCache(None)``) the same code runs on a private in-memory database.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

from ..errors import StoreError
from ..sources.github_cache import CachedResponse
from .db import migrate
from .store import Store


def _now() -> str:
    return datetime.now(tz=UTC).isoformat(timespec="seconds")


class HttpCache:
    """ETag'd responses and commit details on ``store``'s connection (or in memory)."""

    def __init__(self, store: Store | None) -> None:
        if store is None:
            conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
            migrate(conn)
            self._conn = conn
            self._where = "memory"
            self._owned = True
        else:
            self._conn = store._conn
            self._where = str(store.path)
            self._owned = False

    def close(self) -> None:
        if self._owned:
            self._conn.close()

    def _put(self, key: str, etag: str | None, body: str, link: str) -> None:
        try:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute(
                "INSERT OR REPLACE INTO github_cache (key, etag, body, link, stored_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (key, etag, body, link, _now()),
            )
            self._conn.execute("COMMIT")
        except sqlite3.Error as exc:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
            raise StoreError(f"cannot write to the store at {self._where}: {exc}") from None

    # ---- conditional responses ---------------------------------------------------------

    def get_response(self, key: str) -> CachedResponse | None:
        row = self._conn.execute(
            "SELECT etag, body, link FROM github_cache WHERE key = ? AND etag IS NOT NULL",
            (key,),
        ).fetchone()
        return CachedResponse(row[0], row[1], row[2]) if row else None

    def put_response(self, key: str, response: CachedResponse) -> None:
        self._put(key, response.etag, response.body, response.link)

    # ---- commit details ----------------------------------------------------------------

    def get_commit(self, key: str) -> dict[str, Any] | None:
        row = self._conn.execute(
            "SELECT body FROM github_cache WHERE key = ? AND etag IS NULL", (key,)
        ).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def put_commit(self, key: str, detail: dict[str, Any]) -> None:
        self._put(key, None, json.dumps(detail, ensure_ascii=False), "")

    def count(self) -> tuple[int, int]:
        """(conditional responses, commit details) stored."""
        row = self._conn.execute(
            "SELECT COUNT(etag), COUNT(*) - COUNT(etag) FROM github_cache"
        ).fetchone()
        return int(row[0]), int(row[1])
