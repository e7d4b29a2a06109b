"""`analyzer.structs` behaves as the standard `dataclasses` for the options the engine uses, and
`analyzer.lazy` compiles and imports on first use."""

from __future__ import annotations

import dataclasses
import re
import sys

import pytest

from analyzer import lazy, structs


def _declare(module):
    """The same classes, declared with `module`'s `dataclass` and `field`."""
    dataclass, field = module.dataclass, module.field

    @dataclass
    class Plain:
        name: str
        count: int = 0
        items: list[str] = field(default_factory=list)
        derived: int = field(init=False)
        seen: bool = field(default=False, init=False)

        def __post_init__(self) -> None:
            self.derived = self.count * 2

    @dataclass(slots=True)
    class Slotted:
        a: int
        b: list[int] = field(default_factory=lambda: [1])
        c: str | None = None

    @dataclass(frozen=True)
    class Frozen:
        x: int
        y: str = "y"

    @dataclass(frozen=True, slots=True)
    class FrozenSlotted:
        x: int

    @dataclass(slots=True, eq=False)
    class ByIdentity:
        x: int

    return Plain, Slotted, Frozen, FrozenSlotted, ByIdentity


def _state(obj):
    names = [n for n in ("name", "count", "items", "derived", "seen", "a", "b", "c", "x", "y") if hasattr(obj, n)]
    return {name: getattr(obj, name) for name in names}


@pytest.mark.parametrize("module", [dataclasses, structs], ids=["dataclasses", "structs"])
def test_the_same_as_the_standard_module(module):
    Plain, Slotted, Frozen, FrozenSlotted, ByIdentity = _declare(module)
    plain = Plain("n", 3)
    assert _state(plain) == {"name": "n", "count": 3, "items": [], "derived": 6, "seen": False}
    assert plain == Plain("n", 3) and plain != Plain("n", 4) and plain != "n"
    assert Plain("n").items is not Plain("n").items
    assert Plain.count == 0 and "items" not in Plain.__dict__
    assert repr(Plain("n", items=["i"])).endswith("Plain(name='n', count=0, items=['i'], derived=0, seen=False)")
    with pytest.raises(TypeError):
        hash(plain)
    with pytest.raises(TypeError):
        Plain("n", derived=1)
    copy = module.replace(plain, count=5)
    assert _state(copy) == {"name": "n", "count": 5, "items": [], "derived": 10, "seen": False}

    slotted = Slotted(1)
    assert _state(slotted) == {"a": 1, "b": [1], "c": None}
    assert not hasattr(slotted, "__dict__") and Slotted.__slots__ == ("a", "b", "c")
    assert Slotted.__match_args__ == ("a", "b", "c")
    with pytest.raises(AttributeError):
        slotted.other = 1

    frozen = Frozen(1)
    assert hash(frozen) == hash(Frozen(1)) and {frozen: 1}[Frozen(1)] == 1
    with pytest.raises(AttributeError):
        frozen.x = 2
    with pytest.raises(AttributeError):
        FrozenSlotted(1).x = 2
    assert FrozenSlotted(1) == FrozenSlotted(1)
    assert ByIdentity(1) != ByIdentity(1)


def test_lazy_regex_compiles_on_first_use():
    pattern = lazy.lazy_regex(r"a+(b)", re.IGNORECASE)
    assert "match" not in vars(pattern) and pattern.pattern == r"a+(b)"
    assert pattern.match("AAb").group(1) == "b"
    assert "match" in vars(pattern)
    assert pattern.sub("x", "ab ab") == "x x" and pattern.groups == 1 and pattern.flags & re.IGNORECASE
    assert pattern == lazy.lazy_regex(r"a+(b)", re.IGNORECASE) != lazy.lazy_regex(r"a+(b)")
    with pytest.raises(AttributeError):
        getattr(pattern, "no_such_method")  # noqa: B009


def test_lazy_module_imports_on_first_use():
    name = "this_module_is_not_there"
    module = lazy.lazy_module(name)
    assert name not in sys.modules
    with pytest.raises(ModuleNotFoundError):
        module.anything  # noqa: B018
    assert lazy.lazy_module("colorsys").rgb_to_hsv(0, 0, 0) == (0.0, 0.0, 0.0)
