"""The LLM analyser: one commit in, one validated :class:`Analysis` out — or the rules' one.

For each commit:

1. **Plan.** The diff budget is what the input budget (``input_budget_tokens``, and the
   context window less the minimum output room; in estimated tokens via the
   :class:`TokenCalibration`) leaves after the prompt's fixed parts, measured by rendering
   the prompt with an empty file list and diff (the message body is clipped to a fifth of
   the budget first). :func:`plan_diff` splits the diff into at most ``max_chunks`` chunks.
2. **Call.** One chunk: one call. Several: one call per chunk, concurrently (the client's
   rate limiter bounds them), then one merge call given the parts' analyses as JSON. After
   the merge, importance is at least the worst part's and every part's risk is kept. If the
   merge call fails the parts are merged locally; a part that failed has its files listed as
   omitted. Each call is retried as :mod:`.engine` describes.
3. **Shrink.** A request the server (or our estimate) finds too large for the context is
   planned again with half the diff budget, at most :data:`MAX_REPLANS` times.
4. **Fall back.** When no usable answer comes, the rule-based analysis is returned with
   ``status=fallback`` and the reason as its first note.

The commit's own title tags seed the change type (:func:`change_type_from_title`); the model
may override it only with a reason (:func:`~commitdigest.analysis.llm.schema.to_analysis`).
Notes, in the report language, say what was done: parts, merges, compact answers, files the
model never saw (also listed in ``omitted_files``), clipped diffs.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import chain
from typing import Any, TypeVar

from commitdigest.analysis.llm.chat import ChatClient, LLMAuthError, LLMEndpointError
from commitdigest.analysis.llm.engine import (
    Caller,
    CallFailed,
    CallOutcome,
    CallSpec,
    LLMOptions,
    PromptTooLarge,
    ReplyForm,
    Tally,
)
from commitdigest.analysis.llm.extract import extract_json_object
from commitdigest.analysis.llm.language import check_language
from commitdigest.analysis.llm.plan import DiffPlan, ListReason, format_chunk, format_file_list
from commitdigest.analysis.llm.plan import plan_diff as plan_diff
from commitdigest.analysis.llm.prompt import (
    PROMPT_VERSION,
    CommitData,
    clip_text,
    commit_prompt,
    correction_prompt,
    estimate_messages,
    merge_prompt,
    system_prompt,
)
from commitdigest.analysis.llm.schema import (
    COMPACT_SCHEMA,
    FULL_SCHEMA,
    CompactOutput,
    FullOutput,
    count_repairs,
    free_texts,
    to_analysis,
)
from commitdigest.analysis.llm.tokens import TokenCalibration
from commitdigest.analysis.radar.models import items_digest
from commitdigest.analysis.rules import RuleAnalyser
from commitdigest.analysis.tags import change_type_from_title
from commitdigest.i18n import LLM_LISTED_KINDS as _KINDS
from commitdigest.i18n import LLM_NOTES as _TEXT
from commitdigest.models import Analysis, AnalysisStatus, ApiChange, ChangeType, Commit

__all__ = ["MAX_REPLANS", "LLMAnalyser", "LLMOptions"]

log = logging.getLogger(__name__)

MAX_REPLANS = 2  # after the server said "context length exceeded"
BODY_SHARE = 0.2  # of the input budget, at most, for the commit message body
# an upper bound of the re-ask message, kept free in every request
_RESERVE = {"role": "user", "content": correction_prompt("x" * 320)}

T = TypeVar("T")


@dataclass
class AnalyserStats:
    """What the analyser's answers needed in a run (for the run record): repairs by kind
    (:func:`~commitdigest.analysis.llm.schema.count_repairs`, plus ``extracted``: JSON taken
    out of prose, a fence or a reasoning block), unusable replies by kind (each was asked
    again once), and the fallbacks by reason (in English)."""

    repairs: Counter[str] = field(default_factory=Counter)
    unusable: Counter[str] = field(default_factory=Counter)
    fallbacks: Counter[str] = field(default_factory=Counter)

    def as_dict(self) -> dict[str, Any]:
        out = {k: dict(v) for k, v in vars(self).items() if v}
        if self.fallbacks:  # the most frequent reasons only: one line each
            out["fallbacks"] = dict(self.fallbacks.most_common(5))
        return out


def _bare_json(text: str) -> bool:
    """Whether the reply is one JSON object and nothing else."""
    try:
        return isinstance(json.loads(text), dict)
    except ValueError:
        return False


def reader(
    model: type[CompactOutput], lang: str, repairs: Counter[str] | None = None
) -> Callable[[str], CompactOutput]:
    """The reader of an answer in ``model``'s form: JSON out of the reply, validated,
    checked for the report's language (:class:`WrongLanguage`, asked again once), with what
    had to be repaired added to ``repairs``."""

    def read(text: str) -> CompactOutput:
        raw = extract_json_object(text)
        output = model.model_validate(raw)
        check_language(free_texts(output), lang)
        if repairs is not None:
            repairs.update(count_repairs(raw, output))
            repairs["extracted"] += not _bare_json(text)
        return output

    return read


FULL_NAME = "commit_analysis"  # the schema names sent with the two forms
COMPACT_NAME = "commit_analysis_compact"


class LLMAnalyser:
    """Commit -> :class:`Analysis` by an OpenAI-compatible model (see the module docstring).

    :meth:`analyse` never raises for an LLM problem (unavailable, refused, cut off, invalid
    output, too large): it falls back to the rule-based analysis with the reason. What would
    fail every commit propagates, so the pipeline stops with a clear message:
    :class:`~commitdigest.errors.LLMAuthError` (a missing or refused API key) and
    :class:`~commitdigest.errors.LLMEndpointError` (an unreachable URL, an unknown model, a
    refused setting); so do unexpected exceptions (bugs).
    """

    id = "llm"
    uses_focus = True  # the subscription's emphasis changes the prompt (and the cache key)

    def __init__(
        self,
        client: ChatClient,
        options: LLMOptions,
        *,
        fallback: RuleAnalyser | None = None,
        calibration: TokenCalibration | None = None,
    ) -> None:
        self.client = client
        self.options = options
        self.fallback = fallback or RuleAnalyser()
        self.calibration = calibration or TokenCalibration()
        self._gate: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self.stats = AnalyserStats()

    def _ahead(self) -> asyncio.Semaphore:
        """At most twice the client's concurrency of commits being prepared or in flight:
        the others wait here, before building their prompts, so that the first requests go
        out before every prompt of the day is built, and the next ones are ready when a
        slot frees."""
        loop = asyncio.get_running_loop()
        if self._gate is None or self._gate[0] is not loop:
            limiter = getattr(self.client, "limiter", None)
            concurrency = max(1, int(getattr(limiter, "max_concurrency", 8)))
            self._gate = (loop, asyncio.Semaphore(2 * concurrency))
        return self._gate[1]

    @property
    def version(self) -> str:
        """``model@prompt-version``: part of the analysis cache key."""
        return f"{self.options.model}@{PROMPT_VERSION}"

    def version_for(self, facts: Sequence[ApiChange] | None) -> str:
        """The cache version of an analysis given these radar facts: they are in the prompt."""
        return f"{self.version}+facts-{items_digest(facts)}" if facts else self.version

    async def analyse(
        self,
        commit: Commit,
        *,
        repository: str,
        lang: str,
        focus: str | None = None,
        facts: Sequence[ApiChange] | None = None,
    ) -> Analysis:
        """The analysis of ``commit``; the rules' one (``status=fallback``) if the model fails.
        ``facts``: the radar's items for the commit, handed to the model as facts."""
        lang = lang_of(lang)
        tally = Tally()
        try:
            async with self._ahead():
                data = CommitData(
                    commit,
                    repository,
                    lang,
                    seeded_type=change_type_from_title(commit.title),
                    facts=tuple(facts or ()),
                )
                job = _Job(self, data, focus=focus, tally=tally)
                return await job.run()
        except CallFailed as failed:
            reason = say(lang, failed)
            self.stats.fallbacks[say("en", failed)] += 1
        except (LLMAuthError, LLMEndpointError):
            raise
        finally:
            self.stats.unusable.update(tally.unusable)
        log.warning("LLM analysis of %s fell back to rules: %s", commit.short_sha, reason)
        rules = self.fallback.analyse(commit, lang=lang, radar=facts)
        update: dict[str, Any] = {
            "status": AnalysisStatus.FALLBACK,
            "notes": [reason, *rules.notes],
            "usage": tally.usage(self.options),
        }
        return rules.model_copy(update=update)


@dataclass(frozen=True)
class _Prepared:
    plan: DiffPlan
    file_list: str
    body: str
    body_clipped: bool


class _Job:
    """The analysis of one commit: plan, calls, merge, notes."""

    def __init__(
        self, owner: LLMAnalyser, data: CommitData, *, focus: str | None, tally: Tally
    ) -> None:
        self.owner = owner
        self.data = data  # the commit as every request shows it (its file list: per plan)
        self.facts = data.facts
        self.options = owner.options
        self.commit = data.commit
        self.repository = data.repository
        self.lang = lang = data.lang
        self.tally = tally
        self.seeded = data.seeded_type
        self.system = system_prompt(lang, focus)
        self.caller = Caller(owner.client, owner.options, owner.calibration, tally)
        self.shrunk = False
        repairs = owner.stats.repairs
        self.full_form = ReplyForm[CompactOutput](
            FULL_SCHEMA, FULL_NAME, reader(FullOutput, lang, repairs)
        )
        self.compact_form = ReplyForm[CompactOutput](
            COMPACT_SCHEMA, COMPACT_NAME, reader(CompactOutput, lang, repairs)
        )

    async def run(self) -> Analysis:
        shrink: int | None = None
        for _ in range(MAX_REPLANS + 1):
            prep = self._prepare(shrink)
            try:
                if len(prep.plan.chunks) == 1:
                    return await self._single(prep)
                return await self._chunked(prep)
            except PromptTooLarge:
                log.info("LLM prompt for %s too large; planning again", self.commit.short_sha)
                shrink = prep.plan.budget // 2
                self.shrunk = True
        raise CallFailed("too_large", n=MAX_REPLANS)

    # ---- planning

    def _user(
        self, file_list: str, body: str, diff: str, part: int, parts: int, compact: bool
    ) -> str:
        data = replace(self.data, file_list=file_list, body=body)
        return commit_prompt(data, diff=diff, part=part, parts=parts, compact=compact)

    def _prepare(self, shrink: int | None) -> _Prepared:
        opts = self.options
        cap = self.owner.calibration.to_estimated(opts.input_cap)
        body, clipped = clip_text(self.commit.body.strip(), int(cap * BODY_SHARE))
        n = opts.max_chunks
        skeleton = self._user("", body, "", n, n, compact=True)  # the fixed parts
        messages = [
            {"role": "system", "content": self.system},
            {"role": "user", "content": skeleton},
        ]
        fixed = estimate_messages([*messages, _RESERVE], FULL_SCHEMA)
        budget = max(0, cap - fixed)
        if shrink is not None:
            budget = min(budget, shrink)
        plan = plan_diff(self.commit, budget, max_chunks=n)
        return _Prepared(plan, format_file_list(plan), body, clipped)

    def _call(self, full: str, compact: str, label: str) -> CallSpec[CompactOutput]:
        """A request in the full form, then the compact one (user messages ``full``,
        ``compact``)."""
        system = {"role": "system", "content": self.system}
        return CallSpec(
            forms=[
                (self.full_form, [system, {"role": "user", "content": full}]),
                (self.compact_form, [system, {"role": "user", "content": compact}]),
            ],
            label=label,
        )

    def _spec(self, prep: _Prepared, part: int) -> CallSpec[CompactOutput]:
        parts = len(prep.plan.chunks)
        diff = format_chunk(prep.plan.chunks[part - 1])
        return self._call(
            self._user(prep.file_list, prep.body, diff, part, parts, compact=False),
            self._user(prep.file_list, prep.body, diff, part, parts, compact=True),
            f"{self.commit.short_sha} part {part}/{parts}",
        )

    # ---- calls

    async def _single(self, prep: _Prepared) -> Analysis:
        outcome = await self.caller.run(self._spec(prep, 1))
        notes = [tr(self.lang, "compact")] if outcome.compact else []
        return self._finish(outcome.output, prep, notes, [])

    async def _chunked(self, prep: _Prepared) -> Analysis:
        n = len(prep.plan.chunks)
        results = await asyncio.gather(
            *(self.caller.run(self._spec(prep, i)) for i in range(1, n + 1)),
            return_exceptions=True,
        )
        for r in results:  # configuration errors first, then bugs: never swallowed
            if isinstance(r, LLMAuthError | LLMEndpointError):
                raise r
        for r in results:
            if isinstance(r, BaseException) and not isinstance(r, CallFailed | PromptTooLarge):
                raise r
        if any(isinstance(r, PromptTooLarge) for r in results):
            raise PromptTooLarge
        done = [(i, r) for i, r in enumerate(results, 1) if isinstance(r, CallOutcome)]
        failed = [(i, r) for i, r in enumerate(results, 1) if isinstance(r, CallFailed)]
        if not done:
            raise CallFailed("parts_failed", n=n, reason=say(self.lang, failed[0][1]))
        notes = [tr(self.lang, "chunks", n=n)]
        output, merge_notes, merge_compact = await self._merge(prep, done)
        notes += merge_notes
        omitted: list[str] = []
        for i, err in failed:
            files = [f.path for f in prep.plan.chunks[i - 1].files]
            omitted += files
            reason = say(self.lang, err)
            notes.append(tr(self.lang, "part_failed", i=i, n=n, reason=reason, k=len(files)))
        if merge_compact or any(o.compact for _, o in done):
            notes.append(tr(self.lang, "compact"))
        return self._finish(output, prep, notes, omitted)

    async def _merge(
        self, prep: _Prepared, done: list[tuple[int, CallOutcome[CompactOutput]]]
    ) -> tuple[FullOutput, list[str], bool]:
        parts = [o.output for _, o in done]
        worst = max((p.importance for p in parts), key=lambda imp: imp.rank)
        n = len(prep.plan.chunks)
        reason = tr(self.lang, "merge_too_long")
        for level in range(MERGE_LEVELS):
            payload = [part_payload(i, o.output, level) for i, o in done]
            users = [
                merge_prompt(
                    replace(self.data, file_list=prep.file_list, body=prep.body),
                    analyses=payload,
                    worst=worst.value,
                    compact=compact,
                )
                for compact in (False, True)
            ]
            probe = [
                {"role": "system", "content": self.system},
                {"role": "user", "content": users[0]},
            ]
            if not self.caller.fits([*probe, _RESERVE], FULL_SCHEMA):
                continue
            label = f"{self.commit.short_sha} merge"
            try:
                outcome = await self.caller.run(self._call(users[0], users[1], label))
            except CallFailed as err:
                reason = say(self.lang, err)
            except PromptTooLarge:
                pass
            else:
                return combine_parts(outcome.output, parts, self.seeded), [], outcome.compact
            break
        log.info("merging the parts of %s locally: %s", self.commit.short_sha, reason)
        note = tr(self.lang, "merge_local", n=n, reason=reason)
        return combine_parts(None, parts, self.seeded), [note], False

    # ---- the result

    def _finish(
        self, output: CompactOutput, prep: _Prepared, notes: list[str], omitted: list[str]
    ) -> Analysis:
        plan = prep.plan
        over = [f.path for f in plan.listed_only if f.reason is ListReason.OVER_BUDGET]
        over += plan.omitted
        if self.shrunk:
            notes.append(tr(self.lang, "shrunk"))
        if over:
            notes.append(tr(self.lang, "omitted", n=len(over)))
        kinds: Counter[ListReason] = Counter(
            f.reason for f in plan.listed_only if f.reason is not ListReason.OVER_BUDGET
        )
        if kinds:
            notes.append(tr(self.lang, "by_name", what=count_kinds(self.lang, kinds)))
        clipped = sum(f.clipped for chunk in plan.chunks for f in chunk.files)
        if clipped:
            notes.append(tr(self.lang, "clipped", n=clipped))
        if prep.body_clipped:
            notes.append(tr(self.lang, "body_clipped"))
        return to_analysis(
            output,
            seeded_type=self.seeded,
            analyser_version=self.owner.version,
            lang=self.lang,
            notes=notes,
            omitted_files=dedupe([*over, *omitted], str),
            usage=self.tally.usage(self.options),
        )


def lang_of(lang: str) -> str:
    """The report languages: ``"en"`` or (anything else) ``"zh"``."""
    return "en" if lang == "en" else "zh"


def tr(lang: str, key: str, **values: object) -> str:
    """The note ``key`` in ``lang``, filled with ``values``."""
    return _TEXT[lang_of(lang)][key].format(**values)


def say(lang: str, failed: CallFailed) -> str:
    """Why ``failed`` failed, in ``lang``."""
    return tr(lang, failed.kind, **failed.values)


def count_kinds(lang: str, counts: Mapping[ListReason, int]) -> str:
    """``"3 lockfiles, 1 binary file"`` / ``"锁文件 3 个，二进制文件 1 个"``."""
    lang = lang_of(lang)
    parts = []
    for reason, n in counts.items():
        one, many = _KINDS[lang][reason]
        parts.append(f"{n} {one if n == 1 else many}" if lang == "en" else f"{one} {n} 个")
    return (", " if lang == "en" else "，").join(parts)


MERGE_LEVELS = 3  # 0: everything; 1: risks kept, other lists dropped; 2: risk texts only

_NOT_WORD = re.compile(r"[\W_]+")
_COMPACT = set(CompactOutput.model_fields)


def _norm(text: str) -> str:
    """Text compared for duplicates: case, spacing and punctuation ignored."""
    return _NOT_WORD.sub("", text.casefold())


def dedupe(items: Iterable[T], key: Callable[[T], Hashable]) -> list[T]:
    seen: set[Hashable] = set()
    out: list[T] = []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def part_payload(part: int, output: CompactOutput, level: int) -> dict[str, Any]:
    """A part's analysis as JSON for the merge prompt; ``level`` > 0 drops detail."""
    data: dict[str, Any] = {"part": part, **output.model_dump(mode="json", include=_COMPACT)}
    if isinstance(output, FullOutput):
        if level == 0:
            data |= output.model_dump(mode="json", exclude=_COMPACT)
        elif level == 1:
            data["risks"] = [r.model_dump(mode="json") for r in output.risks]
        else:
            data["risks"] = [r.risk for r in output.risks]
    return data


def _lists(output: CompactOutput) -> FullOutput | None:
    return output if isinstance(output, FullOutput) else None


def combine_parts(
    merged: CompactOutput | None, parts: list[CompactOutput], seeded: ChangeType | None
) -> FullOutput:
    """One output for a chunked commit: the model's merge (or, if ``None``, a local one),
    never less alarming than its worst part: importance is the highest of all, risks the
    union of all (duplicates dropped)."""
    fulls = [f for f in map(_lists, parts) if f is not None]
    base = _lists(merged) if merged is not None else None
    importance = max(
        [p.importance for p in parts] + ([merged.importance] if merged else []),
        key=lambda imp: imp.rank,
    )
    risks = dedupe(
        chain(base.risks if base else [], *(f.risks for f in fulls)), lambda r: _norm(r.risk)
    )

    def union(pick: Callable[[FullOutput], list[T]], key: Callable[[T], Hashable]) -> list[T]:
        own = dedupe(pick(base), key) if base is not None else []
        return own or dedupe(chain.from_iterable(pick(f) for f in fulls), key)

    if merged is not None:
        change_type, reason, summary = merged.change_type, merged.change_type_reason, merged.summary
    else:
        types = [p.change_type for p in parts]
        change_type = seeded if seeded in types else Counter(types).most_common(1)[0][0]
        reasons = [p.change_type_reason for p in parts if p.change_type is change_type]
        reason = next((r for r in reasons if r.strip()), "")
        summary = " ".join(p.summary for p in parts)
    return FullOutput(
        change_type=change_type,
        change_type_reason=reason,
        importance=importance,
        summary=summary,
        impact=union(lambda f: f.impact, _norm),
        insights=union(lambda f: f.insights, lambda i: (i.dimension, _norm(i.text))),
        risks=risks,
        recommendations=union(lambda f: f.recommendations, _norm),
    )
