"""Where numba keeps the core's compiled code, and keeping that cache honest.

Location. numba writes a `cache=True` function's machine code beside its source
(`__pycache__/*.nbi`, `*.nbc`) unless `numba.config.CACHE_DIR` is set when the function is
decorated (its `UserProvidedCacheLocator` then stores it under
`CACHE_DIR/<source folder>_<sha1 of the folder's absolute path>/`). Writing into the source tree
or site-packages breaks installs (pip leaves the files behind, and the leftover folder hides a
later editable install), so the core's functions are decorated inside `core_cache_dir()`, which
points numba at the user's cache directory: `$NUMBA_CACHE_DIR` if set, else
`$XDG_CACHE_HOME/cuesim/numba`, else `~/.cache/cuesim/numba` (XDG Base Directory spec).

Staleness. numba's `cache=True` checks only the source file of the function it loads: when a
callee in another module changes (a resolve or detect model), the cached event loop silently
keeps the old code. At import, a digest of every source file of the core is compared with a
stamp kept in the cache directory, one stamp per installed copy of the core (keyed by its
absolute path, as numba keys its cache folders); if they differ, that copy's cached machine code
is deleted, so it is compiled again from the current sources.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from numba.core import config

ROOT = Path(__file__).resolve().parent


def _cache_subpath(source: str) -> str:
    """numba's folder name for the cache of a source file under CACHE_DIR: the source
    folder's name and the sha1 of its absolute path (`_CacheLocator.get_suitable_cache_subpath`,
    whose own function is used when numba still has it)."""
    try:
        from numba.core.caching import _CacheLocator
    except ImportError:
        folder = os.path.dirname(os.path.abspath(source))
        digest = hashlib.sha1(folder.encode()).hexdigest()
        return "_".join([os.path.split(folder)[-1], digest])
    return _CacheLocator.get_suitable_cache_subpath(source)


def cache_dir() -> Path:
    """The folder numba caches the core in: NUMBA_CACHE_DIR, else XDG_CACHE_HOME/cuesim/numba,
    else ~/.cache/cuesim/numba (a relative XDG_CACHE_HOME is ignored, as the XDG spec says)."""
    explicit = os.environ.get("NUMBA_CACHE_DIR", "")
    if explicit:
        return Path(explicit).expanduser().resolve()
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "cuesim" / "numba"


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def usable_cache_dir() -> Path:
    """`cache_dir()`, or when it cannot be written (a read-only home) a per-user folder in
    the temporary directory: numba would otherwise fall back to writing beside the sources."""
    folder = cache_dir()
    if _writable(folder):
        return folder
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"cuesim-numba-{uid}"


_MEMO: dict[str, Path] = {}


@contextmanager
def core_cache_dir(memo: bool = False) -> Iterator[Path]:
    """Within the block, functions decorated with `cache=True` cache under
    `usable_cache_dir()`; numba's setting is restored afterwards, so other numba code in the
    process is untouched. `memo`: reuse the folder this process found first (its check writes a
    file; the core's decorators use it once per compiled function)."""
    if memo:
        folder = _MEMO.get("folder") or _MEMO.setdefault("folder", usable_cache_dir())
    else:
        folder = usable_cache_dir()
    previous = config.CACHE_DIR
    config.CACHE_DIR = str(folder)
    try:
        yield folder
    finally:
        config.CACHE_DIR = previous


def source_digest(root: Path = ROOT) -> str:
    """sha256 over the core's Python sources (relative path and contents)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def cache_folders(root: Path = ROOT, cache: Path | None = None) -> list[Path]:
    """numba's cache folder for every source folder of `root` (the locator's own naming)."""
    cache = cache_dir() if cache is None else cache
    folders = sorted({path.parent for path in root.rglob("*.py")})
    return [cache / _cache_subpath(str(f / "x.py")) for f in folders]


def stamp_path(root: Path = ROOT, cache: Path | None = None) -> Path:
    """The sources stamp of the copy of the core at `root`: one per checkout or install, so two
    copies sharing a cache directory never clobber each other's stamp."""
    cache = cache_dir() if cache is None else cache
    key = hashlib.sha1(str(root.resolve()).encode()).hexdigest()[:16]
    return cache / f"cuesim-sources-{key}.sha256"


def refresh(root: Path = ROOT, cache: Path | None = None) -> bool:
    """Delete the cached machine code of the core at `root` when its sources changed since the
    stamp was written. Returns True when files were deleted. An unwritable cache is left alone
    (numba then compiles in memory)."""
    cache = cache_dir() if cache is None else cache
    stamp = stamp_path(root, cache)
    digest = source_digest(root)
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    removed = False
    try:
        for folder in cache_folders(root, cache):
            for cached in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
                cached.unlink(missing_ok=True)
                removed = True
        cache.mkdir(parents=True, exist_ok=True)
        partial = stamp.with_suffix(f".{os.getpid()}.tmp")
        partial.write_text(digest)
        os.replace(partial, stamp)  # atomic: a concurrent reader never sees half a stamp
    except OSError:
        return removed
    return removed
