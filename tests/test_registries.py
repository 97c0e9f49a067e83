"""One registration per extension point (ARCHITECTURE.md, "Where to add").

An analyser is registered by a plugin's ``register_analysers`` hook, the built-in ones
included (:mod:`commitdigest.analysis.analysers`); a channel type by ``channel_type`` on its
settings model, its name written once, in the model's ``type`` literal
(:mod:`commitdigest.config.channels`), and its sender by ``deliver.channels.register``.
"""

from __future__ import annotations

import ast
import sys
import types
from pathlib import Path
from typing import Any, Literal, get_args

import pytest
from pydantic import TypeAdapter

from commitdigest.analysis import analysers as registry
from commitdigest.analysis.analysers import AnalyserRequest, Built, Registry, build_analyser
from commitdigest.analysis.default_analysers import AsyncRuleAnalyser
from commitdigest.analysis.llm.scripted import ScriptedChatClient
from commitdigest.config import LLMSettings
from commitdigest.config import channels as config_channels
from commitdigest.config.channels import (
    CHANNEL_TYPES,
    CHANNELS,
    ChannelConfig,
    ChannelSettings,
    channel_type,
    type_name,
)
from commitdigest.deliver import channels as deliver
from commitdigest.errors import UsageError

SRC = Path(__file__).resolve().parents[1] / "src" / "commitdigest"


# ---- analysers ----------------------------------------------------------------------


def test_the_built_in_analysers_come_through_the_plugin_hook() -> None:
    assert list(registry.analysers())[:2] == ["rules", "llm"]
    alone = Registry(plugins=(), group=None)  # no plugin: no analyser, built-in or not
    assert alone.entries() == {}
    with pytest.raises(UsageError, match=r"unknown analyser 'rules': choose from $"):
        alone.build("rules", AnalyserRequest(LLMSettings()))


def test_the_registry_builds_the_analyser_a_name_chooses() -> None:
    rules = build_analyser("rules", AnalyserRequest(LLMSettings()))
    assert isinstance(rules.analyser, AsyncRuleAnalyser)
    assert rules.client is None and rules.owned is None
    client = ScriptedChatClient([])
    llm = build_analyser("llm", AnalyserRequest(LLMSettings(), client))
    assert llm.analyser.id == "llm"
    assert llm.client is client and llm.owned is None  # a given client is the caller's
    with pytest.raises(UsageError, match=r"unknown analyser 'nope': choose from rules, llm"):
        build_analyser("nope", AnalyserRequest(LLMSettings()))


def test_a_plugin_module_and_an_entry_point_register_through_the_same_hook(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def hook(name: str) -> types.ModuleType:
        module = types.ModuleType(f"plugin_{name}")

        def register_analysers(register: registry.Register) -> None:
            register(name, lambda request: Built(AsyncRuleAnalyser()), about=f"the {name}")

        module.register_analysers = register_analysers  # type: ignore[attr-defined]
        return module

    class Point:
        def load(self) -> types.ModuleType:
            return hook("installed")

    monkeypatch.setitem(sys.modules, "plugin_listed", hook("listed"))
    seen: list[str] = []

    def points(*, group: str) -> list[Point]:
        seen.append(group)
        return [Point()]

    monkeypatch.setattr(registry, "entry_points", points)
    mine = Registry(plugins=(*registry.DEFAULT_PLUGINS, "plugin_listed"))
    assert list(mine.entries()) == ["rules", "llm", "listed", "installed"]
    assert seen == ["commitdigest.analysers"]
    assert mine.entries()["installed"].about == "the installed"
    assert isinstance(
        mine.build("listed", AnalyserRequest(LLMSettings())).analyser, AsyncRuleAnalyser
    )
    with pytest.raises(ValueError, match="'listed' is already registered"):
        mine.register("listed", lambda request: Built(AsyncRuleAnalyser()), about="again")


def test_the_analyser_protocol_lives_with_the_registry() -> None:
    """One protocol, in ``analysis/analysers.py``: no stage defines its own."""
    wrong = [
        f"{path.relative_to(SRC)}: defines {node.name}"
        for path in sorted(SRC.rglob("*.py"))
        if path.name != "analysers.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef) and node.name in {"CommitAnalyser", "Analyser"}
    ]
    assert wrong == []


# ---- channels -----------------------------------------------------------------------


def written_names(source: str, names: set[str]) -> list[str]:
    """Where ``source`` writes one of ``names`` as a string outside a ``Literal[...]``."""
    tree = ast.parse(source)
    in_literal = {
        id(const)
        for node in ast.walk(tree)
        if isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Literal"
        for const in ast.walk(node.slice)
    }
    return [
        f"{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and node.value in names and id(node) not in in_literal
    ]


def test_a_channel_type_name_is_written_once() -> None:
    """In its settings model's ``type`` literal: the config union, the types' tuple, the
    sender modules and the senders' registry read it from :data:`CHANNELS`."""
    names = set(CHANNELS)
    wrong = {
        str(path.relative_to(SRC)): found
        for path in [SRC / "config" / "channels.py", *sorted((SRC / "deliver").glob("*.py"))]
        if (found := written_names(path.read_text(encoding="utf-8"), names))
    }
    assert wrong == {}
    literals = [type_name(t.settings) for t in CHANNELS.values()]
    assert literals == list(CHANNELS) == list(CHANNEL_TYPES)
    assert len(literals) == 8


def test_the_name_checker_reports_a_second_writing() -> None:
    source = (
        'class Feishu:\n    type: Literal["feishu"]\n\n'
        '_MODULES = {"feishu": "commitdigest.deliver.chat_cn"}\n'
    )
    assert written_names(source, {"feishu"}) == ["4: 'feishu'"]


def test_the_config_union_and_the_senders_come_from_the_registry() -> None:
    (union, *_) = get_args(ChannelConfig)
    assert get_args(union) == tuple(t.settings for t in CHANNELS.values())
    for name, entry in CHANNELS.items():
        sender = deliver.channel_class(name)
        assert sender.__module__ == entry.sender, name
    with pytest.raises(ValueError, match="unknown channel type 'pager'"):
        deliver.channel_class("pager")


def test_a_new_channel_type_registers_its_settings_and_its_sender(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = dict(CHANNELS)  # the registries as they are, restored after the test
    monkeypatch.setattr(config_channels, "CHANNELS", table)
    monkeypatch.setattr(deliver, "CHANNELS", table)
    monkeypatch.setattr(deliver, "_REGISTRY", dict(deliver._REGISTRY))
    module = types.ModuleType("plugin_pager")
    monkeypatch.setitem(sys.modules, "plugin_pager", module)

    @channel_type(sender="plugin_pager")
    class PagerChannel(ChannelSettings):
        type: Literal["pager"]

    def load() -> None:  # what importing the sender module does
        @deliver.register(PagerChannel)
        class PagerSender(deliver.Channel):
            def prepare(self, job: Any) -> Any: ...

            async def send(self, message: Any) -> None: ...

        module.PagerSender = PagerSender  # type: ignore[attr-defined]

    load()
    assert deliver.channel_class("pager").__name__ == "PagerSender"
    with pytest.raises(ValueError, match="'pager' is already registered"):
        channel_type(sender="plugin_pager")(PagerChannel)
    assert TypeAdapter(PagerChannel).validate_python({"name": "p", "type": "pager"}).type == "pager"
