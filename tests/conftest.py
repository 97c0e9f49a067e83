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


@pytest.fixture(autouse=True)
def _no_user_data(
    monkeypatch: pytest.MonkeyPatch,
    tmp_path_factory: pytest.TempPathFactory,
    request: pytest.FixtureRequest,
) -> None:
    """A command run without ``--home`` or ``COMMITDIGEST_HOME`` keeps its store under this
    test's own folder, never in the user's data folder (made only when a test writes it)."""
    import hashlib

    own = hashlib.sha1(request.node.nodeid.encode(), usedforsecurity=False).hexdigest()[:12]
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path_factory.getbasetemp() / "data" / own))
    monkeypatch.delenv("COMMITDIGEST_HOME", raising=False)  # (a developer's own: not here)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*/expected.* from the current output (review the diff!)",
    )
