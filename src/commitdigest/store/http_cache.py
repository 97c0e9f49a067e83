"""The GitHub source's cache (:mod:`commitdigest.sources.github_cache`) on the store's SQLite
database (table ``github_cache``).

Two kinds of rows share the table:

* conditional responses, keyed ``GET <url> <accept>``: the ``ETag``, the body and the
  ``Link`` header (a ``304 Not Modified`` carries no body, and pagination needs the links);
* commit details, keyed ``commit <api url> <owner/repo>@<sha>`` with no ETag: a commit never
  changes, so its files, counts and full patches are kept for good and never asked again.

Keys hold URLs only: tokens travel in headers and are never written here. Without a store
(``HttpCache(None)``) the same code runs on a private in-memory database
(:meth:`Database.memory <commitdigest.store.db.Database.memory>`).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from ..sources.github_cache import CachedResponse
from .db import Database


def _now() -> str:
    return datetime.now(tz=UTC).isoformat(timespec="seconds")


class HttpCache:
    """ETag'd responses and commit details on the store's ``db`` (``None``: in memory, closed
    with this cache)."""

    def __init__(self, db: Database | None) -> None:
        self._owned = db is None
        self._db = Database.memory() if db is None else db

    def close(self) -> None:
        if self._owned:
            self._db.close()

    def _put(self, key: str, etag: str | None, body: str, link: str) -> None:
        with self._db.write() as conn:
            conn.execute(
                "INSERT OR REPLACE INTO github_cache (key, etag, body, link, stored_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (key, etag, body, link, _now()),
            )

    # ---- conditional responses ---------------------------------------------------------

    def get_response(self, key: str) -> CachedResponse | None:
        row = self._db.first(
            "SELECT etag, body, link FROM github_cache WHERE key = ? AND etag IS NOT NULL",
            (key,),
        )
        return CachedResponse(row[0], row[1], row[2]) if row else None

    def put_response(self, key: str, response: CachedResponse) -> None:
        self._put(key, response.etag, response.body, response.link)

    # ---- commit details ----------------------------------------------------------------

    def get_commit(self, key: str) -> dict[str, Any] | None:
        row = self._db.first("SELECT body FROM github_cache WHERE key = ? AND etag IS NULL", (key,))
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
        row = self._db.first("SELECT COUNT(etag), COUNT(*) - COUNT(etag) FROM github_cache")
        return (int(row[0]), int(row[1])) if row else (0, 0)
