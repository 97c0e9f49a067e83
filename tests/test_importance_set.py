"""The hand-labelled importance set and the scoring of bench/importance.py."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from commitdigest.models import Commit

ROOT = Path(__file__).resolve().parent.parent


def _bench() -> ModuleType:
    path = ROOT / "bench" / "importance.py"
    spec = importlib.util.spec_from_file_location("bench_importance", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


BENCH = _bench()


def test_set_size_and_labels() -> None:
    rows = BENCH.load_labels()
    assert len(rows) >= 150
    assert len({r.repository for r in rows}) >= 3
    assert len({(r.repository, r.sha) for r in rows}) == len(rows)
    for r in rows:
        assert r.label in {"high", "medium", "low"}, r
        assert r.reason.strip(), r
        assert len(r.sha) == 40 and r.title and r.date, r
    # every level is represented
    assert {r.label for r in rows} == {"high", "medium", "low"}


def test_every_fixture_loads_into_a_commit() -> None:
    rows = BENCH.load_labels()
    fixtures = BENCH.load_fixtures()
    for r in rows:
        c = fixtures[(r.repository, r.sha)]
        assert isinstance(c, Commit)
        assert c.title == r.title
        assert c.files or c.title  # empty commits have no files
        assert len(c.files) == 0 or any(f.path for f in c.files)
    assert len(fixtures) == len(rows)


def test_fixtures_stay_small() -> None:
    total = sum(p.stat().st_size for p in (ROOT / "tests/fixtures/importance_set").glob("*.gz"))
    assert total < 3_000_000
    for c in BENCH.load_fixtures().values():
        assert sum(len(f.patch.encode()) for f in c.files) <= 20480
        assert all(len(f.patch.encode()) <= 4096 for f in c.files)


def test_score_on_a_hand_example() -> None:
    labels = ["high", "high", "medium", "low", "low", "low", "medium", "low"]
    rules = ["high", "low", "medium", "low", "high", "medium", "low", "low"]
    s = BENCH.score(labels, rules)
    assert s.n == 8
    assert s.agreement == pytest.approx(4 / 8)  # idx 0, 2, 3, 7
    assert s.high_low == pytest.approx(2 / 8)  # high->low (1), low->high (4)
    assert s.matrix[("high", "high")] == 1
    assert s.matrix[("high", "low")] == 1
    assert s.matrix[("low", "high")] == 1
    assert s.matrix[("low", "medium")] == 1
    assert s.matrix[("medium", "low")] == 1
    assert sum(s.matrix.values()) == 8
    assert not BENCH.passes(s)
    perfect = BENCH.score(["low", "high"], ["low", "high"])
    assert perfect.agreement == 1.0 and perfect.high_low == 0.0 and BENCH.passes(perfect)
    edge = BENCH.score(["low"] * 20, ["low"] * 15 + ["medium"] * 4 + ["high"])
    assert edge.agreement == 0.75 and edge.high_low == 0.05 and BENCH.passes(edge)
    with pytest.raises(ValueError):
        BENCH.score(["low"], [])


def test_bench_runs_on_the_set(capsys: pytest.CaptureFixture[str]) -> None:
    rc = BENCH.main([])
    out = capsys.readouterr().out
    assert rc in (0, 1)
    assert "agreement" in out and "always-medium baseline" in out and "always-low" in out
    assert "label \\ rules" in out
