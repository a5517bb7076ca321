"""python -m cuesim.rules.novus SCENARIO.json: print the ruling as JSON."""

from __future__ import annotations

import json
import sys

from cuesim.rules.novus.scenario import adjudicate_file
from cuesim.tables.layout import one_line


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m cuesim.rules.novus SCENARIO.json", file=sys.stderr)
        return 2
    try:
        out = adjudicate_file(args[0])
    except ValueError as exc:
        print(f"error: {one_line(str(exc))}", file=sys.stderr)
        return 2
    print(json.dumps(out, indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
