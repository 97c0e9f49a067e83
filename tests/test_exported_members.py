"""The public library API: every exported name exists, is documented, and the set is known."""

from __future__ import annotations

import subprocess
import sys

import commitdigest

EXPECTED = {
    "__version__",
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
    "find_config",
    "generate_reports",
    "load_settings",
    "plan_windows",
    "render_file",
    "run_job",
}


def test_all_is_the_expected_set() -> None:
    assert set(commitdigest.__all__) == EXPECTED
    assert len(commitdigest.__all__) == len(EXPECTED)  # no duplicates


def test_every_exported_member_exists_and_is_documented() -> None:
    for name in commitdigest.__all__:
        member = getattr(commitdigest, name)
        if name == "__version__":
            assert isinstance(member, str)
            continue
        assert member.__module__.startswith("commitdigest."), name
        doc = member.__doc__  # its own, not inherited from a base class
        assert doc and doc.strip(), f"{name} has no docstring"


def test_unknown_name_is_an_attribute_error() -> None:
    try:
        commitdigest.no_such_member  # noqa: B018
    except AttributeError as exc:
        assert "no_such_member" in str(exc)
    else:
        raise AssertionError("expected AttributeError")


def test_import_commitdigest_is_cheap() -> None:
    code = (
        "import sys, commitdigest; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "{'pydantic', 'openai', 'jinja2', 'markdown_it', 'httpx2', 'pydantic_settings'}"
        " or m.startswith('commitdigest.')"
        " and m not in ('commitdigest.version', 'commitdigest._version')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
