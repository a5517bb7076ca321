"""Output files of the command line and the API: checked before any work starts.

`check_writable` refuses, in one line naming the option and the path, an output that cannot be
written: a missing or read-only folder, a folder given as the file, an existing file that is not
a regular file (a device, a socket) or that is read-only. It probes the folder by creating and
removing a temporary file, so it is right for every user (root included) and file system (a
read-only mount). A disk that fills up later is reported by the writer itself (OSError):
`write_atomic` writes through a temporary file (flushed and fsynced, so a full disk shows before
the rename) and leaves nothing under the final name when it fails, and `remove_partial` cleans
up after writers that cannot do that.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from cuesim.tables.jsonfile import file_path


class OutputError(ValueError):
    """An output file that cannot be written (the message names the option and the path)."""


def same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether two paths name one file (through links, `~`, `..` and relative paths; a file
    that does not exist yet by its resolved path): an output that is an input, or two outputs
    on one path, would destroy a file."""
    a, b = os.path.expanduser(a), os.path.expanduser(b)
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def check_writable(path: str | os.PathLike[str], what: str,
                   error: type[ValueError] = OutputError) -> Path:
    """`path` as a Path, after checking that a file can be written there; `what` names the
    option (e.g. '--screenshot') in the message. Raises `error` (an OutputError by default)."""
    p = file_path(path, what, error).expanduser()
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
        # a folder that exists and still answers "no such file" (/proc, /sys) takes no files:
        # the OS's reason would mislead
        why = ("it takes no new files" if exc.errno == errno.ENOENT and folder.is_dir()
               else exc.strerror or str(exc))
        raise error(f"{what} {shown!r}: cannot write in the folder {os.fspath(folder)!r} "
                    f"({why})") from None


def check_folder_writable(path: str | os.PathLike[str], what: str,
                          error: type[ValueError] = OutputError) -> Path:
    """`path` as a Path, after checking that it is (or can be made, with its parents) a folder
    files can be written in."""
    p = file_path(path, what, error).expanduser()
    shown = os.fspath(path)
    if not shown.strip():  # Path('') is '.', yet an empty option reads as "none" downstream
        raise error(f"{what} {shown!r}: give a folder name ('.' for this one)")
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


def write_atomic(path: str | os.PathLike[str], data: bytes | str) -> None:
    """Write `data` (text as UTF-8) to `path` whole or not at all: into a temporary file in the
    same folder, flushed and fsynced (a full disk may only show there), then renamed over
    `path`. On failure the temporary is removed, an existing `path` is left as it was, and the
    OSError is raised with `filename` = `path`, so callers can name what could not be written."""
    final = Path(path)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = final.with_name(f".{final.name}.tmp-{os.getpid()}")
    try:
        with open(tmp, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, final)
    except OSError as exc:
        raise OSError(exc.errno, exc.strerror or str(exc), os.fspath(path)) from None
    finally:
        tmp.unlink(missing_ok=True)
