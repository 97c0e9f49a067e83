"""The plain-text helpers every output uses (commitdigest.text): one clean line, a short
title, a safe URL, a slug; direction controls dropped everywhere."""

from __future__ import annotations

from commitdigest.text import (
    clean_line,
    clean_lines,
    is_anchor,
    safe_url,
    shorten_title,
    slugify,
    strip_controls,
)


def test_clean_line_replaces_controls() -> None:
    assert clean_line(" a\r\nb\tc\x00d\x1be\u2028 ") == "a  b c\ufffdd\ufffde"


def test_clean_lines_keeps_the_lines() -> None:
    assert clean_lines("a\r\nb\u202e c \rd\x00\t") == ["a", "b c", "d\ufffd"]


def test_strip_controls_collapses_whitespace() -> None:
    assert strip_controls("line1\n# line2\x00\u2028x") == "line1 # line2 x"
    assert strip_controls("\u2066evil\u2069  x") == "evil x"


def test_shorten_does_not_split_combining_sequences() -> None:
    title = "a" * 56 + "e\u0301" + "b" * 10
    assert shorten_title(title) == "a" * 56 + "..."
    family = "👨\u200d👩\u200d👧"
    title = "x" * 54 + family + "y" * 10
    short = shorten_title(title)
    assert short.endswith("...") and (family in short or "\u200d" not in short)


def test_slugify_and_anchors() -> None:
    assert slugify("vllm-project/vllm") == "vllm-project-vllm"
    assert slugify("Owner/Repo.Name") == "owner-repo-name"
    assert slugify("中文/仓库") == "repo"
    assert is_anchor("fefce49") and is_anchor("a-b-2")
    assert not is_anchor('x"><script>') and not is_anchor("-a") and not is_anchor("")


def test_safe_url() -> None:
    assert safe_url("https://github.com/o/r/commit/abc") == "https://github.com/o/r/commit/abc"
    assert safe_url("javascript:alert(1)") is None
    assert safe_url("file:///etc/passwd") is None
    assert safe_url(None) is None
    assert safe_url("https://x.y/a b(c)<d>") == "https://x.y/a%20b%28c%29%3Cd%3E"
