"""commitdigest: daily reports of what changed upstream.

The library API, usable without the command line::

    import commitdigest
    from commitdigest.aio import run_sync

    settings = commitdigest.load_settings(None)  # defaults and environment
    windows = commitdigest.plan_windows(on_date="2024-03-02", tz="UTC")
    options = commitdigest.ReportOptions.from_settings(
        settings, repositories=["."], windows=windows
    )
    with commitdigest.Store.open(None) as store:
        outcome = run_sync(commitdigest.generate_reports(options, store))
    print(outcome.paths)

The daily job — what ``commitdigest run`` does: reports of the subscriptions in the
settings file, their delivery, the retries of what failed before, the weekly — is one call::

    settings = commitdigest.load_settings(commitdigest.find_config())
    done = run_sync(commitdigest.run_job(settings, request=commitdigest.RunRequest()))
    print(done.exit_code, [r.status for r in done.deliveries])

Every name is loaded on first use (module ``__getattr__``), so ``import commitdigest``
stays cheap.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from commitdigest.version import __version__

if TYPE_CHECKING:
    from commitdigest.config import Settings, find_config, load_settings
    from commitdigest.errors import (
        BusyError,
        CommitdigestError,
        DeliveryFailed,
        OutputError,
        SourceError,
        StoreError,
        UsageError,
    )
    from commitdigest.models import (
        Analysis,
        Commit,
        FileChange,
        Overview,
        ReportContext,
    )
    from commitdigest.pipeline.job import RunOutcome, RunRequest, run_job
    from commitdigest.pipeline.report import (
        ReportOptions,
        ReportOutcome,
        generate_reports,
        render_file,
    )
    from commitdigest.progress import Progress
    from commitdigest.store import Store
    from commitdigest.window import DayWindow, plan_windows

_WHERE: dict[str, str] = {
    "Analysis": "commitdigest.models",
    "BusyError": "commitdigest.errors",
    "Commit": "commitdigest.models",
    "CommitdigestError": "commitdigest.errors",
    "DayWindow": "commitdigest.window",
    "DeliveryFailed": "commitdigest.errors",
    "FileChange": "commitdigest.models",
    "OutputError": "commitdigest.errors",
    "Overview": "commitdigest.models",
    "Progress": "commitdigest.progress",
    "ReportContext": "commitdigest.models",
    "ReportOptions": "commitdigest.pipeline.report",
    "ReportOutcome": "commitdigest.pipeline.report",
    "RunOutcome": "commitdigest.pipeline.job",
    "RunRequest": "commitdigest.pipeline.job",
    "Settings": "commitdigest.config",
    "SourceError": "commitdigest.errors",
    "Store": "commitdigest.store",
    "StoreError": "commitdigest.errors",
    "UsageError": "commitdigest.errors",
    "find_config": "commitdigest.config",
    "generate_reports": "commitdigest.pipeline.report",
    "load_settings": "commitdigest.config",
    "plan_windows": "commitdigest.window",
    "render_file": "commitdigest.pipeline.report",
    "run_job": "commitdigest.pipeline.job",
}

__all__ = [
    "Analysis",
    "BusyError",
    "Commit",
    "CommitdigestError",
    "DayWindow",
    "DeliveryFailed",
    "FileChange",
    "OutputError",
    "Overview",
    "Progress",
    "ReportContext",
    "ReportOptions",
    "ReportOutcome",
    "RunOutcome",
    "RunRequest",
    "Settings",
    "SourceError",
    "Store",
    "StoreError",
    "UsageError",
    "__version__",
    "find_config",
    "generate_reports",
    "load_settings",
    "plan_windows",
    "render_file",
    "run_job",
]


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'commitdigest' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
