from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from commitdigest.errors import StoreError
from commitdigest.models import Analysis, ChangeType, Importance
from commitdigest.store import AnalysisKey, Store
from commitdigest.store.db import MIGRATIONS, NUMBERED, Database, Migration


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
    Database.open(db).close()
    opened = Database.open(db)  # second open applies nothing new
    rows = opened.read("SELECT version, name FROM _migrations ORDER BY version")
    assert [r[0] for r in rows] == list(range(1, len(MIGRATIONS) + 1))
    assert [r[1] for r in rows] == [m.name for m in MIGRATIONS]
    opened.close()


def test_analysis_cache_is_keyed_by_commit_analyser_version_and_lang(tmp_path: Path) -> None:
    with Store.open(tmp_path) as store:
        key = AnalysisKey("o/r", "a" * 40, "rules", "1", "zh")
        store.put_analyses([(key, _analysis("cached"))])
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
        store.put_analyses([(key, _analysis())])
        with store.db.write() as conn:
            conn.execute("UPDATE analyses SET analysis_json = '{\"bad\": 1}'")
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
    conn.execute(MIGRATIONS[0].sql)
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
    Database.open(path).close()
    raw = sqlite3.connect(path)
    raw.execute(
        "INSERT INTO _migrations (version, applied_at) VALUES (?, 'later')", (len(MIGRATIONS) + 1,)
    )
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"newer commitdigest.*upgrade"):
        Database.open(path)


# ---- named migrations, and the stores made while they were numbered --------------------

# The names of the migrations that stores made before names recorded by number, in order:
# frozen, since those numbers are read as these names.
NUMBERED_NAMES = [
    "create_analyses_cache",
    "create_runs",
    "create_overviews_cache",
    "create_github_cache",
    "create_deliveries",
    "create_radar_cache",
    "add_runs_llm_json",
]


def test_migrations_are_named_once_and_the_numbered_ones_keep_their_order() -> None:
    names = [m.name for m in MIGRATIONS]
    assert len(set(names)) == len(names)
    assert all(name.isidentifier() and name.islower() for name in names)
    assert names[:NUMBERED] == NUMBERED_NAMES


def numbered_store(path: Path, upto: int = NUMBERED) -> None:
    """A store as a commitdigest before names left it: ``_migrations`` by number only."""
    raw = sqlite3.connect(path)
    raw.execute("CREATE TABLE _migrations (version INTEGER PRIMARY KEY, applied_at TEXT)")
    for version, migration in enumerate(MIGRATIONS[:upto], start=1):
        raw.execute(migration.sql)
        raw.execute("INSERT INTO _migrations VALUES (?, 'then')", (version,))
    raw.execute(
        "INSERT INTO analyses VALUES ('o/r', ?, 'rules', '1', 'en', ?, 'then')",
        ("d" * 40, _analysis("kept").model_dump_json()),
    )
    raw.commit()
    raw.close()


def test_a_store_made_with_numbered_migrations_is_read_and_named(tmp_path: Path) -> None:
    numbered_store(tmp_path / "commitdigest.sqlite3")
    with Store.open(tmp_path) as store:
        key = AnalysisKey("o/r", "d" * 40, "rules", "1", "en")
        assert store.get_analyses([key])[key].summary == "kept"  # its data is read
        store.put_radar({"radar:v1:x": []})  # its tables are used as they are
        rows = store.db.read("SELECT version, name, applied_at FROM _migrations ORDER BY 1")
    assert [(v, n) for v, n, _ in rows] == list(enumerate(NUMBERED_NAMES, start=1))
    assert {when for *_, when in rows} == {"then"}  # nothing was applied again
    Database.open(tmp_path / "commitdigest.sqlite3").close()  # named now: opens as it is


def test_a_partly_numbered_store_gets_the_rest_by_name(tmp_path: Path) -> None:
    numbered_store(tmp_path / "commitdigest.sqlite3", upto=2)
    with Store.open(tmp_path) as store:
        assert store.runs() == []
        store.put_radar({"radar:v1:x": []})  # create_radar_cache was applied
        rows = store.db.read("SELECT version, name FROM _migrations ORDER BY version")
    assert rows == list(enumerate((m.name for m in MIGRATIONS), start=1))


def test_a_store_with_a_migration_this_one_does_not_know_asks_for_an_upgrade(
    tmp_path: Path,
) -> None:
    path = tmp_path / "commitdigest.sqlite3"
    Database.open(path).close()
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO _migrations (name, applied_at) VALUES ('add_runs_colour', 'x')")
    raw.commit()
    raw.close()
    with pytest.raises(StoreError, match=r"newer commitdigest.*add_runs_colour.*upgrade"):
        Store.open(tmp_path)


def test_a_commitdigest_from_before_names_sees_a_newer_store(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """It compared the highest ``version`` with the seven it knew: a named migration counts
    on, so a store that ran one more than those is newer to it, and it asks for an upgrade."""

    def old_commitdigest_accepts(path: Path) -> bool:
        raw = sqlite3.connect(path)
        newest = max((r[0] for r in raw.execute("SELECT version FROM _migrations")), default=0)
        raw.close()
        return bool(newest <= NUMBERED)

    path = tmp_path / "commitdigest.sqlite3"
    Database.open(path).close()
    assert old_commitdigest_accepts(path) == (len(MIGRATIONS) == NUMBERED)  # its schema
    later = Migration("add_runs_note", "ALTER TABLE runs ADD COLUMN note TEXT")
    monkeypatch.setattr("commitdigest.store.db.MIGRATIONS", (*MIGRATIONS, later))
    Database.open(path).close()
    assert not old_commitdigest_accepts(path)


def test_count_radar_counts_stored_keys_without_reading_them(tmp_path: Path) -> None:
    from commitdigest.models import ApiChange, ApiChangeType, RadarKind

    item = ApiChange(kind=RadarKind.ENV_VAR, change=ApiChangeType.REMOVED, name="PKG_A")
    with Store.open(tmp_path) as store:
        store.put_radar({"radar:v1:a": [item], "radar:v1:b": []})
        assert store.count_radar(["radar:v1:a", "radar:v1:b", "radar:v1:c"]) == 2
        assert store.count_radar([f"radar:v1:{n}" for n in range(1200)] + ["radar:v1:a"]) == 1
        assert store.get_radar(["radar:v1:a"]) == {"radar:v1:a": [item]}
