"""text.Sieved: a regex tried only where its key words are, with the regex's own answers."""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import commitdigest.analysis
from commitdigest.analysis.rules_facts import user_facing_answer
from commitdigest.analysis.tags import SECURITY_RE
from commitdigest.text import Sieved


def _every_sieved() -> dict[str, Sieved]:
    """Every Sieved regex of the analysis modules, by its module and name."""
    found: dict[str, Sieved] = {}
    package = commitdigest.analysis
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if isinstance(value, Sieved) and all(value is not v for v in found.values()):
                found[f"{module.__name__}.{name}"] = value  # (the first module that has it)
    return found


SIEVED = _every_sieved()


def test_the_analysis_sieves_its_message_regexes() -> None:
    names = {name.rsplit(".", 1)[-1] for name in SIEVED}
    assert {
        "SECURITY_RE", "ADVISORY_RE", "_BODY_SECURITY", "_FIXES_RE", "_BUG_RE", "_BREAKING_RE",
        "_USER_FACING_Q", "_TIGHTENING_BODY",
    } <= names  # fmt: skip


@pytest.mark.parametrize("name", sorted(SIEVED))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_keys_let_every_match_through(name: str, data: st.DataObject) -> None:
    """Texts drawn to match the regex (any case, any surroundings) pass the keys, and the
    sieved search finds what the regex finds."""
    sieved = SIEVED[name]
    text = data.draw(st.from_regex(sieved.regex))
    found = sieved.regex.search(text)
    assert found is not None
    assert sieved.may_match(text)
    got = sieved.search(text)
    assert got is not None and got.span() == found.span()
    assert [m.span() for m in sieved.finditer(text)] == [
        m.span() for m in sieved.regex.finditer(text)
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Fix a \u017fecurity hole",  # ſ: a case-insensitive "s"
        "SQL \u0130njection in the parser",  # İ: a case-insensitive "i"
        "Header \u0131njection",  # ı
        "\u212aEEP: remote code execution",  # the Kelvin sign, around a match
        "SECURITY: bump",
    ],
)
def test_letters_a_case_insensitive_regex_takes_for_ascii_pass_too(text: str) -> None:
    assert SECURITY_RE.regex.search(text) is not None
    assert SECURITY_RE.search(text) is not None


@pytest.mark.parametrize(
    "text", ["Add a cache for the tokenizer", "Bump the docs theme", "重构调度器", ""]
)
def test_a_text_without_its_words_is_not_matched(text: str) -> None:
    assert not SECURITY_RE.may_match(text)
    assert SECURITY_RE.search(text) is None
    assert list(SECURITY_RE.finditer(text)) == []


def test_a_case_sensitive_regex_keeps_its_case() -> None:
    breaking = Sieved(r"\bBREAKING[ -]CHANGES?\b", ("BREAKING",))
    assert breaking.search("BREAKING CHANGE: drop x") is not None
    assert breaking.search("breaking change: drop x") is None


def test_keys_of_a_case_insensitive_regex_must_be_lower_case_ascii() -> None:
    with pytest.raises(ValueError):
        Sieved(r"CVE-\d+", ("CVE-",), re.IGNORECASE)


def test_the_user_facing_question_is_read_past_html_comments() -> None:
    """The key is looked for in the text the question is read from (a comment is a line
    break there)."""
    body = "### Does this PR introduce _any_ user-facing change? <!-- say it -->\nNo\n"
    assert user_facing_answer(body) is False
    assert user_facing_answer("user-facing<!-- x --> change?\nNo") is None
    assert (
        user_facing_answer("### Does this PR introduce any user-facing change?\nYes, a flag")
        is True
    )
    assert user_facing_answer("Just a fix") is None


def _answer_line_by_line(body: str) -> bool | None:
    """The user-facing answer as it was read before: the stripped body's lines, one by one."""
    from commitdigest.analysis import rules_text as rt
    from commitdigest.analysis.rules_facts import _NO_ANSWER, _USER_FACING_Q

    lines = rt.strip_html_comments(body).splitlines()
    for i, line in enumerate(lines):
        if not _USER_FACING_Q.regex.search(line):
            continue
        for answer in lines[i + 1 :]:
            text = answer.strip().strip("*_>").strip()
            if not text:
                continue
            if text.startswith("#"):
                return None
            return _NO_ANSWER.match(text) is None
    return None


_PIECES = st.sampled_from(
    ["Does this PR introduce _any_ user-facing change?", "user facing change", "USER-FACING CHANGE",
     "No", "N/A", "yes, a flag", "### Tests", "> **no**", "", " ", "<!-- x -->", "<!--", "-->",
     "\n", "\r\n", "\r", "\u2028", "\x0c", "*", "facing change"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(_PIECES, max_size=12))
def test_the_user_facing_answer_is_the_one_read_line_by_line(pieces: list[str]) -> None:
    """The question is found in the stripped body at once, then its following lines are read:
    the answer a line-by-line reading gives, whatever the line breaks and comments."""
    body = "".join(pieces)
    assert user_facing_answer(body) == _answer_line_by_line(body)


@pytest.mark.parametrize(
    "text",
    [
        "Fix CVE-2026-1234", "A vulnerability in the parser", "security fix", "SQL injection",
        "an RCE in the loader", "Stored XSS", "CSRF token check", "SSRF via redirects",
        "heap overflow in decode", "path traversal in unpack", "arbitrary code execution",
        "remote code execution", "privilege escalation", "authentication bypass",
        "GHSA-abcd-efgh-ijkl", "Slowloris protection", "denial-of-service on large input",
    ],
)  # fmt: skip
def test_each_security_alternative_passes_its_keys(text: str) -> None:
    """One text for each alternative of the security words (the drawn ones may miss one)."""
    assert SECURITY_RE.regex.search(text) is not None
    assert SECURITY_RE.search(text) is not None
