"""The helper process of a cold start (`parallel_compile`): compiles the roots it is given into
the shared numba cache, one after the other, and prints "module name" for each as it is cached.

    python -m cuesim.sim.parallel_compile_helper <the parent's cuesim/sim folder> \
        module:name:codes ...    (codes: the argument types, `parallel_compile.signature`)

It compiles nothing if this interpreter imports another copy of the core than the parent's
(exit status 3): its cache would be another folder. A root that fails to compile ends it
(exit status 1); the parent compiles what is left.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    import cuesim.sim
    from cuesim.sim.parallel_compile import signature

    if not argv or Path(cuesim.sim.__file__).resolve().parent != Path(argv[0]).resolve():
        return 3
    for root in argv[1:]:
        try:
            module, name, codes = root.split(":")
            getattr(importlib.import_module(module), name).compile(signature(codes))
        except Exception:  # the parent compiles it instead
            return 1
        print(module, name, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
