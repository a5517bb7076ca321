"""Loading a cached function's machine code without reading its LLVM bitcode.

numba caches a compiled function as its machine code (an object file) plus the bitcode of its
LLVM module, which it needs only to link the function into a caller it compiles later. On
every load it parses that bitcode and walks the parsed module for the names of the symbols it
defines (the names it later looks the entry point up by). For the event loop that is a
0.4 MB module: 30-45 ms of a fresh process's first shot, for a link that a process playing
shots from the cache never makes.

`unserialize_library` loads the machine code as numba does, takes the defined names from the
object file's own symbol table (ELF: the same names the bitcode defines; a test compares them
for every cached function) and keeps the bitcode unparsed until a link asks for it (the
library's `_shared_module`). Anything else (another object format, a library class without
the attribute) is numba's own load.
"""

from __future__ import annotations

import struct
from typing import Any

from llvmlite import binding as ll

from cuesim.sim import link_only

SHT_SYMTAB = 2  # ELF section type of the symbol table
STT_SECTION, STT_FILE = 3, 4  # ELF symbol types that name no code or data
SHN_UNDEF = 0  # ELF section index of a symbol the object only refers to
ELF_SYM = struct.Struct("<IBBHQQ")  # Elf64_Sym: name, info, other, section, value, size
ELF_SECTION = struct.Struct("<IIQQQQIIQQ")  # Elf64_Shdr


def object_symbols(obj: bytes) -> frozenset[str] | None:
    """The names of the symbols a 64-bit little-endian ELF object file defines (functions and
    data, local ones included: what numba reads from the bitcode); None for anything else."""
    if len(obj) < 64 or obj[:4] != b"\x7fELF" or obj[4] != 2 or obj[5] != 1:
        return None
    try:
        (shoff,) = struct.unpack_from("<Q", obj, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", obj, 0x3A)
        sections = [ELF_SECTION.unpack_from(obj, shoff + k * shentsize) for k in range(shnum)]
        names: set[str] = set()
        for section in sections:
            if section[1] != SHT_SYMTAB:
                continue
            offset, size, link = section[4], section[5], section[6]
            strings = sections[link][4]
            for name, info, _, shndx, _, _ in ELF_SYM.iter_unpack(obj[offset:offset + size]):
                if name == 0 or shndx == SHN_UNDEF or (info & 15) in (STT_SECTION, STT_FILE):
                    continue
                start = strings + name
                names.add(obj[start:obj.index(b"\0", start)].decode())
        return frozenset(names)
    except (struct.error, ValueError, IndexError, UnicodeDecodeError):
        return None


_LAZY_CLASSES: dict[type, type] = {}


def _linking_module(self: Any) -> Any:
    """The library's module for linking into a caller: its bitcode parsed at the first ask."""
    bitcode = self.__dict__.pop("_pending_bitcode", None)
    if bitcode is not None:
        self.__dict__["_linking_module"] = ll.parse_bitcode(bitcode)
    return self.__dict__.get("_linking_module")


def _set_linking_module(self: Any, module: Any) -> None:
    self.__dict__.pop("_pending_bitcode", None)
    self.__dict__["_linking_module"] = module


def lazy_class(base: type) -> type:
    """`base` (numba's code library class) with `_shared_module` parsed when first read."""
    cls = _LAZY_CLASSES.get(base)
    if cls is None:
        cls = type("Lazy" + base.__name__, (base,), {
            "__doc__": "A cached library whose bitcode is parsed only for a link.",
            "_shared_module": property(_linking_module, _set_linking_module)})
        _LAZY_CLASSES[base] = cls
    return cls


def unserialize_library(codegen: Any, state: Any) -> Any:
    """numba's `codegen.unserialize_library(state)` for object-code state, the bitcode left
    unparsed (module docstring); numba's own for anything it cannot do so."""
    name, kind, data = state
    if kind == "bitcode" and isinstance(data, bytes) and hasattr(codegen, "create_library"):
        return link_only.load_bitcode(codegen, name, data)  # a callee's, compiled to link
    engine = getattr(codegen, "_engine", None)
    base = getattr(codegen, "_library_class", None)
    known = (kind == "object" and isinstance(data, tuple) and len(data) == 2
             and all(isinstance(part, bytes) for part in data))  # (machine code, bitcode)
    names = object_symbols(data[0]) if known else None
    if (names is None or not isinstance(getattr(engine, "_defined_symbols", None), set)
            or not hasattr(base, "_finalize_final_module")):
        return type(codegen).unserialize_library(codegen, state)
    library = lazy_class(base)(codegen, name)
    library.enable_object_caching()
    library._set_compiled_object(data[0])
    library._pending_bitcode = data[1]
    library._finalize_final_module()
    engine._defined_symbols |= names
    return library
