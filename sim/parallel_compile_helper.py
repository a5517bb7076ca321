"""The helper process of a cold start (`parallel_compile`): compiles the roots it is given into
the shared numba cache, one after the other, and prints "module name" for each as it is cached.

    python -m cuesim.sim.parallel_compile_helper <the parent's cuesim/sim folder> \
        <its sources' digest> module:name:codes ...    (codes: `parallel_compile.signature`)

It compiles nothing (exit status 3) if this interpreter imports another copy of the core than
the parent's (its cache would be another folder), or if the sources changed since the parent
read them (it would cache code the parent does not run). A root that fails to compile ends
it (exit status 1); the parent compiles what is left.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def main(argv: list[str]) -> int:
    import cuesim.sim
    from cuesim.sim.link_only import for_linking
    from cuesim.sim.numba_cache import source_digest
    from cuesim.sim.parallel_compile import signature

    here = Path(cuesim.sim.__file__).resolve().parent
    if len(argv) < 2 or here != Path(argv[0]).resolve() or source_digest(here) != argv[1]:
        return 3
    for root in argv[2:]:
        try:
            module, name, codes = root.split(":")
            with for_linking():  # only ever linked into the parent's loop: no machine code
                getattr(importlib.import_module(module), name).compile(signature(codes))
        except Exception:  # the parent compiles it instead
            return 1
        print(module, name, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
