"""Operations typed once per compile session (`cuesim.sim.typing_memo`, issue 16's cold
start): the memo answers only during a core compile, only for numbers, booleans, arrays and
tuples of them, and gives the typing, the lowering and the machine code numba gives without
it."""

from __future__ import annotations

import math
import operator
import re

import numpy as np
from numba import njit, types
from numba.core.registry import cpu_target

from cuesim.sim import typing_memo


def _mixed(a: float, b: float, n: int, g: np.ndarray) -> float:
    """Arithmetic of the core's kinds: mixed int and float, powers, comparisons, builtins and
    math calls, array reads and writes with constant columns, each repeated."""
    s = g[0, 1]
    for k in range(n):
        g[k % 2, 0] = g[k % 2, 1] * k
        x = a * k + b / (k + 1)
        y = x * x - a ** 2 + (k % 3) * b
        if x < y and k >= 1:
            s += min(x, y) + abs(y - x) + math.sqrt(abs(x) + 1.0)
        else:
            s -= max(x, 0.5 * y) ** 1.5 + math.copysign(1.0, y) * (k // 2)
    return s


def _normalised_ir(dispatcher: object, sig: tuple[object, ...]) -> str:
    """The optimised LLVM IR of `sig`, with numba's per-compile unique ids taken out of the
    symbol names (and the lengths of the strings that name them)."""
    ir = dispatcher.inspect_llvm(sig)  # type: ignore[attr-defined]
    return re.sub(r"\[\d+ x i8\] c\"", '[_ x i8] c"', re.sub(r"B\d+v\d+B", "B_B", ir))


def test_repeated_scalar_operations_are_typed_from_the_memo():
    """A core-style compile (`install`) fills the memo with the plain scalar operations it
    typed; the function gives what its Python source gives."""
    routed = njit(no_cfunc_wrapper=True)(_mixed)
    typing_memo.install(routed)
    assert routed(0.3, 1.7, 9, np.ones((2, 2))) == _mixed(0.3, 1.7, 9, np.ones((2, 2)))
    context = cpu_target.typing_context
    mul = context.resolve_value_type(operator.mul)
    assert any(key[:3] == (mul, context, (types.float64, types.float64))
               for key in typing_memo._MEMO)


def test_the_memo_gives_the_machine_code_numba_gives(monkeypatch):
    """The same function compiled with the memo answering every scalar operation (a second
    compile after a first filled it) and compiled by numba alone: the same LLVM IR, names
    aside. A compile without the runtime, first, filled the memo with implementations
    compiled for its flags, which a compile with other flags must not get."""
    monkeypatch.setattr(typing_memo, "_MEMO", {})  # filled first by the compile without
    sig = (types.float64, types.float64, types.int64, types.float64[:, ::1])
    for options in ({"_nrt": False}, {"nogil": True}, {}):
        first = njit(no_cfunc_wrapper=True, **options)(_mixed)
        typing_memo.install(first)
        first.compile(sig)
    remembered = njit(no_cfunc_wrapper=True)(_mixed)
    typing_memo.install(remembered)
    hits = typing_memo._STATE["hits"]
    remembered.compile(sig)
    assert typing_memo._STATE["hits"] >= hits + 20  # every scalar operation of `_mixed`
    plain = njit(no_cfunc_wrapper=True)(_mixed)
    plain.compile(sig)
    ir = _normalised_ir(plain, sig)
    # the IR holds the function's arithmetic (a square root is `llvm.sqrt`, or libm's `sqrt`
    # under numba 0.59's LLVM 14)
    assert "fmul double" in ir and ("llvm.sqrt" in ir or "@sqrt(" in ir)
    assert _normalised_ir(remembered, sig) == ir


def test_outside_a_core_compile_numba_resolves_as_always():
    """A plain `njit` function's compile never consults nor fills the memo."""

    def flip(x, y):  # an operation no core function uses
        return x ^ y

    plain = njit(flip)
    assert plain(9, 3) == 10
    context = cpu_target.typing_context
    xor = context.resolve_value_type(operator.xor)
    assert not any(key[:3] == (xor, context, (types.int64, types.int64))
                   for key in typing_memo._MEMO)


def test_a_hit_records_the_implementation_key_again_and_literals_are_keyed_by_value():
    """numba's resolution records the implementation of each signature for the lowering at
    every call; a hit records what the first resolution recorded. A literal argument (whose
    typing may depend on its value) is keyed by its value; a string goes to numba."""
    typing_memo._patch()
    context = cpu_target.typing_context
    add = context.resolve_value_type(operator.add)
    args = (types.float64, types.float64)
    typing_memo._ACTIVE.depth = getattr(typing_memo._ACTIVE, "depth", 0) + 1
    try:
        sig = add.get_call_type(context, args, {})
        impl = add._impl_keys[sig.args]
        add._impl_keys[sig.args] = "something else"
        assert add.get_call_type(context, args, {}) == sig
        assert add._impl_keys[sig.args] == impl
        power = context.resolve_value_type(operator.pow)
        for exponent in (2, 3):
            power.get_call_type(context, (types.float64, types.IntegerLiteral(exponent)), {})
        keyed = {key[2] for key in typing_memo._MEMO if key[0] is power}
        assert {(types.float64, types.IntegerLiteral(e)) for e in (2, 3)} <= keyed
        text = (types.unicode_type, types.unicode_type)
        add.get_call_type(context, text, {})
        assert not any(key[2] == text for key in typing_memo._MEMO)
    finally:
        typing_memo._ACTIVE.depth -= 1


def test_a_numba_without_what_it_uses_keeps_its_own_typing(monkeypatch):
    monkeypatch.setattr(typing_memo, "supported", lambda: False)
    plain = njit(_mixed)
    typing_memo.install(plain)
    assert "compile" not in vars(plain)
