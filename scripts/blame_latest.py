"""Name the package whose newest version broke the tests (``.ci/run`` calls it after
``scripts/test --latest`` failed where the locked versions passed).

Run by the Python of the environment that has the newest versions installed. It lists
the packages whose installed version differs from ``requirements/test.lock``, puts the
locked versions back, then upgrades one of them at a time and reruns only the tests that
failed (pytest's ``--last-failed`` record). For each package that alone makes them fail it
prints one line::

    latest: pytest 9.3.0 (locked 9.2.0) breaks 2 tests, first tests/test_x.py::test_y [test-only]

Exit status: 1 when a runtime dependency of commitdigest is to blame, or when no single
package explains the failure (users who ``pip install commitdigest`` today get that version:
it blocks); 0 when only test tools are to blame (the lock keeps every contributor and CI on
the versions that pass; move the lock once the tests are fixed).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "test.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([^\s;\\]+)")


def locked() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in LOCK.read_text(encoding="utf-8").splitlines():
        match = PIN.match(line)
        if match:
            pins[canonicalize_name(match.group(1))] = match.group(2)
    return pins


def installed() -> dict[str, str]:
    return {
        canonicalize_name(dist.metadata["Name"]): dist.version
        for dist in metadata.distributions()
        if dist.metadata["Name"]
    }


def runtime_closure() -> set[str]:
    """commitdigest's runtime dependencies, transitively, as installed here."""
    env = {**default_environment(), "extra": ""}
    todo, seen = ["commitdigest"], set[str]()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.requires(name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in requires:
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate(env):
                todo.append(canonicalize_name(req.name))
    seen.discard("commitdigest")
    return seen


def last_failed() -> list[str]:
    record = ROOT / ".pytest_cache" / "v" / "cache" / "lastfailed"
    try:
        return sorted(json.loads(record.read_text(encoding="utf-8")))
    except (OSError, ValueError):
        return []


def pip(*args: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
    )
    return done.returncode == 0


def tests_pass(tests: list[str]) -> bool:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *tests],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return done.returncode == 0


def main() -> int:
    tests = last_failed()
    pins = locked()
    now = installed()
    runtime = runtime_closure()
    moved = {name: version for name, version in now.items() if pins.get(name, version) != version}
    if not tests:
        print("latest: the tests failed, but pytest recorded no failed test to rerun")
        return 1
    if not moved:
        print("latest: the tests failed with the same versions as the lock (a flaky test?)")
        return 1
    to_blame: list[str] = []
    blocking = False
    for name, version in sorted(moved.items()):
        if not pip("--require-hashes", "-r", str(LOCK)):
            print("latest: could not put the locked versions back to find the culprit")
            return 1
        if not pip(f"{name}=={version}"):
            continue
        if tests_pass(tests):
            continue
        role = "runtime" if name in runtime else "test-only"
        blocking = blocking or role == "runtime"
        to_blame.append(name)
        print(
            f"latest: {name} {version} (locked {pins[name]}) breaks {len(tests)} test(s), "
            f"first {tests[0]} [{role}]"
        )
    pip("--upgrade", "--upgrade-strategy", "eager", "-e", f"{ROOT}[test]")  # as it was
    if not to_blame:
        listed = ", ".join(f"{n} {pins[n]}→{v}" for n, v in sorted(moved.items()))
        print(f"latest: no single upgraded package explains the failure (moved: {listed})")
        return 1
    return 1 if blocking else 0


if __name__ == "__main__":
    sys.exit(main())
