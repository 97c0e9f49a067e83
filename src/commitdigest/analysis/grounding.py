"""Grounding: an LLM analysis keeps only the mentions that can be found in its commit.

After a model's answer validates, every checkable mention in its text (every free-text
field, the reason it gives for changing the commit's type included) — file paths and
file names, code symbols (backticked identifiers, ``name()``, ``Class.member``, dotted
module paths), environment variables, CLI flags, PR/issue numbers, version strings — is
looked up in the commit: its message, its file list (files the model never saw included),
its diff hunks and the radar's facts (:class:`Evidence`). Matching is tolerant where it
must be (a path's tail, ``foo()`` for ``foo``, an env var in any case, ``--dry-run`` for
``dry_run``) and strict where it matters (a symbol must occur as a whole word).

An unsupported mention is removed with the words that carry it (:func:`prune`): from a
list of mentions with its connector ("`a.py` and `b.py`"), else a subordinate clause
goes, else — when the sentence still names something real — the mention becomes a neutral
phrase ("related code"), else the sentence goes. A list item left empty goes. What was
removed is recorded on the analysis (:class:`~commitdigest.models.Grounding`); an analysis
whose summary is left empty is replaced by the caller with the rules' one, marked.

Pure text: no model call. It runs on every analysis an LLM made, cached ones included,
so a newer :data:`GROUNDING_VERSION` applies to old answers without asking again.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from commitdigest.i18n import GROUNDING_PLACEHOLDERS, LLM_TYPE_NOTES, pick
from commitdigest.models import Analysis, ApiChange, Commit, Grounding, Insight, Risk

__all__ = ["GROUNDING_VERSION", "Evidence", "Mention", "find_mentions", "ground", "prune"]

GROUNDING_VERSION = "1"
"""Bump when what counts as a mention, or as support for one, changes."""

# ---- what the commit says ----------------------------------------------------------------

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class Evidence:
    """Everything a mention may be found in, for one commit."""

    text: str  # message, paths, diff hunks, radar facts: one searchable text
    lower: str
    paths: tuple[str, ...]
    words: frozenset[str]
    pr_number: int | None = None

    @classmethod
    def of(cls, commit: Commit, facts: Sequence[ApiChange] | None = None) -> Evidence:
        paths = tuple(p for f in commit.files for p in (f.path, f.old_path) if p)
        parts = [commit.title, commit.body, *paths, *(f.patch for f in commit.files)]
        for item in facts or ():
            parts += [item.name, item.detail, item.path]
        text = "\n".join(parts)
        words = set(_WORD.findall(text))
        return cls(text, text.lower(), paths, frozenset(words), commit.pr_number)


# ---- finding mentions ----------------------------------------------------------------------

_EXT = (
    "py|pyi|pyx|rs|go|ts|tsx|js|jsx|mjs|c|cc|cpp|cu|cuh|h|hpp|java|kt|rb|php|swift|sh|md|rst|"
    "txt|toml|yaml|yml|json|cfg|ini|lock|proto|sql|cmake|html|css|j2|ipynb"
)
_MENTION = re.compile(
    r"`(?P<code>[^`\n]+)`"
    r"|(?P<path>(?<![\w/.@-])(?:[\w.-]+/)+[\w-]+(?:\.[\w-]+)*(?![\w/]))"
    rf"|(?P<file>(?<![\w/.-])[\w-]+\.(?:{_EXT})(?![\w.]))"
    r"|(?P<flag>(?<![\w-])--[A-Za-z0-9][\w-]*)"
    r"|(?P<env>\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b)"
    r"|(?P<call>\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*\(\))"
    r"|(?P<dotted>\b[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b)"
    r"|(?P<issue>(?<![\w&/])#\d{1,7}\b)"
    r"|(?P<version>(?<![\w.])v?\d+\.\d+\.\d+(?:[-.]?(?:rc|a|b|post|dev)\d*)?(?![\w.]))"
)
_STOP_DOTTED = frozenset({"e.g", "i.e", "etc", "vs", "a.k.a"})


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    text: str  # as written, backticks included
    kind: str  # "path", "symbol", "env", "flag", "issue", "version", "code"
    value: str  # what is looked up


def find_mentions(text: str) -> list[Mention]:
    """The checkable mentions of ``text``, in order."""
    found: list[Mention] = []
    for m in _MENTION.finditer(text):
        kind = m.lastgroup or ""
        value = m.group(kind)
        if kind == "code":
            kind, value = _code_kind(value)
            if not kind:
                continue
        elif kind == "file":
            kind = "path"
        elif kind == "call":
            kind, value = "symbol", value[:-2]
        elif kind == "dotted":
            if not _looks_like_code(value):
                continue
            kind = "symbol"
        found.append(Mention(m.start(), m.end(), m.group(0), kind, value))
    return found


def _looks_like_code(dotted: str) -> bool:
    """``torch.cuda`` is too plain to check, ``Scheduler.schedule`` / ``vllm.v1.core`` /
    ``model_runner.execute`` are checked."""
    if dotted.lower() in _STOP_DOTTED or len(dotted) < 5:
        return False
    parts = dotted.split(".")
    return (
        len(parts) >= 3
        or any("_" in p for p in parts)
        or any(p[:1].isupper() and any(ch.islower() for ch in p) for p in parts)
    )


_CALL_ARGS = re.compile(r"\(.*\)$")


def _code_kind(code: str) -> tuple[str, str]:
    """What a backticked span names: ("", "") for nothing checkable (a number, prose)."""
    value = code.strip()
    if not value or len(value) < 2 or re.fullmatch(r"[\d.,%x×+-]+", value):
        return "", ""  # nothing, or a number
    if re.fullmatch(r"[0-9a-f]{7,40}", value) and re.search(r"\d", value):
        return "", ""  # a commit SHA: the report's own reference
    if value.startswith("--"):
        return "flag", value.split("=", 1)[0].split()[0]
    if re.fullmatch(r"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?:=.*)?", value):
        return "env", value.split("=", 1)[0]
    if "/" in value and " " not in value:
        return "path", value
    if re.fullmatch(rf"[\w-]+\.(?:{_EXT})", value):
        return "path", value
    if re.fullmatch(r"v?\d+(?:\.\d+)+\S*", value):
        return "version", value
    if re.fullmatch(r"#\d+", value):
        return "issue", value
    ident = _CALL_ARGS.sub("", value)
    if re.fullmatch(r"@?[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*", ident):
        return "symbol", ident.lstrip("@")
    return "code", value


# ---- looking them up -------------------------------------------------------------------------


def supported(mention: Mention, evidence: Evidence) -> bool:
    kind, value = mention.kind, mention.value
    if kind == "path":
        path = re.sub(r"^(?:\./|[ab]/)", "", value).rstrip("/:")
        return (
            any(
                p == path or p.endswith("/" + path) or p.startswith(path + "/")
                for p in evidence.paths
            )
            or path in evidence.text
        )
    if kind == "symbol":
        if value in evidence.words or _whole(value, evidence.text):
            return True
        parts = value.split(".")  # Class.member: each part is in the diff
        return len(parts) > 1 and all(p in evidence.words for p in parts if p)
    if kind == "env":
        return _whole(value.lower(), evidence.lower)
    if kind == "flag":
        name = value[2:]
        names = {name, name.removeprefix("no-")}
        return any(
            f"--{n}" in evidence.text
            or n.replace("-", "_") in evidence.words
            or n in evidence.words
            for n in names
        )
    if kind == "issue":
        number = value.lstrip("#")
        return (
            evidence.pr_number == int(number)
            or f"#{number}" in evidence.text
            or f"/{number}" in evidence.text
        )
    if kind == "version":
        bare = value.lstrip("v")
        return bare in evidence.text
    # a code snippet: all of it, or every word of it that says something, is in the commit
    if value in evidence.text:
        return True
    words = [w for w in _WORD.findall(value) if len(w) >= 3]
    return bool(words) and all(w.lower() in evidence.lower for w in words)


def _whole(needle: str, haystack: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(needle)}(?!\w)", haystack) is not None


# ---- removing what is not supported ------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
_CLAUSE_SEP = re.compile(r"(,\s+|;\s+|，|；)")
_CONNECTOR = r"(?:,\s*|\s+(?:and|or)\s+|、|以及|和|与|及|或)"
_BEFORE = re.compile(_CONNECTOR + r"$")
_AFTER = re.compile(r"^" + _CONNECTOR)


def prune(text: str, bad: set[str], good: set[str], lang: str) -> str:
    """``text`` without the mentions in ``bad`` (their ``Mention.text``), keeping it
    readable and keeping what names something in ``good``; "" when nothing is left."""
    lines = [_prune_line(line, bad, good, lang) for line in text.split("\n")]
    kept = [line for line in lines if line is not None]
    return "\n".join(kept).strip()


def _has(piece: str, names: set[str]) -> bool:
    return any(m.text in names for m in find_mentions(piece))


def _prune_line(line: str, bad: set[str], good: set[str], lang: str) -> str | None:
    if not _has(line, bad):
        return line
    bullet = re.match(r"^(\s*(?:[-*+]|\d+[.)])\s+)", line)
    head = bullet.group(1) if bullet else ""
    body = line[len(head) :]
    sentences = [s for s in _SENTENCE_END.split(body) if s]
    out = [s for s in (_prune_sentence(s, bad, good, lang) for s in sentences) if s]
    if not out:
        return None
    joiner = "" if lang == "zh" else " "
    return head + joiner.join(out)


def _prune_sentence(sentence: str, bad: set[str], good: set[str], lang: str) -> str:
    if not _has(sentence, bad):
        return sentence
    clauses, seps = _clauses(sentence)
    named_elsewhere = _has(sentence, good)
    kept: list[tuple[str, str]] = []  # (separator before, clause)
    for i, clause in enumerate(clauses):
        before = seps[i - 1] if i else ""
        if not _has(clause, bad):
            kept.append((before, clause))
            continue
        fixed = _replace_mentions(clause, bad, good, lang)
        if _has(clause, good) or (i == 0 and named_elsewhere):
            kept.append((before, fixed))
        elif i == 0:
            return ""  # the main clause says only what cannot be found: the sentence goes
        # else: a subordinate clause that says only that: it goes
    if not kept:
        return ""
    text = kept[0][1] + "".join(sep + clause for sep, clause in kept[1:])
    text = re.sub(r"\s{2,}", " ", text)
    text = re.sub(r"\s+([,.;:!?，。；：！？])", r"\1", text)
    end = sentence.rstrip()[-1:]
    if end in ".!?。！？" and not text.rstrip().endswith(end):
        text = text.rstrip(" ,;，；") + end
    return text.strip()


def _clauses(sentence: str) -> tuple[list[str], list[str]]:
    """The sentence's clauses and the separators between them; a comma inside a list of
    mentions ("`a.py`, `b.py`") separates no clauses."""
    clauses: list[str] = []
    seps: list[str] = []
    start = 0
    for m in _CLAUSE_SEP.finditer(sentence):
        if _ends_with_mention(sentence[: m.start()]) and _starts_with_mention(sentence[m.end() :]):
            continue
        clauses.append(sentence[start : m.start()])
        seps.append(m.group(0))
        start = m.end()
    clauses.append(sentence[start:])
    return clauses, seps


def _replace_mentions(clause: str, bad: set[str], good: set[str], lang: str) -> str:
    """Each bad mention out of a list of mentions (with its connector), else a neutral
    phrase in its place."""
    words = pick(GROUNDING_PLACEHOLDERS, lang)
    for mention in reversed(find_mentions(clause)):
        if mention.text not in bad:
            continue
        left, right = clause[: mention.start], clause[mention.end :]
        b, a = _BEFORE.search(left), _AFTER.search(right)
        if b and _ends_with_mention(left[: b.start()]):
            clause = left[: b.start()] + right
        elif a and _starts_with_mention(right[a.end() :]):
            clause = left + right[a.end() :]
        else:
            clause = left + words[mention.kind] + right
    return clause


def _ends_with_mention(text: str) -> bool:
    found = find_mentions(text)
    return bool(found) and found[-1].end == len(text.rstrip())


def _starts_with_mention(text: str) -> bool:
    found = find_mentions(text)
    return bool(found) and found[0].start == len(text) - len(text.lstrip())


# ---- one analysis ------------------------------------------------------------------------------


def _type_note_pattern(lang: str) -> re.Pattern[str]:
    """The note :func:`~commitdigest.analysis.llm.schema.to_analysis` writes when the model
    changed the type, with its reason as a group (the model's words: checked too)."""
    pattern = re.escape(LLM_TYPE_NOTES[lang]["changed"])
    for name in ("old", "new"):
        pattern = pattern.replace(re.escape("{" + name + "}"), rf"(?P<{name}>[\w-]+)")
    return re.compile(pattern.replace(re.escape("{reason}"), r"(?P<reason>.+)"), re.DOTALL)


_TYPE_NOTES = {lang: _type_note_pattern(lang) for lang in LLM_TYPE_NOTES}


def type_reason(analysis: Analysis, lang: str) -> tuple[int, re.Match[str]] | None:
    """Where the model's reason for another change type is (its note's index and match)."""
    pattern = _TYPE_NOTES.get(lang)
    for i, note in enumerate(analysis.notes[:1] if pattern else ()):
        found = pattern.fullmatch(note) if pattern else None
        if found:
            return i, found
    return None


def _texts(analysis: Analysis, lang: str) -> Iterable[str]:
    reason = type_reason(analysis, lang)
    if reason is not None:
        yield reason[1].group("reason")
    yield analysis.summary
    yield from analysis.impact
    yield from analysis.recommendations
    for insight in analysis.insights:
        yield insight.text
    for risk in analysis.risks:
        yield from (risk.risk, risk.effect, risk.mitigation)


def ground(
    analysis: Analysis, commit: Commit, facts: Sequence[ApiChange] | None, lang: str
) -> Analysis:
    """``analysis`` with every mention the commit does not support removed, and a
    :class:`Grounding` record; the summary may be left empty (the caller falls back)."""
    evidence = Evidence.of(commit, facts)
    checked: dict[str, bool] = {}
    for text in _texts(analysis, lang):
        for mention in find_mentions(text):
            if mention.text not in checked:
                checked[mention.text] = supported(mention, evidence)
    bad = {text for text, ok in checked.items() if not ok}
    good = {text for text, ok in checked.items() if ok}
    record = Grounding(
        checked=len(checked), unsupported=sorted(bad), action="removed" if bad else "none"
    )
    if not bad:
        return analysis.model_copy(update={"grounding": record})

    def fix(text: str) -> str:
        return prune(text, bad, good, lang) if _has(text, bad) else text

    def items(values: Iterable[str]) -> list[str]:
        return [t for t in (fix(v) for v in values) if t]

    risks = []
    for risk in analysis.risks:
        what = fix(risk.risk)
        if what:
            risks.append(Risk(risk=what, effect=fix(risk.effect), mitigation=fix(risk.mitigation)))
    notes = list(analysis.notes)
    typed = type_reason(analysis, lang)
    if typed is not None:
        i, found = typed
        reason = fix(found.group("reason"))
        names = {"old": found.group("old"), "new": found.group("new")}
        texts = LLM_TYPE_NOTES[lang]
        notes[i] = (
            texts["changed"].format(reason=reason, **names)
            if reason
            else texts["changed_unverified"].format(**names)
        )
    return analysis.model_copy(
        update={
            "notes": notes,
            "summary": fix(analysis.summary),
            "impact": items(analysis.impact),
            "recommendations": items(analysis.recommendations),
            "insights": [
                Insight(dimension=i.dimension, text=t)
                for i in analysis.insights
                if (t := fix(i.text))
            ],
            "risks": risks,
            "grounding": record,
        }
    )
