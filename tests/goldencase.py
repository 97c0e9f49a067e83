"""A golden case as its folder declares it, the commands it runs, and its option set.

``tests/golden/README.md`` describes the format; ``tests/test_golden.py`` runs the cases.
A case folder holds ``case.py`` (the repositories, the command and its options) and, for a
config-driven ``run``, the ``commitdigest.toml`` it reads. The harness builds the
repositories under a temporary folder, runs the commands there (the working folder, so a
config file's relative paths resolve against it) and keeps what they wrote.
"""

from __future__ import annotations

import contextlib
import importlib.util
import re
import threading
import tomllib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from fake_openai import Behaviour, FakeOpenAI, RecordedRequest, answer, invalid_json
from gitfixture import init_repo

import commitdigest
from commitdigest.analysis.llm.prompt import DATA_OPEN

GOLDEN = Path(__file__).parent / "golden"
COMMANDS = ("report", "weekly", "run")
CONFIG_FILE = "commitdigest.toml"
OPTIONS_FILE = "options.txt"  # the case's option set, one line, kept like an expected file
# Options and settings whose value chooses what is made (a format, an analyser, a layout, a
# channel); every other value is data (a day, a zone, a language, a path) and is left out
# of a case's option set.
CHOICES = frozenset(
    {"--format", "--analyser", "formats", "run.reports", "analysis.analyser", "deliver[].type"}
)
FLAGS = frozenset(
    {"--overview", "--no-overview", "--radar", "--no-radar", "--deliver", "--dry-run"}
)

Builder = Callable[[Path], None]

# ---- what every run differs in: the generation time, the temporary folder, the version ----

STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
VOLATILE = [  # (pattern, replacement): what differs between two runs of the same case
    (re.compile(r'"generated_at": "[^"]*"'), '"generated_at": "<generated>"'),
    (re.compile(rf"^(> [^:\n]*: ){STAMP}( \(UTC\))$", re.M), r"\1<generated>\2"),
    (re.compile(rf"^(> [^：\n]*：){STAMP}(（UTC）)$", re.M), r"\1<generated>\2"),
    # the HTML page: "Generated at: … (UTC)" / "生成时间：…（UTC）"
    (
        re.compile(rf"((?:Generated at: |生成时间：)){STAMP}((?: \(UTC\)|（UTC）))"),
        r"\1<generated>\2",
    ),
    # the weekly digest: "Generated at …" / "生成于 …", with no zone
    (re.compile(rf"((?:Generated at |生成于 ?)){STAMP}"), r"\1<generated>"),
]
PAGE_ASSETS = [  # (pattern, replacement): the HTML page's inlined assets, not its content
    (re.compile(r"(<style>).*?(</style>)", re.S), r"\1<stylesheet>\2"),
    (re.compile(r"(<script>).*?(</script>)", re.S), r"\1<script>\2"),
    (re.compile(r'(http-equiv="Content-Security-Policy" content=")[^"]*(")'), r"\1<policy>\2"),
]


def normalise(text: str, tmp: Path | None = None) -> str:
    """``text`` with the generation time, the case's temporary folder and the package's
    version replaced by placeholders."""
    for pattern, replacement in VOLATILE:
        text = pattern.sub(replacement, text)
    if tmp is not None:
        text = text.replace(tmp.as_posix(), "<tmp>")
    return text.replace(commitdigest.__version__, "<version>")


def normalise_page(text: str, tmp: Path | None = None) -> str:
    for pattern, replacement in PAGE_ASSETS:
        text = pattern.sub(replacement, text)
    return normalise(text, tmp)


# ---- the case ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """What ``tests/golden/<name>/`` declares (see tests/golden/README.md)."""

    name: str
    folder: Path
    command: str = "report"
    args: tuple[str, ...] = ()
    repos: Mapping[str, Builder] = field(default_factory=dict)
    origin: str | None = None
    html: bool = False
    downstream: Mapping[str, str] | None = None
    chat: str | None = None
    llm: Mapping[str, Mapping[str, Any] | None] | None = None
    llm_overview: Mapping[str, Any] | None = None
    outputs: tuple[str, ...] = ("**/*",)

    @property
    def config(self) -> str | None:
        """The text of the case's ``commitdigest.toml``, if it has one."""
        path = self.folder / CONFIG_FILE
        return path.read_text(encoding="utf-8") if path.is_file() else None

    def out_dir(self, work: Path) -> Path:
        """Where the case's command writes its reports."""
        if self.command == "run":
            settings = tomllib.loads(self.config or "")
            return work / settings.get("output_dir", "reports")
        return work / "out"


def load_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"golden_{name}", GOLDEN / name / "case.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_case(name: str) -> Case:
    m = load_module(name)
    command = getattr(m, "COMMAND", "report")
    assert command in COMMANDS, f"{name}: COMMAND must be one of {COMMANDS}, not {command!r}"
    repos = getattr(m, "REPOS", None) or {name: m.build}
    case = Case(
        name=name,
        folder=GOLDEN / name,
        command=command,
        args=tuple(m.ARGS),
        repos=repos,
        origin=getattr(m, "ORIGIN", None),
        html=getattr(m, "HTML", False),
        downstream=getattr(m, "DOWNSTREAM", None),
        chat=getattr(m, "CHAT", None),
        llm=getattr(m, "LLM", None),
        llm_overview=getattr(m, "LLM_OVERVIEW", None),
        outputs=tuple(getattr(m, "OUTPUTS", ("**/*",))),
    )
    if command == "run":
        assert case.config is not None, f"{name}: a run case reads its {CONFIG_FILE}"
    return case


def case_names() -> list[str]:
    return sorted(p.name for p in GOLDEN.iterdir() if (p / "case.py").is_file())


# ---- the commands it runs ----------------------------------------------------------------


def commands(case: Case, work: Path) -> list[list[str]]:
    """The command lines the case runs, in order, in the working folder ``work``."""
    argv = [case.command]
    if case.command == "run":
        argv += list(case.args)
    else:
        argv += [str(work / name) for name in case.repos]
        if "--tz" not in case.args:
            argv += ["--tz", "UTC"]
        if "--format" not in case.args:
            argv += ["--format", "md,json,html" if case.html else "md,json"]
        argv += ["--out", str(case.out_dir(work)), *case.args]
    if case.downstream and case.command != "run":  # a run's config names its checkout
        argv += ["--downstream", str(work / "downstream")]
    lines = [argv]
    if case.chat:
        config, review = str(work / "deliver.toml"), str(work / "review")
        day = dict(parse_options(list(case.args))).get("--date")
        assert day, f"{case.name}: a chat payload is the one of the day of --date"
        lines.append(["deliver", "--config", config, "--date", day, "--dry-run", "--out", review])
    return lines


def deliver_config(case: Case, work: Path) -> str:
    """The settings ``deliver --dry-run`` reads: the case's own (a run's), else the report's
    folder, and the case's ``[[deliver]]`` entries."""
    base = case.config or (f'timezone = "UTC"\noutput_dir = "{case.out_dir(work).as_posix()}"\n')
    return f"{base}\n{case.chat}"


# ---- its option set ------------------------------------------------------------------------


def parse_options(argv: list[str]) -> list[tuple[str, str | None]]:
    """``argv``'s options as (name, value); positional arguments are left out."""
    out: list[tuple[str, str | None]] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        value = argv[i + 1] if i + 1 < len(argv) else None
        if token.startswith("--") and token not in FLAGS and value and not value.startswith("--"):
            out.append((token, argv[i + 1]))
            i += 2
            continue
        if token.startswith("--"):
            out.append((token, None))
        i += 1
    return out


def settings_keys(value: Any, prefix: str = "") -> list[tuple[str, Any]]:
    """A TOML document's settings as (dotted key, value); the entries of an array of tables
    share a key (``repositories[].name``)."""
    if isinstance(value, dict):
        return [
            pair
            for key, item in value.items()
            for pair in settings_keys(item, f"{prefix}.{key}" if prefix else key)
        ]
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [pair for item in value for pair in settings_keys(item, f"{prefix}[]")]
    return [(prefix, value)]


def shown(key: str, value: Any) -> str:
    if key not in CHOICES or value is None:
        return key
    text = ",".join(value) if isinstance(value, list) else str(value)
    return f"{key}={text}"


def option_set(case: Case) -> str:
    """What the case varies, as one line: each command with its options (and a run's
    settings, and the channels of a chat payload), with the values of ``CHOICES`` only."""
    work = Path("/work")
    parts: list[str] = []
    for argv in commands(case, work):
        options = sorted({shown(k, v) for k, v in parse_options(argv[1:]) if k != "--config"})
        if argv[0] == "run":
            settings = tomllib.loads(case.config or "")
            options += sorted({f"{CONFIG_FILE}:{shown(k, v)}" for k, v in settings_keys(settings)})
        if argv[0] == "deliver":
            types = sorted({entry["type"] for entry in tomllib.loads(case.chat or "")["deliver"]})
            options.append("deliver[].type=" + ",".join(types))
        parts.append(" ".join([argv[0], *options]))
    if case.llm is not None:
        parts[0] += " (scripted LLM)"
    return " | ".join(parts)


# ---- the scripted LLM ------------------------------------------------------------------------

LLM_MODEL = "scripted-model"


class ScriptedLLM:
    """Answers the fake OpenAI server's requests from a case's script: a commit's analysis
    by its title (``None``: an unusable reply every time, so the rules step in), the
    overview as written. A request the script does not answer is recorded and refused."""

    def __init__(
        self, analyses: Mapping[str, Mapping[str, Any] | None], overview: Mapping[str, Any] | None
    ) -> None:
        self.analyses = analyses
        self.overview = overview
        self.unscripted: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, request: RecordedRequest) -> Behaviour:
        prompt = request.prompt
        if DATA_OPEN in prompt:
            titles = sorted((t for t in self.analyses if t in prompt), key=len, reverse=True)
            if titles:
                reply = self.analyses[titles[0]]
                return invalid_json() if reply is None else answer(dict(reply))
        elif "commit_analyses" in prompt and self.overview is not None:
            return answer(dict(self.overview))
        with self.lock:
            self.unscripted.append(prompt[:200])
        return invalid_json()


@contextlib.contextmanager
def llm_env(case: Case) -> Iterator[tuple[dict[str, str], ScriptedLLM | None]]:
    """The environment that points the LLM analyser at the case's scripted server (none
    without a script)."""
    if case.llm is None:
        yield {}, None
        return
    script = ScriptedLLM(case.llm, case.llm_overview)
    with FakeOpenAI(handler=script) as server:
        yield (
            {
                "OPENAI_BASE_URL": server.base_url,
                "OPENAI_API_KEY": "sk-golden",
                "COMMITDIGEST_LLM__MODEL": LLM_MODEL,
                "COMMITDIGEST_LLM__MAX_ATTEMPTS": "2",
                "COMMITDIGEST_LLM__MAX_CONCURRENCY": "1",
            },
            script,
        )


# ---- building the case's world --------------------------------------------------------------


def build(case: Case, work: Path) -> None:
    """The case's repositories, downstream checkout and settings under ``work``."""
    for name, builder in case.repos.items():
        init_repo(work / name, origin=case.origin)
        builder(work / name)
    for path, text in (case.downstream or {}).items():
        target = work / "downstream" / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if case.config is not None:
        (work / CONFIG_FILE).write_text(case.config, encoding="utf-8")
    if case.chat:
        (work / "deliver.toml").write_text(deliver_config(case, work), encoding="utf-8")


LINKS = {  # a report's links to a file or an anchor: Markdown's, and a page's
    ".md": re.compile(r"(?<!\\)\]\(([^)\s]+)\)"),
    ".html": re.compile(r'href="([^"]+)"'),
}


def dangling_links(out: Path) -> list[str]:
    """The relative links of the reports under ``out`` whose file, or anchor in it, is not
    there (``<report>: <link>``); web addresses are not followed."""
    dangling: list[str] = []
    for path in sorted(p for p in out.rglob("*") if p.suffix in LINKS and p.is_file()):
        text = path.read_text(encoding="utf-8")
        for link in LINKS[path.suffix].findall(text):
            if ":" in link.split("#", 1)[0]:  # https:, mailto:, javascript:
                continue
            file, _, anchor = link.partition("#")
            target = (path.parent / file) if file else path
            found = target.is_file() and (
                not anchor or f'id="{anchor}"' in target.read_text(encoding="utf-8")
            )
            if not found:
                dangling.append(f"{path.relative_to(out).as_posix()}: {link}")
    return dangling


def expected_name(rel: Path, single: bool) -> str:
    """The file of the case folder that keeps the output ``rel``: ``expected.<ext>`` when
    the command wrote one report, else ``expected/<path>``."""
    if single:
        return "expected" + rel.suffix
    return f"expected/{rel.as_posix()}"


def collect(case: Case, out: Path, work: Path) -> dict[str, str]:
    """The outputs the case compares, by the name of their expected file."""
    files = sorted(
        {p for pattern in case.outputs for p in out.glob(pattern) if p.is_file()},
        key=lambda p: p.relative_to(out).as_posix(),
    )
    rels = [p.relative_to(out) for p in files]
    single = len({r.stem for r in rels}) == 1 and all(len(r.parts) == 1 for r in rels)
    got: dict[str, str] = {}
    for path, rel in zip(files, rels, strict=True):
        text = path.read_text(encoding="utf-8")
        page = path.suffix == ".html"
        got[expected_name(rel, single)] = (
            normalise_page(text, work) if page else normalise(text, work)
        )
    return got
