"""`dataclass`, `field` and `replace` for the engine's data classes, without the start-up cost of
the standard `dataclasses`.

Importing `dataclasses` imports `inspect` (and with it `ast`, `dis`, `tokenize`…), and it compiles
three to five methods for every class; on a short paste `python -m analyzer` spent more CPU time on
that than on everything else it does. This module does what the engine asks of it, with the same
meaning: fields with defaults, `field(default_factory=…)`, `field(init=False)`, `__post_init__`,
`slots=True`, `frozen=True` and `eq=False`. Only `__init__` is compiled for each class, when the
first instance is made (so a class a paste does not need costs nothing, and making an instance
costs what it costs with `dataclasses`); equality, the hash of a frozen class and `repr()` are
shared methods that read the fields. Type checkers read the standard module, whose
rules are the same for these options.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import FrozenInstanceError, dataclass, field, replace
else:
    from operator import attrgetter

    _MISSING = object()

    class FrozenInstanceError(AttributeError):
        """An assignment to a field of a frozen data class."""

    class _Field:
        __slots__ = ("default", "default_factory", "init", "name")

        def __init__(self, default=_MISSING, default_factory=_MISSING, init=True):
            self.default = default
            self.default_factory = default_factory
            self.init = init
            self.name = ""

    def field(*, default=_MISSING, default_factory=_MISSING, init=True):
        """A field's default (or the function making it) and whether `__init__` takes it."""
        return _Field(default, default_factory, init)

    def dataclass(cls=None, /, *, eq=True, frozen=False, slots=False):
        """The class with `__init__`, `__repr__`, and unless `eq=False` `__eq__`, made from its
        annotated fields; `frozen` forbids assigning to them, `slots` gives it `__slots__`."""

        def wrap(cls):
            return _process(cls, eq, frozen, slots)

        return wrap if cls is None else wrap(cls)

    def replace(obj, /, **changes):
        """A copy of the data class instance `obj` with the fields in `changes` set anew."""
        for spec in type(obj).__struct_fields__:
            if spec.init and spec.name not in changes:
                changes[spec.name] = getattr(obj, spec.name)
        return type(obj)(**changes)

    def _process(cls, eq, frozen, slots):
        fields = _fields(cls)
        names = tuple(spec.name for spec in fields)
        owner = [cls]  # the class made, for `__init__` to find
        methods = {
            "__struct_fields__": fields,
            "__match_args__": tuple(spec.name for spec in fields if spec.init),
            "__init__": _first_init(owner, fields, frozen),
            "__repr__": _repr(names),
        }
        if eq:
            key = _key(names)
            methods["__eq__"] = _eq(key)
            methods["__hash__"] = _hash(key) if frozen else None
        if frozen:
            methods["__setattr__"] = methods["__delattr__"] = _refuse
        if slots:
            # A new class, as `dataclasses` makes: the fields are slots, their defaults are in `__init__`.
            namespace = {name: value for name, value in cls.__dict__.items() if name not in names}
            namespace.pop("__dict__", None)
            namespace.pop("__weakref__", None)
            made = type(cls)(cls.__name__, cls.__bases__, {**namespace, **methods, "__slots__": names})
            made.__qualname__ = cls.__qualname__
            owner[0] = made
            return made
        for spec in fields:
            # As with `dataclasses`, the class keeps plain defaults as attributes, not `field()`s.
            if spec.default is not _MISSING:
                setattr(cls, spec.name, spec.default)
            elif spec.name in cls.__dict__:
                delattr(cls, spec.name)
        for name, value in methods.items():
            setattr(cls, name, value)
        return cls

    def _key(names):
        """What equality and the hash compare: the tuple of the fields' values."""
        if len(names) == 1:
            get = attrgetter(names[0])
            return lambda obj: (get(obj),)
        return attrgetter(*names) if names else (lambda obj: ())

    def _fields(cls):
        fields = []
        for name in cls.__dict__.get("__annotations__", {}):
            value = cls.__dict__.get(name, _MISSING)
            spec = value if isinstance(value, _Field) else _Field(default=value)
            spec.name = name
            fields.append(spec)
        return tuple(fields)

    def _first_init(owner, fields, frozen):
        """An `__init__` that compiles the real one for the class in `owner`, puts it in its place
        and runs it."""

        def __init__(self, *args, **kwargs):
            cls = owner[0]
            init = _init(cls, fields, frozen)
            init.__qualname__ = f"{cls.__qualname__}.__init__"
            cls.__init__ = init
            init(self, *args, **kwargs)

        return __init__

    def _init(cls, fields, frozen):
        """`__init__`, compiled from its source as `dataclasses` makes it."""
        scope = {"_MISSING": _MISSING, "_set": object.__setattr__}
        parameters = []
        body = []
        for spec in fields:
            value = spec.name
            if spec.default is not _MISSING:
                scope[f"_default_{spec.name}"] = spec.default
                default = f"_default_{spec.name}"
            elif spec.default_factory is not _MISSING:
                scope[f"_factory_{spec.name}"] = spec.default_factory
                default = "_MISSING"
                call = f"_factory_{spec.name}()"
                value = f"{call} if {spec.name} is _MISSING else {spec.name}" if spec.init else call
            else:
                default = None
            if spec.init:
                parameters.append(spec.name if default is None else f"{spec.name}={default}")
            elif default is None:
                continue  # set by `__post_init__`, or never
            elif spec.default is not _MISSING:
                value = default
            body.append(f"_set(self, {spec.name!r}, {value})" if frozen else f"self.{spec.name} = {value}")
        if "__post_init__" in cls.__dict__:
            body.append("self.__post_init__()")
        source = f"def __init__(self, {', '.join(parameters)}):\n    " + "\n    ".join(body or ["pass"])
        exec(source, scope)
        return scope["__init__"]

    def _repr(names):
        def __repr__(self):
            shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
            return f"{type(self).__qualname__}({shown})"

        return __repr__

    def _eq(key):
        def __eq__(self, other):
            if other.__class__ is not self.__class__:
                return NotImplemented
            return key(self) == key(other)

        return __eq__

    def _hash(key):
        def __hash__(self):
            return hash(key(self))

        return __hash__

    def _refuse(self, name, *value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}")


__all__ = ["FrozenInstanceError", "dataclass", "field", "replace"]
