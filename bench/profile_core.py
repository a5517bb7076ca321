"""Profile: where a warm event loop's time goes, function by function and instruction by
instruction, with numba's compiled functions named (issue 16: "profile first").

    python bench/profile_core.py SCENARIO [--seconds 10] [--top 25] [--function NAME]
    python bench/profile_core.py box-puck-1024 --function cross_cell

SCENARIO is one of bench/scenarios.py's (novus-opening, novus-midgame, 9-ball-break,
8-ball-break, two-ball-pot, five-pins; their first 4 shots) or a box, box-puck-N or
box-ball-N (one box of N pieces). A child process plays the shots once (loading or compiling
the core), then again and again for `--seconds` under `perf record`, which samples only that
warm loop (`--control`: the child switches the sampling on once its shots are loaded). It prints
the share of the samples in each compiled function (inlined callees count as their caller's),
and with `--function` the hottest instructions of one function, from `objdump`.

numba registers no names with perf, so the child writes them: the object code numba compiles
or loads for each function (its ELF symbol table gives each function's offset and size) and
the address the code was loaded at (from a global symbol of the same object), as a perf map
(/tmp/perf-PID.map, where perf looks for it; removed at the end) and as object files for
objdump, in a temporary folder. Needs Linux `perf` (and `objdump` for `--function`); it reads
numba's private code library API (0.6x), so another numba may need this script adapted. On a
virtual machine without hardware counters perf samples by timer, and a sample may land a few
instructions after where the time went: read the instruction listing as a neighbourhood.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

SHT_SYMTAB, STT_FUNC, STB_LOCAL = 2, 2, 0


# -- the names ------------------------------------------------------------------------------
def elf_functions(obj: bytes) -> list[tuple[str, int, int, int, int]]:
    """The function symbols of a 64-bit little-endian ELF object with a size: (name, binding,
    section index, offset in the section, size)."""
    if obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF object")
    shoff, = struct.unpack_from("<Q", obj, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", obj, shoff + k * shentsize)
                for k in range(shnum)]
    out = []
    for sec in sections:
        if sec[1] != SHT_SYMTAB:
            continue
        strtab_offset = sections[sec[6]][4]
        for k in range(sec[5] // 24):
            name_at, info, _, shndx, value, size = struct.unpack_from("<IBBHQQ",
                                                                     obj, sec[4] + k * 24)
            if info & 0xF != STT_FUNC or size == 0:
                continue
            start = strtab_offset + name_at
            name = obj[start:obj.index(b"\0", start)].decode()
            out.append((name, info >> 4, shndx, value, size))
    return out


def short_name(mangled: str) -> str:
    """`module.function` of a numba symbol (`_ZN6cuesim3sim7predict12predict_near...` ->
    `cuesim.sim.predict.predict_near`); other names as they are."""
    m = re.match(r"_ZN((?:\d+[A-Za-z_]\w*?)+)(?:B\d|E)", mangled)
    if not m:
        return mangled
    parts, rest = [], m.group(1)
    while rest and rest[0].isdigit():
        digits = re.match(r"\d+", rest).group()  # type: ignore[union-attr]
        k = len(digits)
        parts.append(rest[k:k + int(digits)])
        rest = rest[k + int(digits):]
    return ".".join(parts) if parts else mangled


def locate(objects: list[bytes], address_of: Any) -> list[dict[str, Any]]:
    """Each object's functions with their load addresses: a section's load address is the
    address of one of its global symbols less its offset (the most common such difference:
    a symbol defined in several objects resolves to one of them only)."""
    out = []
    for k, obj in enumerate(objects):
        funcs = elf_functions(obj)
        bases: collections.Counter[tuple[int, int]] = collections.Counter()
        for name, binding, shndx, value, _ in funcs:
            if binding != STB_LOCAL:
                address = address_of(name)
                if address:
                    bases[shndx, address - value] += 1
        base_of: dict[int, int] = {}
        for (shndx, base), _ in bases.most_common():
            base_of.setdefault(shndx, base)
        for name, _, shndx, value, size in funcs:
            if shndx in base_of:
                out.append({"address": base_of[shndx] + value, "size": size, "name": name,
                            "object": k, "offset": value})
    return out


class ObjectRecorder:
    """Keeps the object code of every numba code library compiled or loaded after `install`
    (numba's CPUCodeLibrary: private API)."""

    def __init__(self) -> None:
        self.objects: list[bytes] = []

    def install(self) -> None:
        from numba.core import codegen

        lib = codegen.CPUCodeLibrary
        set_compiled, compiled_hook = lib._set_compiled_object, lib._object_compiled_hook.__func__
        objects = self.objects

        def _set_compiled_object(library: Any, value: bytes) -> Any:
            objects.append(value)
            return set_compiled(library, value)

        def _object_compiled_hook(cls: Any, ll_module: Any, buf: bytes) -> Any:
            objects.append(buf)
            return compiled_hook(cls, ll_module, buf)

        lib._set_compiled_object = _set_compiled_object
        lib._object_compiled_hook = classmethod(_object_compiled_hook)

    def write(self, folder: Path) -> list[dict[str, Any]]:
        """The perf map of this process, the objects as files and their index in `folder`."""
        from numba.core.registry import cpu_target

        engine = cpu_target.target_context.codegen()._engine._ee
        objects = [o for o in self.objects if o]
        found = locate(objects, engine.get_function_address)
        for k, obj in enumerate(objects):
            (folder / f"object_{k}.o").write_bytes(obj)
        (folder / "index.json").write_text(json.dumps(found))
        Path(f"/tmp/perf-{os.getpid()}.map").write_text(
            "".join(f"{f['address']:x} {f['size']:x} {f['name']}\n" for f in found))
        return found


# -- the child: a warm loop of the scenario's shots -------------------------------------------
def scenario_inputs(name: str) -> list[Any]:
    from bench import scenarios as sc
    from cuesim.sim.engine import motion_input

    box = re.fullmatch(r"box-(puck|ball)-(\d+)", name)
    if box:
        scenario = sc.box(box.group(1), int(box.group(2)), 1)
    elif name in sc.BUILDERS:
        scenario = sc.BUILDERS[name](4)
    else:
        raise ValueError(name)
    return [motion_input(c.table, c.layout, c.initial, struck=c.struck,
                         max_events=scenario.max_events, check=False) for c in scenario.cases]


def warm(name: str) -> None:
    """Play the scenario's shots once, so that the numba cache holds their code: the recorder
    sees code loaded from the cache (numba binds its hook for freshly compiled code when it
    starts, before the recorder is installed)."""
    from cuesim.sim.engine import run_input

    for inp in scenario_inputs(name):
        run_input(inp)


def child(folder: Path, name: str, seconds: float) -> None:
    recorder = ObjectRecorder()
    recorder.install()
    from cuesim.sim.engine import run_input

    inputs = scenario_inputs(name)
    events = sum(run_input(inp).n_events for inp in inputs)  # loads the core from the cache
    recorder.write(folder)
    with open(folder / "ctl", "w") as ctl, open(folder / "ack") as ack:
        ctl.write("enable\n")
        ctl.flush()
        ack.readline()
        t0, shots = time.perf_counter(), 0
        while time.perf_counter() - t0 < seconds:
            for inp in inputs:
                run_input(inp)
            shots += len(inputs)
        wall = time.perf_counter() - t0
        ctl.write("disable\n")
        ctl.flush()
        ack.readline()
    print(json.dumps({"shots": shots, "events": events * shots // len(inputs), "wall_s": wall,
                      "pid": os.getpid()}))


# -- the parent: record, then name the samples -----------------------------------------------
def record(name: str, seconds: float, folder: Path) -> dict[str, Any]:
    """Warm the cache in a process of its own, then run the child under `perf record`."""
    done = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--warm", name],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the scenario failed: {done.stderr.strip()[-300:]}")
    os.mkfifo(folder / "ctl")
    os.mkfifo(folder / "ack")
    cmd = ["perf", "record", "-q", "-D", "-1", "--control",
           f"fifo:{folder / 'ctl'},{folder / 'ack'}", "-o", str(folder / "perf.data"), "--",
           sys.executable, str(Path(__file__).resolve()), "--child", str(folder), name,
           "--seconds", str(seconds)]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"perf record failed: {(done.stderr or done.stdout).strip()[-300:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def samples(folder: Path) -> list[tuple[int, str]]:
    """(instruction address, symbol) of each sample."""
    done = subprocess.run(["perf", "script", "-i", str(folder / "perf.data"), "-F", "ip,sym"],
                          capture_output=True, text=True, check=True)
    out = []
    for line in done.stdout.splitlines():
        parts = line.split(None, 1)
        if parts:
            out.append((int(parts[0], 16), parts[1].strip() if len(parts) > 1 else "[unknown]"))
    return out


def by_function(samples_: list[tuple[int, str]]) -> list[tuple[str, int]]:
    """Samples per function, the compiled ones by their `module.function`, most first."""
    counts: collections.Counter[str] = collections.Counter()
    for _, sym in samples_:
        counts[short_name(sym)] += 1
    return counts.most_common()


def hot_instructions(folder: Path, samples_: list[tuple[int, str]],
                     found: list[dict[str, Any]], function: str, top: int) -> list[str]:
    """The `top` instructions of the largest compiled function named `function` with the
    most samples, each with its share of the function's samples and the two before it."""
    cands = [f for f in found if short_name(f["name"]).split(".")[-1] == function]
    if not cands:
        raise LookupError(function)
    f = max(cands, key=lambda c: c["size"])
    hist: collections.Counter[int] = collections.Counter()
    for ip, _ in samples_:
        if f["address"] <= ip < f["address"] + f["size"]:
            hist[ip - f["address"] + f["offset"]] += 1
    total = sum(hist.values())
    dis = subprocess.run(["objdump", "-d", "--no-show-raw-insn",
                          f"--start-address={f['offset']}",
                          f"--stop-address={f['offset'] + f['size']}",
                          str(folder / f"object_{f['object']}.o")],
                         capture_output=True, text=True, check=True).stdout
    listing = []
    for line in dis.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s*(.*)", line)
        if m:
            text = re.sub(r"<_ZN[^>]*?(\+0x[0-9a-f]+)?>", lambda g: f"<{g.group(1) or ''}>",
                          m.group(2))
            listing.append((int(m.group(1), 16), " ".join(text.split())))
    rows = [f"{short_name(f['name'])}: {total} samples"]
    order = sorted(range(len(listing)), key=lambda k: -hist.get(listing[k][0], 0))[:top]
    for k in sorted(order):
        for j in range(max(0, k - 2), k + 1):
            a, text = listing[j]
            mark = ">" if j == k else " "
            rows.append(f"{mark}{100 * hist.get(a, 0) / max(total, 1):5.1f}%  {a:6x}  {text}")
        rows.append("")
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scenario", help="novus-opening, 9-ball-break, ... or box-puck-N, "
                                     "box-ball-N")
    ap.add_argument("--seconds", type=float, default=10.0, help="of warm loop sampled (10)")
    ap.add_argument("--top", type=int, default=25, help="functions (and instructions) shown")
    ap.add_argument("--function", help="also the hottest instructions of this compiled "
                                       "function (its name without the module: cross_cell)")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--warm", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    known = re.fullmatch(r"box-(puck|ball)-\d+", args.scenario)
    from bench import scenarios as sc

    if not known and args.scenario not in sc.BUILDERS:
        ap.error(f"scenario: expected one of {', '.join(sc.BUILDERS)}, box-puck-N or "
                 f"box-ball-N, got {args.scenario!r}")
    if not 0.1 <= args.seconds <= 600 or args.top < 1:
        ap.error("--seconds: expected 0.1 to 600; --top: expected 1 or more")
    if args.warm:
        warm(args.scenario)
        return 0
    if args.child:
        child(Path(args.child), args.scenario, args.seconds)
        return 0
    missing = [t for t in ["perf"] + (["objdump"] if args.function else [])
               if shutil.which(t) is None]
    if missing:
        print(f"profile_core: needs {' and '.join(missing)} on the PATH (Linux perf tools, "
              "binutils)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cuesim-profile-") as tmp:
        folder = Path(tmp)
        try:
            run = record(args.scenario, args.seconds, folder)
        except RuntimeError as exc:
            print(f"profile_core: {exc}", file=sys.stderr)
            return 2
        found = json.loads((folder / "index.json").read_text())
        try:
            got = samples(folder)
        finally:
            Path(f"/tmp/perf-{run['pid']}.map").unlink(missing_ok=True)
        print(f"{args.scenario}: {run['shots']} shots, {run['events']} events in "
              f"{run['wall_s']:.1f} s ({run['wall_s'] / max(run['events'], 1) * 1e6:.2f} us "
              f"per event under perf); {len(got)} samples of the warm loop")
        print(f"{'share':>7}  function (compiled ones as module.function; inlined callees "
              "count as their caller's)")
        for name, count in by_function(got)[:args.top]:
            print(f"{100 * count / len(got):6.1f}%  {name}")
        if args.function:
            print()
            try:
                print("\n".join(hot_instructions(folder, got, found, args.function,
                                                 args.top)))
            except LookupError:
                print(f"profile_core: no compiled function {args.function!r} was loaded",
                      file=sys.stderr)
                return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
