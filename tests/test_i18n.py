"""Every zh/en string table lives in commitdigest.i18n, and each speaks both languages."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from pathlib import Path

import pytest

import commitdigest
from commitdigest import i18n
from commitdigest.analysis.classify import Area
from commitdigest.analysis.llm.plan import ListReason
from commitdigest.analysis.overview import counts_line
from commitdigest.models import ChangeType, Importance

SRC = Path(commitdigest.__file__).parent
I18N = SRC / "i18n"

TABLES = {
    name: value
    for name, value in vars(i18n).items()
    if name.isupper()
    and isinstance(value, Mapping)
    and set(value) == set(i18n.LANGS)
    and all(isinstance(v, Mapping) for v in value.values())
}


def test_the_module_holds_the_tables() -> None:
    assert {
        "IMPORTANCE_NAMES",
        "CHANGE_TYPES",
        "COUNTED_CHANGE_TYPES",
        "DIMENSIONS",
        "REPORT_STRINGS",
        "SITE_STRINGS",
        "DIGEST_STRINGS",
        "AREA_NAMES",
        "RULE_TEXT",
        "ANALYSIS_STRINGS",
        "LLM_NOTES",
        "LLM_LISTED_KINDS",
        "LLM_TYPE_NOTES",
    } <= set(TABLES)
    assert set(i18n.LLM_LANGUAGE_REMINDER) == set(i18n.LANGS)


@pytest.mark.parametrize("name", sorted(TABLES))
def test_each_table_has_the_same_keys_in_both_languages(name: str) -> None:
    table = TABLES[name]
    # a plural form ("…_one") may exist in one language only
    keys = [{k for k in table[lang] if not str(k).endswith("_one")} for lang in i18n.LANGS]
    assert keys[0] == keys[1]


def test_enum_tables_cover_every_member() -> None:
    for lang in i18n.LANGS:
        assert set(i18n.CHANGE_TYPES[lang]) == set(ChangeType)
        assert set(i18n.COUNTED_CHANGE_TYPES[lang]) == set(ChangeType)
        assert set(i18n.IMPORTANCE_NAMES[lang]) == set(Importance)
        assert set(i18n.AREA_NAMES[lang]) == {a.value for a in Area}
        assert i18n.AREA_NAMES[lang][Area.CI_BUILD]  # a StrEnum member indexes the table
        assert set(i18n.LLM_LISTED_KINDS[lang]) == {r.value for r in ListReason}


def test_pick_falls_back() -> None:
    assert i18n.pick(i18n.DIGEST_STRINGS, "fr") is i18n.DIGEST_STRINGS["en"]
    assert i18n.pick(i18n.RULE_TEXT, "fr", "zh") is i18n.RULE_TEXT["zh"]
    assert i18n.pick(i18n.SITE_STRINGS, "zh") is i18n.SITE_STRINGS["zh"]


def test_counted_change_types_keep_their_wording() -> None:
    from commitdigest.analysis.overview import OverviewItem

    items = [
        OverviewItem("a", "1", ChangeType.BUGFIX, Importance.LOW),
        OverviewItem("b", "2", ChangeType.BUGFIX, Importance.LOW),
        OverviewItem("c", "3", ChangeType.REFACTOR, Importance.LOW),
    ]
    assert counts_line(items, "en") == "2 bug fixes, 1 refactor"
    assert counts_line(items, "zh") == "Bug 修复 2 个、代码重构 1 个"


def _lang_tables(path: Path) -> list[int]:
    """Lines of dict literals keyed by both "zh" and "en" in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            if {"zh", "en"} <= keys:
                lines.append(node.lineno)
    return lines


def test_no_other_module_holds_a_zh_en_table() -> None:
    found = {
        str(path.relative_to(SRC)): lines
        for path in sorted(SRC.rglob("*.py"))
        if I18N not in path.parents
        if (lines := _lang_tables(path))
    }
    assert found == {}
