"""Every public name of the API has a docstring (issue 15): the functions and classes the
package exports, and their public methods and properties."""

from __future__ import annotations

import importlib
import inspect

import pytest

MODULES = ["cuesim", "cuesim.api", "cuesim.shot", "cuesim.tables", "cuesim.tables.layout",
           "cuesim.sim.result", "cuesim.viewer.assets", "cuesim.viewer.sound",
           "cuesim.viewer.export", "cuesim.viewer.ai"]


def _undocumented(module_name: str) -> list[str]:
    mod = importlib.import_module(module_name)
    names = getattr(mod, "__all__", [n for n in dir(mod) if not n.startswith("_")])
    missing = []
    for name in names:
        obj = getattr(mod, name, None)
        if not (inspect.isfunction(obj) or inspect.isclass(obj)):
            continue
        if not getattr(obj, "__module__", "").startswith("cuesim"):
            continue
        if not (obj.__doc__ or "").strip():
            missing.append(name)
        if inspect.isclass(obj):
            for attr, value in vars(obj).items():
                if attr.startswith("_"):
                    continue
                fn = value.fget if isinstance(value, property) else getattr(value, "__func__",
                                                                             value)
                if inspect.isfunction(fn) and not (fn.__doc__ or "").strip():
                    missing.append(f"{name}.{attr}")
    return missing


@pytest.mark.parametrize("module_name", MODULES)
def test_public_names_have_docstrings(module_name):
    assert _undocumented(module_name) == []
