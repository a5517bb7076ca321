"""Keep numba's on-disk cache honest.

numba's `cache=True` checks only the source file of the function it loads: when a callee in
another module changes (a resolve or detect model), the cached event loop silently keeps the
old code. At import, a digest of every source file of the core is compared with the stamp
kept beside the cache; if they differ, the core's cached machine code is deleted, so it is
compiled again from the current sources.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent
STAMP = ROOT / "__pycache__" / "cuesim-numba-sources.sha256"


def source_digest(root: Path = ROOT) -> str:
    """sha256 over the core's Python sources (relative path and contents)."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def refresh(root: Path = ROOT, stamp: Path = STAMP) -> bool:
    """Delete stale numba cache files under `root` when its sources changed since the stamp
    was written. Returns True when files were deleted. Unwritable installs are left alone."""
    digest = source_digest(root)
    try:
        if stamp.read_text() == digest:
            return False
    except OSError:
        pass
    removed = False
    try:
        for cached in list(root.rglob("__pycache__/*.nbi")) + list(root.rglob("__pycache__/*.nbc")):
            cached.unlink(missing_ok=True)
            removed = True
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:
        return removed
    return removed


refresh()
