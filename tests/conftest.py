from __future__ import annotations

import sys
from pathlib import Path

# tests import their helpers (gitfixture, ...) as top-level modules
sys.path.insert(0, str(Path(__file__).parent))

import pytest

pytest_plugins = ["fake_openai"]


@pytest.fixture
def anyio_backend() -> str:
    """Async tests run on asyncio only (the product runs on asyncio)."""
    return "asyncio"


@pytest.fixture(autouse=True)
def _chinese_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests written for the zh default run under a zh locale (the default follows it)."""
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*/expected.* from the current output (review the diff!)",
    )
