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
