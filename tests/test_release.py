"""Releases: the version comes from git tags, and `python -m build` makes a wheel and an
sdist that carry every template, prompt and asset; the wheel, installed in a fresh virtual
environment, runs the main job. Offline: the build uses the installed build backend and
the venv sees the already installed dependencies (never the package index)."""

from __future__ import annotations

import site
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from gitfixture import CommitSpec, build_repo

import commitdigest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "src" / "commitdigest"
ASSETS = (".j2", ".js", ".css", ".md", ".typed")


def shipped_assets() -> set[str]:
    """Every non-Python file of the package as the wheel names it."""
    return {
        "commitdigest/" + p.relative_to(PACKAGE).as_posix()
        for p in PACKAGE.rglob("*")
        if p.is_file() and p.suffix in ASSETS and "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--wheel", "--sdist", "--outdir",
         str(out), str(ROOT)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return out


def test_the_version_comes_from_git() -> None:
    version = commitdigest.__version__
    assert version and version != "0.0.0+unknown"
    assert (PACKAGE / "_version.py").is_file()  # written by setuptools-scm, not in git
    tracked = subprocess.run(
        ["git", "ls-files", "src/commitdigest/_version.py"], cwd=ROOT, capture_output=True,
        text=True,
    )  # fmt: skip
    assert tracked.stdout.strip() == ""


def test_the_wheel_and_sdist_carry_every_asset(dist: Path) -> None:
    (wheel,) = dist.glob("commitdigest-*.whl")
    (sdist,) = dist.glob("commitdigest-*.tar.gz")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = shipped_assets() - names
    assert missing == set(), sorted(missing)
    assert "commitdigest/_version.py" in names
    with tarfile.open(sdist) as archive:
        members = {m.name.split("/", 1)[1] for m in archive.getmembers() if "/" in m.name}
    assert {"pyproject.toml", "README.md", "action.yml"} <= members
    assert "src/commitdigest/site/templates/search.js" in members


def see_the_dependencies_of_this_environment(python: Path) -> None:
    """Let the venv of ``python`` import what the environment running the tests has
    installed — the system Python's, a virtualenv's, the user's site-packages — after its
    own (pipx-style isolation, and no package index needed). A path line in a ``.pth`` file
    adds the folder without running its own ``.pth`` files, so this checkout's editable
    install stays invisible: only the wheel's copy of commitdigest can be imported."""
    folders = [*site.getsitepackages()]
    if site.ENABLE_USER_SITE:
        folders.append(site.getusersitepackages())
    seen = [f for f in dict.fromkeys(folders) if Path(f).is_dir()]
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True,
    ).stdout.strip()  # fmt: skip
    (Path(purelib) / "_tests_environment.pth").write_text(
        "".join(f"{folder}\n" for folder in seen), encoding="utf-8"
    )


def test_the_wheel_runs_the_main_job_in_a_fresh_venv(dist: Path, tmp_path: Path) -> None:
    (wheel,) = dist.glob("commitdigest-*.whl")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    bindir = venv / "bin"
    see_the_dependencies_of_this_environment(bindir / "python")
    done = subprocess.run(
        [str(bindir / "python"), "-m", "pip", "install", "--no-deps", "--no-index", "--quiet",
         "--disable-pip-version-check", str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    where = subprocess.run(
        [str(bindir / "python"), "-c", "import commitdigest; print(commitdigest.__file__)"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert str(venv) in where.stdout  # the wheel's copy, not the checkout's
    repo = tmp_path / "repo"
    build_repo(repo, [CommitSpec("feat: first (#1)", "2026-03-02T10:00:00+00:00",
                                 files={"src/a.py": "A = 1\n"})])  # fmt: skip
    out = tmp_path / "out"
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "HOME": str(tmp_path),
           "COMMITDIGEST_HOME": str(tmp_path / "home")}  # fmt: skip
    run = subprocess.run(
        [str(bindir / "commitdigest"), "report", str(repo), "--date", "2026-03-02", "--tz",
         "UTC", "--format", "md,json,html", "--out", str(out)],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "feat: first (#1)" in (out / "2026-03-02.md").read_text(encoding="utf-8")
    site = subprocess.run(
        [str(bindir / "commitdigest"), "site", "--reports", str(out), "--out",
         str(tmp_path / "site")],
        capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert site.returncode == 0, site.stderr
    assert (tmp_path / "site" / "search.js").is_file()
    version = subprocess.run([str(bindir / "commitdigest"), "--version"], capture_output=True,
                             text=True, env=env)  # fmt: skip
    built = wheel.name.split("-")[1]  # the wheel's own version, from git at build time
    assert version.stdout.strip() == f"commitdigest {built}"
