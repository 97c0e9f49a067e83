from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from commitdigest.errors import StoreError
from commitdigest.models import Analysis, ChangeType, Importance
from commitdigest.store import AnalysisKey, Store
from commitdigest.store.db import MIGRATIONS, connect


def _analysis(summary: str = "s") -> Analysis:
    return Analysis(
        change_type=ChangeType.BUGFIX,
        importance=Importance.LOW,
        summary=summary,
        analyser="rules",
        analyser_version="1",
    )


def test_migrations_are_recorded_and_idempotent(tmp_path: Path) -> None:
    db = tmp_path / "s.sqlite3"
    connect(db).close()
    conn = connect(db)  # second open applies nothing new
    versions = [r[0] for r in conn.execute("SELECT version FROM _migrations ORDER BY version")]
    assert versions == list(range(1, len(MIGRATIONS) + 1))
    conn.close()


def test_analysis_cache_is_keyed_by_commit_analyser_version_and_lang(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        key = AnalysisKey("o/r", "a" * 40, "rules", "1", "zh")
        store.put_analysis(key, _analysis("cached"))
        assert store.get_analyses([key])[key].summary == "cached"
        for other in (
            AnalysisKey("o/r", "a" * 40, "rules", "2", "zh"),
            AnalysisKey("o/r", "a" * 40, "rules", "1", "en"),
            AnalysisKey("o/r", "a" * 40, "llm", "1", "zh"),
            AnalysisKey("o/r", "b" * 40, "rules", "1", "zh"),
            AnalysisKey("x/y", "a" * 40, "rules", "1", "zh"),
        ):
            assert store.get_analyses([other]) == {}
    with Store.open(tmp_path) as store:  # persisted
        assert store.count_analyses() == 1


def test_a_corrupt_cached_entry_is_a_miss(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        key = AnalysisKey("o/r", "c" * 40, "rules", "1", "zh")
        store.put_analysis(key, _analysis())
        store._conn.execute("UPDATE analyses SET analysis_json = '{\"bad\": 1}'")
        assert store.get_analyses([key]) == {}


def test_run_records(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        run = store.start_run(
            command="report",
            window_start=datetime(2026, 1, 1, tzinfo=UTC),
            window_end=datetime(2026, 1, 2, tzinfo=UTC),
            tz="UTC",
            repositories=["o/r"],
        )
        store.finish_run(
            run,
            status="ok",
            commits=3,
            analysed=2,
            cached=1,
            timings={"read_s": 0.1},
            outputs=["reports/2026-01-01.md"],
        )
        [rec] = store.runs()
    assert (rec.status, rec.commits, rec.analysed, rec.cached) == ("ok", 3, 2, 1)
    assert rec.outputs == ["reports/2026-01-01.md"] and rec.timings == {"read_s": 0.1}


def test_unopenable_store_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot open the store"):
        Store.open(blocker / "home")


def test_store_from_an_older_schema_is_upgraded(tmp_path: Path) -> None:
    db = tmp_path / "commitdigest.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE _migrations (version INTEGER PRIMARY KEY, applied_at TEXT)")
    conn.execute(MIGRATIONS[0])
    conn.execute("INSERT INTO _migrations VALUES (1, 'then')")
    conn.commit()
    conn.close()
    with Store.open(tmp_path) as store:
        assert store.runs() == []  # migration 2 (runs) was applied


def test_overview_cache_is_keyed_by_its_input(tmp_path: Path) -> None:
    from commitdigest.models import Overview
    from commitdigest.store import OverviewKey

    key = OverviewKey("o/r", "2026-01-13", "llm", "m@v1", "zh", "hash-a")
    with Store.open(tmp_path) as store:
        store.put_overview(key, Overview(themes=["t"], analyser="llm"))
        assert store.get_overview(key) == Overview(themes=["t"], analyser="llm")
        assert (
            store.get_overview(OverviewKey("o/r", "2026-01-13", "llm", "m@v1", "zh", "hash-b"))
            is None
        )


def test_a_store_from_a_newer_version_asks_for_an_upgrade(tmp_path: Path) -> None:
    path = tmp_path / "home" / "commitdigest.db"
    connect(path).close()
    raw = sqlite3.connect(path)
    raw.execute(
        "INSERT INTO _migrations (version, applied_at) VALUES (?, 'later')", (len(MIGRATIONS) + 1,)
    )
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"newer commitdigest.*upgrade"):
        connect(path)
