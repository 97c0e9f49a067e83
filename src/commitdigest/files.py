"""Writing report files: atomically (temp file + rename) and always as UTF-8."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from commitdigest.errors import OutputError


def ensure_writable_dir(directory: Path) -> Path:
    """Create ``directory`` if needed and check that files can be created in it."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".commitdigest-probe-", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise OutputError(f"cannot write to output folder {directory}: {reason}") from None
    return directory


def write_text_atomic(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` as UTF-8 so that readers see the old or the new file."""
    return write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` so that readers see the old or the new file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            try:  # an existing file keeps its permissions (a 0600 config stays 0600)
                mode = os.stat(path).st_mode & 0o777
            except FileNotFoundError:
                mode = 0o644
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise OutputError(f"cannot write {path}: {reason}") from None
    return path
