"""Regular expressions compiled, and modules imported, on first use, so that importing a module of
the engine costs only what it declares.

`python -m analyzer` reads one paste and exits: a module-level `re.compile()` of a pattern the
paste never needs (a reader that is not tried, a repair that does not apply) is pure start-up
cost, and the engine has hundreds of them. Declare them with `lazy_regex()` instead:

    _ROW_RE = lazy_regex(r"^\\|.*\\|$", re.IGNORECASE)
    ...
    if _ROW_RE.match(line): ...

The object stands for the compiled pattern (typed as `re.Pattern[str]`): its first use compiles
it and keeps the compiled pattern's methods and attributes as its own, so later calls cost what
calls of a compiled pattern cost. `pattern` is there before it is compiled.

A module of the standard library that only a rare path needs (`json` to unescape a logged
string, `html` for an HTML-escaped paste) is declared with `lazy_module()` under the real import
that the type checker reads:

    TYPE_CHECKING = False
    if TYPE_CHECKING:
        import json
    else:
        json = lazy_module("json")
"""

from __future__ import annotations

import re

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType

# What a compiled pattern offers; each is copied onto the stand-in when it is compiled.
_COPIED = (
    "match",
    "fullmatch",
    "search",
    "finditer",
    "findall",
    "sub",
    "subn",
    "split",
    "scanner",
    "groups",
    "groupindex",
    "flags",
)


class _LazyPattern:
    """A pattern and its flags; compiled, and its compiled attributes copied in, when first used."""

    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> object:
        # Only reached for attributes not set yet: the first use of a compiled pattern's attribute.
        if name not in _COPIED:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        compiled = re.compile(self.pattern, self._flags)
        for attribute in _COPIED:
            setattr(self, attribute, getattr(compiled, attribute))
        return getattr(compiled, name)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _LazyPattern):
            return NotImplemented
        return (self.pattern, self._flags) == (other.pattern, other._flags)

    def __hash__(self) -> int:
        return hash((self.pattern, self._flags))

    def __repr__(self) -> str:
        return f"lazy_regex({self.pattern!r}, {self._flags})"


def lazy_regex(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, done on first use (see the module's docstring)."""
    return _LazyPattern(pattern, flags)  # type: ignore[return-value]


class _LazyModule:
    """A module, imported when one of its attributes is first read; each attribute read is kept."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, name: str) -> object:
        from importlib import import_module

        value = getattr(import_module(self._name), name)
        setattr(self, name, value)
        return value

    def __repr__(self) -> str:
        return f"lazy_module({self._name!r})"


def lazy_module(name: str) -> ModuleType:
    """`import name`, done when an attribute of the module is first read (see the module's docstring)."""
    return _LazyModule(name)  # type: ignore[return-value]
