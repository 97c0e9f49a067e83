"""Browser helpers for the HTML report's tests: Debian's chromium driven by Playwright.

* :func:`launch` starts ``/usr/bin/chromium`` (never a downloaded browser) headless, with
  everything that would phone home switched off. Without chromium or Playwright the
  tests are skipped with the reason, except in CI (``CI`` set and not false), where they
  fail: a CI machine must have them. :func:`running_chromium` is both, for a fixture.
* :class:`RequestRecorder` routes every request of a page: ``file:`` and ``data:`` go on,
  anything else is aborted and recorded — so a test can assert the page asked no host.
* :func:`artifact_dir` is where screenshots go: ``$COMMITDIGEST_ARTIFACTS``, else
  ``test-artifacts/`` under the repository root.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright, Request, Route

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = Path(os.environ.get("COMMITDIGEST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--disable-dev-shm-usage",
]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> None:
    """Skip (on a developer's machine) or fail (in CI) for a missing browser."""
    if in_ci():
        pytest.fail(f"{reason} (CI is set: the browser tests must run here)", pytrace=False)
    pytest.skip(reason)


def start_playwright() -> Playwright:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("Playwright is not installed (pip install playwright)")
        raise  # unreachable: unavailable() raises
    if not CHROMIUM.exists():
        unavailable(f"{CHROMIUM} not found (apt-get install chromium)")
    return sync_playwright().start()


def launch(playwright: Playwright) -> Browser:
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )


@contextmanager
def running_chromium() -> Iterator[Browser]:
    """Playwright and a launched chromium for the ``with`` block (one test module's)."""
    playwright = start_playwright()
    try:
        instance = launch(playwright)
        try:
            yield instance
        finally:
            instance.close()
    finally:
        playwright.stop()


@dataclass
class RequestRecorder:
    """Sees every request a page makes; lets local ones through, blocks the rest."""

    allowed: list[str] = field(default_factory=list)
    blocked: list[str] = field(default_factory=list)
    seen: list[str] = field(default_factory=list)  # page.on("request"): routed or not

    def attach(self, page: Page) -> None:
        page.route("**/*", self._route)
        page.on("request", self._request)

    def _route(self, route: Route) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            self.allowed.append(url)
            route.continue_()
        else:
            self.blocked.append(url)
            route.abort()

    def _request(self, request: Request) -> None:
        self.seen.append(request.url)

    def foreign(self) -> list[str]:
        """Every request that was not for a file: or data: URL."""
        urls = [*self.blocked, *self.seen]
        return sorted({u for u in urls if not u.startswith(("file:", "data:"))})


def artifact_dir() -> Path:
    folder = Path(os.environ.get("COMMITDIGEST_ARTIFACTS") or ROOT / "test-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder
