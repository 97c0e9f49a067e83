"""The LLM-made daily overview: one call per repository and day, over the day's analyses.

:func:`build_overview_prompt` lays the items out for the model (templates
``prompts/v1/overview.{zh,en}.j2``) within an input budget in
:func:`~commitdigest.analysis.llm.tokens.estimate_tokens` units. When all of it does not fit,
it degrades step by step, and says so in the prompt: low-importance commits by title only;
medium ones too; every commit by title only; then the least important titles left out.
Commit and analyser text sits inside a ``<commit_analyses>`` block, one cleaned line per
field, with that block's tags neutralised: data, not instructions.

:func:`llm_overview` asks for JSON (:class:`OverviewReply`, lenient: a string is a one-item
list, extra items are dropped) through the one call engine (:mod:`.engine`) and never raises
for an LLM failure: the endpoint unavailable, an invalid reply twice (the second request says
what was wrong), ``finish_reason == "length"`` twice (the retry has twice the room), a
refused request or a prompt too long for the context twice (the retry has half the input
budget). It then returns the rule-made overview with status ``fallback`` and the reason as
``notes[0]``. :class:`LLMAuthError` propagates.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pydantic import (
    AliasChoices,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from commitdigest.analysis.llm.chat import ChatClient
from commitdigest.analysis.llm.engine import (
    Caller,
    CallFailed,
    CallSpec,
    LLMOptions,
    PromptTooLarge,
    ReplyForm,
    Tally,
    describe_reply_error,
)
from commitdigest.analysis.llm.extract import extract_json_object, strip_think
from commitdigest.analysis.llm.prompt import prompt_environment
from commitdigest.analysis.llm.schema import normalise_keys
from commitdigest.analysis.llm.tokens import TokenCalibration, estimate_tokens
from commitdigest.analysis.overview import (
    MAX_ITEMS,
    OverviewItem,
    known_refs_only,
    overview_data,
    rule_overview,
)
from commitdigest.config.settings import LLMSettings
from commitdigest.models import IMPORTANCE_ORDER, AnalysisStatus, Importance, Overview, Usage
from commitdigest.text import strip_controls

log = logging.getLogger(__name__)

OVERVIEW_PROMPT_VERSION = "overview-v1"
"""Names the prompt templates and reply handling, for cache keys: bump when either changes."""
DEFAULT_INPUT_BUDGET = 16_000
"""Estimated tokens of the whole prompt (system and user message)."""
SUMMARY_CHARS = 800  # a summary longer than this is cut (input only: the reply is never cut)
RISK_CHARS = 300
RISKS_PER_COMMIT = 3
TITLE_CHARS = 200
DATA_TAG = "commit_analyses"

_TAG_RE = re.compile(rf"<(/?)\s*{DATA_TAG}", re.IGNORECASE)

REPLY_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        key: {"type": "array", "items": {"type": "string"}, "maxItems": MAX_ITEMS}
        for key in ("themes", "key_changes", "risks")
    },
    "required": ["themes", "key_changes", "risks"],
    "additionalProperties": False,
}


_REPLY_ALIASES = {"theme": "themes", "keychange": "key_changes", "changes": "key_changes",
                  "risk": "risks"}  # fmt: skip


class OverviewReply(BaseModel):
    """The model's reply. Lenient: keys in any case, ``null`` is an empty list, a string a
    one-item list, a reasoning block left in an item is dropped, blank items are dropped,
    items beyond :data:`MAX_ITEMS` too (never cut mid-text)."""

    model_config = ConfigDict(extra="ignore")

    themes: list[str] = Field(default_factory=list)
    key_changes: list[str] = Field(
        default_factory=list,
        validation_alias=AliasChoices("key_changes", "keyChanges", "key changes"),
    )
    risks: list[str] = Field(default_factory=list)

    @model_validator(mode="before")
    @classmethod
    def _keys(cls, data: object) -> object:
        return normalise_keys(data, cls.model_fields, _REPLY_ALIASES)

    @field_validator("themes", "key_changes", "risks", mode="before")
    @classmethod
    def _lenient(cls, value: object) -> object:
        if value is None:
            return []
        if isinstance(value, str):
            value = [value]
        if not isinstance(value, list):
            return value  # pydantic rejects it
        kept = [strip_think(v).strip() if isinstance(v, str) else v for v in value]
        return [v for v in kept if v != ""][:MAX_ITEMS]


def parse_overview_reply(text: str) -> OverviewReply:
    """The reply in ``text``; :class:`ValueError` with a short reason when there is none."""
    reply = OverviewReply.model_validate(extract_json_object(text))
    if not (reply.themes or reply.key_changes or reply.risks):
        raise ValueError("the reply lists nothing")
    return reply


@dataclass(frozen=True)
class OverviewPrompt:
    messages: list[dict[str, str]]
    estimated_tokens: int
    detailed: int  # commits given in full
    titled: int  # commits given by title only
    omitted: int  # commits not listed
    notes: list[str] = field(default_factory=list)  # what was cut, for Overview.notes


def _macros(lang: str) -> Any:
    name = "overview.zh.j2" if lang == "zh" else "overview.en.j2"
    return prompt_environment().get_template(name).module


def _line(text: str, limit: int) -> str:
    """One line of data: controls and runs of whitespace collapsed, cut to ``limit``
    characters, the data block's tags neutralised."""
    text = _TAG_RE.sub(lambda m: f"‹{m.group(1)}{DATA_TAG}", strip_controls(text))
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _entry(item: OverviewItem) -> dict[str, Any]:
    risks = [r for r in (_line(r, RISK_CHARS) for r in item.risks) if r]
    return {
        "sha": _line(item.short_sha, 40),
        "importance": item.importance.value,
        "change_type": item.change_type.value,
        "title": _line(item.title, TITLE_CHARS),
        "summary": _line(item.summary, SUMMARY_CHARS),
        "risks": risks[:RISKS_PER_COMMIT],
    }


def _render(
    lang: str,
    repository: str,
    label: str,
    ordered: Sequence[OverviewItem],
    full_levels: frozenset[Importance],
    keep: int,
) -> OverviewPrompt:
    shown = ordered[:keep]
    detailed = [_entry(i) for i in shown if i.importance in full_levels]
    titled_items = [i for i in shown if i.importance not in full_levels]
    levels = [
        imp.value for imp in IMPORTANCE_ORDER if any(i.importance == imp for i in titled_items)
    ]
    p = {
        "repository": _line(repository, 200),
        "label": _line(label, 100),
        "tag": DATA_TAG,
        "max_items": MAX_ITEMS,
        "total": len(ordered),
        "counts": {imp.value: sum(1 for i in ordered if i.importance == imp) for imp in Importance},
        "detailed": detailed,
        "titled": [_entry(i) for i in titled_items],
        "titled_levels": levels,
        "omitted": len(ordered) - keep,
    }
    macros = _macros(lang)
    system, user = str(macros.system(p)), str(macros.user(p))
    notes = []
    if titled_items:
        notes.append(
            f"prompt budget: {len(titled_items)} commits ({', '.join(levels)} importance) "
            "sent by title only"
        )
    if keep < len(ordered):
        notes.append(f"prompt budget: {len(ordered) - keep} least important commits not sent")
    return OverviewPrompt(
        messages=[{"role": "system", "content": system}, {"role": "user", "content": user}],
        estimated_tokens=estimate_tokens(system) + estimate_tokens(user),
        detailed=len(detailed),
        titled=len(titled_items),
        omitted=len(ordered) - keep,
        notes=notes,
    )


def build_overview_prompt(
    *,
    repository: str,
    label: str,
    items: Sequence[OverviewItem],
    lang: str,
    budget: int = DEFAULT_INPUT_BUDGET,
) -> OverviewPrompt:
    """The messages for ``items``: the fullest layout whose estimate fits ``budget``.

    Commits are listed high importance first (input order within a level). Steps: all in
    full; low by title; medium too; all by title; then titles dropped from the end (at least
    one commit is always listed, even if that exceeds the budget).
    """
    ordered = sorted(items, key=lambda i: -i.importance.rank)  # stable: input order kept
    n = len(ordered)
    for full in (
        frozenset(Importance),
        frozenset({Importance.HIGH, Importance.MEDIUM}),
        frozenset({Importance.HIGH}),
        frozenset[Importance](),
    ):
        prompt = _render(lang, repository, label, ordered, full, n)
        if prompt.estimated_tokens <= budget:
            return prompt
    lo, hi = 1, n  # titles only: the most commits whose prompt fits (binary search)
    best = _render(lang, repository, label, ordered, frozenset(), 1)
    while lo <= hi:
        mid = (lo + hi) // 2
        candidate = _render(lang, repository, label, ordered, frozenset(), mid)
        if candidate.estimated_tokens <= budget:
            best, lo = candidate, mid + 1
        else:
            hi = mid - 1
    return best


_NOTES = {  # why the overview fell back (technical notes, in English)
    "unavailable": "LLM unavailable: {reason}",
    "refused": "LLM request failed: {reason}",
    "length": "model output cut off (finish_reason=length) {times}, at max_tokens={max_tokens}",
    "invalid_json": "invalid JSON twice: {detail}",
    "too_large": "prompt too long for the model's context, even at half the budget",
}


def _note(failed: CallFailed) -> str:
    n = failed.values.get("n")
    times = "twice" if n == 2 else f"{n} times"
    template = _NOTES.get(failed.kind, _NOTES["invalid_json"])  # schema, unusable: the same
    return template.format(times=times, **failed.values)


def _describe(err: ValueError) -> str:
    if isinstance(err, ValidationError):
        first = err.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "reply"
        return f"reply does not match the schema ({where}: {first['msg']})"
    return describe_reply_error(err)


def _read(text: str) -> OverviewReply:
    try:
        return parse_overview_reply(text)
    except ValueError as err:  # worded for the re-ask and the note
        raise ValueError(_describe(err)) from None


REPLY_FORM = ReplyForm[OverviewReply](REPLY_SCHEMA, "daily_overview", _read)


@dataclass(frozen=True)
class OverviewDay:
    """What an overview is asked for: a repository's ``items`` of the day ``label``."""

    repository: str
    label: str
    items: Sequence[OverviewItem]
    lang: str


def overview_options(model: str, *, max_tokens: int = 1024, **fields: Any) -> LLMOptions:
    """:class:`LLMOptions` for an overview made outside a run (a run passes its analyser's):
    ``max_tokens`` of output (a cut-off reply may double it), temperature 0.2, an input
    budget of :data:`DEFAULT_INPUT_BUDGET` and a context window that fits the output;
    ``fields`` set any other :class:`LLMOptions` field (``temperature``, ``extra_body``,
    ``input_budget_tokens``, the prices…)."""
    context_window = fields.pop(
        "context_window", LLMSettings.model_fields["context_window"].default
    )
    values: dict[str, Any] = {
        "temperature": 0.2,
        "max_output_tokens_cap": max(max_tokens * 2, max_tokens + 512),
        "input_budget_tokens": DEFAULT_INPUT_BUDGET,
        **fields,
    }
    values["input_budget_tokens"] = max(values["input_budget_tokens"], 1)
    values["extra_body"] = dict(values.get("extra_body") or {})
    return LLMOptions(
        model=model,
        max_output_tokens=max_tokens,
        context_window=max(context_window, max_tokens + 512 + 1),
        **values,
    )


async def llm_overview(
    client: ChatClient,
    day: OverviewDay,
    options: LLMOptions,
    *,
    calibration: TokenCalibration | None = None,
) -> Overview:
    """The LLM's overview of ``day.items`` (see the module docstring); an empty day makes no
    call.

    The call goes through the analyser's engine (:class:`Caller`) with the analyses' budget
    rules (``options``, a run's analyser's :class:`LLMOptions`, else
    :func:`overview_options`): the same ``max_tokens``, cap, context window and room for a
    model that reasons; the input budget is at most :data:`DEFAULT_INPUT_BUDGET`. The room
    doubles after a cut-off reply, an unusable reply is re-asked once."""
    repository, label, items, lang = day.repository, day.label, day.items, day.lang
    if not items:
        return rule_overview(items, lang)
    input_budget = min(DEFAULT_INPUT_BUDGET, options.input_budget_tokens)
    tally = Tally()
    caller = Caller(client, options, calibration or TokenCalibration(), tally)

    def correct(reason: str) -> str:
        return str(_macros(lang).fix(_line(reason, 300)))

    budget = input_budget
    for _ in range(2):  # the second time, with half the budget
        prompt = build_overview_prompt(
            repository=repository, label=label, items=items, lang=lang, budget=budget
        )
        spec = CallSpec(
            [(REPLY_FORM, prompt.messages)], label="overview", correct=correct, echo=False
        )
        try:
            outcome = await caller.run(spec)
        except PromptTooLarge:
            budget //= 2
            continue
        except CallFailed as failed:
            return _fallback(items, lang, _note(failed), tally.usage(options), repository, label)
        reply = outcome.output
        # every reference must be one of the day's commits: an item citing another goes
        key_changes = known_refs_only(reply.key_changes, items)
        return Overview.model_validate(
            {
                "themes": known_refs_only(reply.themes, items),
                "key_changes": key_changes,
                "risks": known_refs_only(reply.risks, items),
                "analyser": "llm",
                "notes": prompt.notes,
                "usage": tally.usage(options),
                **overview_data(items, key_changes),
            }
        )
    note = _NOTES["too_large"]
    return _fallback(items, lang, note, tally.usage(options), repository, label)


def _fallback(
    items: Sequence[OverviewItem],
    lang: str,
    reason: str,
    usage: Usage | None,
    repository: str,
    label: str,
) -> Overview:
    """The rule-made overview, status ``fallback`` with ``reason`` as its first note."""
    log.warning("overview of %s (%s): LLM failed, rule-made instead: %s", repository, label, reason)
    base = rule_overview(items, lang)
    return base.model_copy(
        update={"status": AnalysisStatus.FALLBACK, "notes": [reason], "usage": usage}
    )
