"""A test that reads settings sees none of the machine's."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# the environment variables the settings (or their secrets) are read from
SETTING_PREFIXES = ("COMMITDIGEST_", "OPENAI_", "GITHUB_", "GH_")


def isolate_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No settings leak in from the machine; the home folder (returned, not created yet)
    is empty, the working folder too."""
    for name in list(os.environ):
        if name.upper().startswith(SETTING_PREFIXES):
            monkeypatch.delenv(name)
    home = tmp_path / "home"
    monkeypatch.setenv("COMMITDIGEST_HOME", str(home))
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    return home
