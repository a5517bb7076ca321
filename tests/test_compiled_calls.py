"""How the compiled core calls itself (sim/compiled.py)."""

from __future__ import annotations

import ast
from pathlib import Path

SIM = Path(__file__).resolve().parents[1] / "sim"
DECORATORS = {"njit_core", "njit_norc"}
MAX_ARGS = 30  # CPython's STACK_USE_GUIDELINE: a longer call is compiled as f(*tuple)


def _compiled_functions(tree: ast.Module) -> list[ast.FunctionDef]:
    def named(d: ast.expr) -> str:
        d = d.func if isinstance(d, ast.Call) else d
        return d.id if isinstance(d, ast.Name) else getattr(d, "attr", "")

    return [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef)
            and any(named(d) in DECORATORS for d in f.decorator_list)]


def test_compiled_functions_call_with_at_most_30_arguments():
    """A call of more than 30 arguments is compiled by CPython as f(*tuple); numba then builds
    the tuple in the calling function, one atomic reference count up and down per array at
    every call: in the event loop that was 60 per event, 9-17 % of a box shot's time."""
    long_calls = []
    for path in sorted(SIM.rglob("*.py")):
        tree = ast.parse(path.read_text(), str(path))
        for fn in _compiled_functions(tree):
            for call in ast.walk(fn):
                if isinstance(call, ast.Call) and len(call.args) + len(call.keywords) > MAX_ARGS:
                    long_calls.append(f"{path.name}:{call.lineno} in {fn.name}")
    assert not long_calls, long_calls


def test_the_scan_sees_the_event_loop():
    tree = ast.parse((SIM / "loop.py").read_text())
    assert "run_events_grid" in {f.name for f in _compiled_functions(tree)}


def test_compiles_run_with_the_collector_eased_and_restore_it():
    """`collector_eased_compiles`: a compile (and the callees' compiles nested in it) runs at
    COMPILE_GC_THRESHOLDS; the thresholds the process had come back after the outermost one,
    also when it raises."""
    import gc

    import pytest

    from cuesim.sim.compiled import COMPILE_GC_THRESHOLDS, collector_eased_compiles

    seen = []

    class Dispatcher:
        def __init__(self, inner=None, fail=False):
            self.inner, self.fail = inner, fail

        def compile(self, sig):
            seen.append(gc.get_threshold())
            if self.inner is not None:
                self.inner.compile(sig)
            if self.fail:
                raise RuntimeError("typing failed")
            return sig

    callee = Dispatcher()
    caller = Dispatcher(inner=callee)
    for d in (callee, caller):
        collector_eased_compiles(d)
    before = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    try:
        assert caller.compile("sig") == "sig"
        assert seen == [COMPILE_GC_THRESHOLDS, COMPILE_GC_THRESHOLDS]
        assert gc.get_threshold() == (1234, 5, 6)
        failing = Dispatcher(fail=True)
        collector_eased_compiles(failing)
        with pytest.raises(RuntimeError):
            failing.compile("sig")
        assert gc.get_threshold() == (1234, 5, 6)
    finally:
        gc.set_threshold(*before)
