"""One exception tree: every error the package defines is in ``commitdigest.errors`` (drawn
in its docstring with its exit code), or is an internal signal listed there."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import commitdigest
from commitdigest import errors
from commitdigest.errors import CommitdigestError

INTERNAL = {
    "_Incomplete",
    "JSONExtractionError",
    "WrongLanguage",
    "CallFailed",
    "PromptTooLarge",
    "_Skip",
}


def package_exceptions() -> dict[str, type[BaseException]]:
    """Every exception class defined (not imported) by a module of the package."""
    found: dict[str, type[BaseException]] = {}
    for info in pkgutil.walk_packages(commitdigest.__path__, "commitdigest."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if (
                inspect.isclass(obj)
                and issubclass(obj, BaseException)
                and obj.__module__ == module.__name__
            ):
                found[f"{module.__name__}.{name}"] = obj
    return found


def tree_lines() -> dict[str, int]:
    """{class name: exit code} as the errors docstring draws the tree."""
    doc = errors.__doc__ or ""
    return {
        m.group(1): int(m.group(2))
        for m in re.finditer(r"^\s*(?:[│├└─ ]*)(\w+)\s+(\d+)\s", doc, re.MULTILINE)
    }


def test_every_exception_is_in_the_tree_or_an_internal_signal() -> None:
    stray = {
        where
        for where, cls in package_exceptions().items()
        if not issubclass(cls, CommitdigestError) and cls.__name__ not in INTERNAL
    }
    assert stray == set(), f"exceptions outside the tree: {sorted(stray)}"


def test_every_error_of_the_tree_is_defined_in_errors_py() -> None:
    elsewhere = {
        where
        for where, cls in package_exceptions().items()
        if issubclass(cls, CommitdigestError) and cls.__module__ != "commitdigest.errors"
    }
    assert elsewhere == set(), f"define these in commitdigest/errors.py: {sorted(elsewhere)}"


def test_the_docstring_draws_every_class_with_its_exit_code() -> None:
    drawn = tree_lines()
    classes = {
        name: obj
        for name, obj in vars(errors).items()
        if inspect.isclass(obj) and issubclass(obj, CommitdigestError)
    }
    assert set(drawn) == set(classes)
    for name, cls in classes.items():
        assert drawn[name] == cls.exit_code, name


def test_the_internal_signals_are_listed_in_the_docstring() -> None:
    doc = errors.__doc__ or ""
    for name in INTERNAL:
        assert name in doc, name


@pytest.mark.parametrize("code", [2, 3, 4, 5, 6, 7, 8, 70, 130])
def test_the_help_text_names_each_exit_code(code: int) -> None:
    assert re.search(rf"\b{code} ", errors.EXIT_CODES_HELP)


def test_the_exit_codes_are_distinct_per_branch() -> None:
    roots = [cls for cls in CommitdigestError.__subclasses__()]
    codes = [cls.exit_code for cls in roots]
    assert len(codes) == len(set(codes)), {cls.__name__: cls.exit_code for cls in roots}
