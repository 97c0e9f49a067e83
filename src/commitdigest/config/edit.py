"""Edit the settings file in place: add and remove followed repositories, and show the
effective settings as TOML.

Edits keep every other byte of the file (comments included), are validated before they
are written, and are written atomically as UTF-8. The ``commitdigest config`` and
``commitdigest repos`` commands are thin wrappers over these functions.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from commitdigest.errors import ConfigError

if TYPE_CHECKING:
    from commitdigest.config.settings import Settings
    from commitdigest.config.subscriptions import Repository


def target_path(explicit: Path | None) -> Path:
    """The file to edit: ``--config``, else the one found, else where a new one goes."""
    from commitdigest.config.settings import default_config_path, find_config

    if explicit is not None:
        return explicit
    return find_config() or default_config_path()


def add_subscription(
    path: Path,
    name: str,
    *,
    branch: str | None = None,
    source: str | None = None,
    paths: Sequence[str] = (),
    keywords: Sequence[str] = (),
    emphasis: str | None = None,
) -> Repository:
    """Append a ``[[repositories]]`` entry to ``path`` (created if missing); refuse duplicates."""
    from pydantic import ValidationError

    from commitdigest.config.settings import describe_error, parse_config_text, validate_file_data
    from commitdigest.config.subscriptions import NEW_FILE_HEADER, Repository, append_entry
    from commitdigest.files import write_text_atomic

    entry: dict[str, Any] = {"name": name.strip()}
    if branch is not None:
        entry["branch"] = branch
    if source is not None:
        entry["source"] = source
    focus = {"paths": list(paths), "keywords": list(keywords), "emphasis": emphasis}
    focus = {key: value for key, value in focus.items() if value}
    if focus:
        entry["focus"] = focus
    try:
        repository = Repository.model_validate(entry)
    except ValidationError as exc:
        raise ConfigError(describe_error(exc, f"repository {name!r}")) from None
    text = _read(path) if path.exists() else NEW_FILE_HEADER
    settings = validate_file_data(parse_config_text(text, path), path)
    for existing in settings.repositories:
        if existing.key == repository.key:
            raise ConfigError(
                f"{repository.name} is already followed in {path} (as {existing.name!r}); "
                "remove it first to change it"
            )
    try:
        new_text = append_entry(text, entry)
    except ValueError as exc:
        raise ConfigError(f"cannot edit {path}: {exc}") from None
    validate_file_data(parse_config_text(new_text, path), path)
    write_text_atomic(path.resolve(), new_text)
    return repository


def remove_subscription(path: Path, name: str) -> str:
    """Remove the entry that is the same repository as ``name``; return its name as written.

    The rest of the file need not be valid (removing a duplicate entry is how one fixes it).
    """
    from commitdigest.config.settings import parse_config_text
    from commitdigest.config.subscriptions import find_entry, remove_entry
    from commitdigest.files import write_text_atomic

    if not path.is_file():
        raise ConfigError(f"config file {path} does not exist; nothing to remove")
    text = _read(path)
    data = parse_config_text(text, path)
    raw = data.get("repositories", [])
    try:
        index = find_entry(raw if isinstance(raw, list) else [], name)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None
    if index is None:
        raise ConfigError(
            f"{name.strip()} is not followed in {path} (see: commitdigest repos list)"
        )
    try:
        new_text = remove_entry(text, index)
    except ValueError as exc:
        raise ConfigError(f"cannot edit {path}: {exc}") from None
    parse_config_text(new_text, path)
    write_text_atomic(path.resolve(), new_text)
    return str(raw[index]["name"]).strip()


def effective_toml(settings: Settings, notes: Mapping[str, str] | None = None) -> str:
    """The effective settings as TOML: unset values as comments, secrets masked;
    ``notes``: a comment after a key's value (``{"language": "from the locale"}``)."""
    import tomlkit
    from tomlkit.container import Container
    from tomlkit.items import Table as TomlTable

    from commitdigest.config.settings import MASK, SECRET_ENV, SECRET_HINTS

    def fill(target: Container | TomlTable, data: dict[str, Any], where: str) -> None:
        def nested(item: tuple[str, Any]) -> int:  # plain keys before sub-tables
            value = item[1]
            return isinstance(value, dict) or (
                isinstance(value, list) and bool(value) and isinstance(value[0], dict)
            )

        for key, value in sorted(data.items(), key=nested):
            here = f"{where}.{key}" if where else key
            if here in SECRET_ENV:
                source = settings.secret_source(here)
                if source is None:
                    target.add(tomlkit.comment(f"{key}: not set (set {SECRET_HINTS[here]})"))
                else:
                    target.add(key, tomlkit.item(MASK).comment(f"from {source}"))
            elif value is None:
                target.add(tomlkit.comment(f"{key}: not set"))
            elif notes and here in notes:
                target.add(key, tomlkit.item(value).comment(notes[here]))
            elif isinstance(value, dict):
                table = tomlkit.table()
                fill(table, value, here)
                target.add(key, table)
            elif isinstance(value, list) and value and isinstance(value[0], dict):
                tables = tomlkit.aot()
                for item in value:
                    table = tomlkit.table()
                    fill(table, item, here)
                    tables.append(table)
                target.add(key, tables)
            else:
                target.add(key, value)

    data = settings.model_dump(mode="json")
    for key in SECRET_ENV:  # never let a secret's value reach the text
        section, field = key.split(".")
        data[section][field] = None
    doc = tomlkit.document()
    fill(doc, data, "")
    return tomlkit.dumps(doc)


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read config file {path}: {exc}") from None
