"""Pulling one JSON object out of a model's reply."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commitdigest.analysis.llm.extract import JSONExtractionError, extract_json_object, strip_think

OBJ = {"change_type": "bugfix", "summary": 'Fix {braces} and "quotes" in paths', "n": 3}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(OBJ),
        f"  \n{json.dumps(OBJ, indent=2)}\n",
        f"```json\n{json.dumps(OBJ)}\n```",
        f"Sure! Here it is:\n```JSON\n{json.dumps(OBJ, indent=2)}\n```\nAnything else?",
        f"```\n{json.dumps(OBJ)}\n```",
        f"The analysis is {json.dumps(OBJ)} as requested.",
        f"<think>\nThe user wants {{json}}. Let me think about it.\n</think>\n{json.dumps(OBJ)}",
        f"<THINK>a</THINK><think>b {{ }}</think>```json\n{json.dumps(OBJ)}\n```",
        f"reasoning with a stray {{ brace</think>\n\n{json.dumps(OBJ)}",  # Qwen3: no opening tag
        f'He said "use {{x}} here. {json.dumps(OBJ)}',  # a stray quote in the prose before
        f"```python\nx = {{'a': 1}}\n```\n{json.dumps(OBJ)}",  # a non-JSON fence is skipped
    ],
)
def test_recovers_the_object(text: str) -> None:
    assert extract_json_object(text) == OBJ


def test_first_valid_object_wins_and_nested_ones_are_found() -> None:
    assert extract_json_object('{"a": 1} and then {"b": 2}') == {"a": 1}
    assert extract_json_object('{not json {"inner": true} }') == {"inner": True}
    assert extract_json_object('[1, 2] {"a": [1, {"b": "}"}]}') == {"a": [1, {"b": "}"}]}


def test_raw_newlines_inside_strings_are_tolerated() -> None:
    assert extract_json_object('{"summary": "line one\nline two"}') == {
        "summary": "line one\nline two"
    }


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "empty reply"),
        ("   \n", "empty reply"),
        ('<think>I was cut off while thinking {"a": 1}', "only an unfinished reasoning block"),
        ("No JSON here, sorry.", "no JSON object in reply"),
        ("[1, 2, 3]", "no JSON object in reply"),
        ('{"change_type": "bugfix", "summary": "cut', "unterminated JSON object"),
        ("{'single': 'quotes'}", "no valid JSON object"),
        ('{"a": 1,}', "no valid JSON object"),
    ],
)
def test_failures_have_a_short_reason(text: str, reason: str) -> None:
    with pytest.raises(JSONExtractionError) as info:
        extract_json_object(text)
    assert reason in info.value.reason
    assert str(info.value) == info.value.reason


def test_strip_think_rules() -> None:
    assert strip_think("<think>x</think>answer") == "answer"
    assert strip_think("a<thinking>\nx\n</thinking>b<think>y</think>c") == "abc"
    assert strip_think("thoughts</think>answer") == "answer"
    assert strip_think('{"a": 1}<think>cut off') == '{"a": 1}'
    assert strip_think('<think>never closed {"a": 1}') == ""
    assert strip_think("no tags at all") == "no tags at all"


def test_pathological_input_stays_fast() -> None:
    text = "{" * 20_000 + '"a": 1' + " prose " * 1000
    started = time.monotonic()
    with pytest.raises(JSONExtractionError, match="unterminated"):
        extract_json_object(text)
    assert time.monotonic() - started < 2.0


# --------------------------------------------------------------------------- round trips

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=12,
)
objects = st.dictionaries(st.text(max_size=10), json_values, max_size=5)
prose = st.text(
    alphabet=st.characters(exclude_characters="{}<>`", exclude_categories=["Cs"]),
    max_size=40,
)


def _wrap(obj: dict[str, Any], style: int, before: str, after: str, indent: int | None) -> str:
    body = json.dumps(obj, indent=indent, ensure_ascii=indent is None)
    return [
        body,
        f"{before}\n{body}\n{after}",
        f"{before}\n```json\n{body}\n```\n{after}",
        f"<think>{before} {{maybe: [1, 2}} </think>\n{body}",
        f"<think>{before}</think>{before}\n```\n{body}\n```{after}",
        f"{before}</think>{body}",
    ][style]


@settings(max_examples=150, deadline=None)
@given(
    obj=objects,
    style=st.integers(min_value=0, max_value=5),
    before=prose,
    after=prose,
    indent=st.sampled_from([None, 2]),
)
def test_round_trip(
    obj: dict[str, Any], style: int, before: str, after: str, indent: int | None
) -> None:
    assert extract_json_object(_wrap(obj, style, before, after, indent)) == obj
