"""Output files of the command line and the API: checked before any work starts.

`check_writable` refuses, in one line naming the option and the path, an output that cannot be
written: a missing or read-only folder, a folder given as the file, an existing file that is not
a regular file (a device, a socket) or that is read-only. It probes the folder by creating and
removing a temporary file, so it is right for every user (root included) and file system (a
read-only mount). A disk that fills up later is reported by the writer itself (OSError), and
`remove_partial` makes sure nothing half-written is left under the final name.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputError(ValueError):
    """An output file that cannot be written (the message names the option and the path)."""


def check_writable(path: str | os.PathLike[str], what: str,
                   error: type[ValueError] = OutputError) -> Path:
    """`path` as a Path, after checking that a file can be written there; `what` names the
    option (e.g. '--screenshot') in the message. Raises `error` (an OutputError by default)."""
    p = Path(path).expanduser()
    shown = os.fspath(path)
    if p.is_dir():
        raise error(f"{what} {shown!r} is a folder; give a file name")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.exists():
        raise error(f"{what} {shown!r}: the folder {os.fspath(folder)!r} does not exist")
    if not folder.is_dir():
        raise error(f"{what} {shown!r}: {os.fspath(folder)!r} is not a folder")
    if p.exists() and not p.is_file():
        raise error(f"{what} {shown!r} exists and is not a regular file")
    _probe(folder, what, shown, error)
    if p.exists() and not os.access(p, os.W_OK):
        raise error(f"{what} {shown!r} exists and is read-only")
    return p


def _probe(folder: Path, what: str, shown: str, error: type[ValueError]) -> None:
    """Write and remove a temporary file in `folder`, or raise `error` saying why not."""
    try:
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".cuesim-probe-"):
            pass
    except OSError as exc:
        raise error(f"{what} {shown!r}: cannot write in the folder {os.fspath(folder)!r} "
                    f"({exc.strerror or exc})") from None


def check_folder_writable(path: str | os.PathLike[str], what: str,
                          error: type[ValueError] = OutputError) -> Path:
    """`path` as a Path, after checking that it is (or can be made, with its parents) a folder
    files can be written in."""
    p = Path(path).expanduser()
    shown = os.fspath(path)
    existing = p
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if not existing.is_dir():
        raise error(f"{what} {shown!r}: {os.fspath(existing)!r} is not a folder")
    _probe(existing, what, shown, error)
    return p


def remove_partial(path: str | os.PathLike[str]) -> None:
    """Remove a file whose writing failed, so no partial file looks complete."""
    try:
        Path(path).unlink(missing_ok=True)
    except OSError:
        pass
