"""The offline token estimate and its calibration by the server's usage numbers."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from commitdigest.analysis.llm.tokens import TokenCalibration, estimate_tokens

# Written out independently of the module: the Unicode blocks that count one token a char.
CJK_BLOCKS = [
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2EFF),  # CJK Radicals Supplement
    (0x2F00, 0x2FDF),  # Kangxi Radicals
    (0x2FF0, 0x2FFF),  # Ideographic Description Characters
    (0x3000, 0x303F),  # CJK Symbols and Punctuation
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul Compatibility Jamo
    (0x3190, 0x319F),  # Kanbun
    (0x31A0, 0x31BF),  # Bopomofo Extended
    (0x31C0, 0x31EF),  # CJK Strokes
    (0x31F0, 0x31FF),  # Katakana Phonetic Extensions
    (0x3200, 0x32FF),  # Enclosed CJK Letters and Months
    (0x3300, 0x33FF),  # CJK Compatibility
    (0x3400, 0x4DBF),  # CJK Unified Ideographs Extension A
    (0x4E00, 0x9FFF),  # CJK Unified Ideographs
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A
    (0xAC00, 0xD7AF),  # Hangul Syllables
    (0xD7B0, 0xD7FF),  # Hangul Jamo Extended-B
    (0xF900, 0xFAFF),  # CJK Compatibility Ideographs
    (0xFE30, 0xFE4F),  # CJK Compatibility Forms
    (0xFF00, 0xFFEF),  # Halfwidth and Fullwidth Forms
    (0x1AFF0, 0x1B16F),  # Kana Extended-B, Kana Supplement, Kana Extended-A, Small Kana
    (0x20000, 0x323AF),  # CJK Unified Ideographs Extensions B-H, Compatibility Supplement
]


def reference(text: str) -> int:
    cjk = other = 0
    for ch in text:
        cp = ord(ch)
        if any(lo <= cp <= hi for lo, hi in CJK_BLOCKS):
            cjk += 1
        else:
            other += len(ch.encode("utf-8", "surrogatepass"))
    return cjk + math.ceil(other / 3.5)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", 0),
        ("a", 1),
        ("abcdefg", 2),  # 7 bytes / 3.5
        ("abcdefgh", 3),
        ("中文", 2),
        ("中文abc", 3),  # 2 + ceil(3 / 3.5)
        ("ひらがなカタカナ", 8),
        ("한국어", 3),
        ("ＡＢＣ，。", 5),  # fullwidth forms and CJK punctuation
        ("\U00020000\U0002a700", 2),  # extension B and C
        ("é", 1),  # 2 bytes
        ("😀😀", 3),  # 8 bytes / 3.5, emoji are not CJK
        ("\ud800", 1),  # a lone surrogate (3 bytes) must not raise
    ],
)
def test_estimate_examples(text: str, expected: int) -> None:
    assert estimate_tokens(text) == expected


cjk_chars = st.sampled_from("中文字漢ひカ한국ＡＢ，。㐀豈\U00020000\U0002b740ㄅ")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.one_of(st.characters(), cjk_chars), max_size=80))
def test_estimate_matches_the_per_character_reference(text: str) -> None:
    assert estimate_tokens(text) == reference(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40), st.text(max_size=40))
def test_estimate_is_subadditive(a: str, b: str) -> None:
    """The planner sums parts: the whole must never cost more than its parts."""
    assert estimate_tokens(a + b) <= estimate_tokens(a) + estimate_tokens(b)


def test_multi_megabyte_text() -> None:
    text = "中" * 1_000_000 + "a" * 3_500_000 + "é" * 700_000  # 1.4 MB of two-byte chars
    assert estimate_tokens(text) == 1_000_000 + 1_000_000 + 400_000
    assert estimate_tokens("x" * 7_000_000) == 2_000_000


# ---- calibration ---------------------------------------------------------------------


def test_calibration_starts_neutral() -> None:
    cal = TokenCalibration()
    assert cal.ratio == 1.0
    assert cal.samples == 0
    assert cal.scale(1000) == 1000
    assert cal.to_estimated(1000) == 1000


def test_first_observation_sets_the_ratio_then_it_moves_gradually() -> None:
    cal = TokenCalibration(alpha=0.5)
    cal.observe(1000, 1500)
    assert cal.ratio == pytest.approx(1.5)
    assert cal.scale(1000) == 1500
    assert cal.to_estimated(1500) == 1000
    cal.observe(1000, 1000)
    assert cal.ratio == pytest.approx(1.25)
    assert cal.samples == 2


def test_calibration_converges_and_clamps() -> None:
    cal = TokenCalibration(alpha=0.3)
    for _ in range(50):
        cal.observe(1000, 1200)
    assert cal.ratio == pytest.approx(1.2, abs=1e-6)
    for _ in range(50):
        cal.observe(1000, 10_000)  # 10x: clamped
    assert cal.ratio == pytest.approx(3.0)
    low = TokenCalibration()
    low.observe(1000, 1)
    assert low.ratio == pytest.approx(0.5)


def test_calibration_ignores_useless_observations() -> None:
    cal = TokenCalibration(min_estimated=100)
    cal.observe(50, 500)  # too small to say anything
    cal.observe(1000, 0)
    cal.observe(0, 10)
    assert cal.samples == 0
    assert cal.ratio == 1.0
    assert cal.scale(0) == 0
    assert cal.to_estimated(-5) == 0


def test_calibration_rejects_bad_settings() -> None:
    with pytest.raises(ValueError):
        TokenCalibration(alpha=0)
    with pytest.raises(ValueError):
        TokenCalibration(low=2.0, high=1.0)
