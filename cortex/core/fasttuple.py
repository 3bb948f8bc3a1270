"""Core: collections.namedtuple without compiling source per class; used by the audit's record classes.

collections.namedtuple builds each class's `__new__` by compiling the text of a lambda: the parser
and compiler cost about 0.27M instructions a class, and the audit defines about a hundred record
classes on its way in (27M of a 257M run). The compiled constructor depends only on the number of
fields, so this compiles it once per arity, with placeholder names, and gives each class a copy of
that code carrying its own field names (`code.replace`): the same signature, defaults, error
messages and methods as collections.namedtuple's, which anything unusual (rename=, module=, a name
that is not a plain identifier) is still handed to.
"""
from __future__ import annotations

import sys
from collections import namedtuple as _stdlib_namedtuple
from keyword import iskeyword

from _collections import _tuplegetter

_tuple_new = tuple.__new__
_NAMESPACE = {"_tuple_new": _tuple_new, "__builtins__": {}}
_TEMPLATES: dict = {}  # arity -> the compiled constructor's code, fields named _0, _1, ...
_FunctionType = type(lambda: None)


def _template(count: int):
    code = _TEMPLATES.get(count)
    if code is None:
        names = ", ".join(f"_{index}" for index in range(count)) + ("," if count == 1 else "")
        code = _TEMPLATES[count] = eval(f"lambda _cls, {names}: _tuple_new(_cls, ({names}))", _NAMESPACE).__code__
    return code


def _plain(typename: str, field_names: tuple) -> bool:
    return all(name.isidentifier() and not iskeyword(name) for name in (typename, *field_names)) and \
        not any(name.startswith("_") for name in field_names) and len(set(field_names)) == len(field_names)


def namedtuple(typename, field_names, *, defaults=None, **unusual):
    """collections.namedtuple(typename, field_names, defaults=defaults), its constructor compiled once per arity."""
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    field_names = tuple(map(sys.intern, map(str, field_names)))
    typename = sys.intern(str(typename))
    if unusual or not field_names or not _plain(typename, field_names):
        unusual.setdefault("module", sys._getframe(1).f_globals.get("__name__", "__main__"))
        return _stdlib_namedtuple(typename, field_names, defaults=defaults, **unusual)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(field_names):
            raise TypeError("Got more default values than field names")
        field_defaults = dict(reversed(list(zip(reversed(field_names), reversed(defaults)))))
    num_fields = len(field_names)
    arg_list = ", ".join(field_names) + ("," if num_fields == 1 else "")
    repr_fmt = "(" + ", ".join(f"{name}=%r" for name in field_names) + ")"
    _dict, _tuple, _len, _map, _zip = dict, tuple, len, map, zip

    code = _template(num_fields).replace(co_varnames=("_cls", *field_names), co_name="__new__",
                                         co_qualname=f"{typename}.__new__")
    namespace = {"_tuple_new": _tuple_new, "__builtins__": {}, "__name__": f"namedtuple_{typename}"}
    __new__ = _FunctionType(code, namespace, "__new__", defaults)
    __new__.__doc__ = f"Create new instance of {typename}({arg_list})"

    @classmethod
    def _make(cls, iterable):
        result = _tuple_new(cls, iterable)
        if _len(result) != num_fields:
            raise TypeError(f"Expected {num_fields} arguments, got {len(result)}")
        return result

    _make.__func__.__doc__ = f"Make a new {typename} object from a sequence or iterable"

    def _replace(self, /, **kwds):
        result = self._make(_map(kwds.pop, field_names, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    _replace.__doc__ = f"Return a new {typename} object replacing specified fields with new values"

    def __repr__(self):
        "Return a nicely formatted representation string"
        return self.__class__.__name__ + repr_fmt % self

    def _asdict(self):
        "Return a new dict which maps field names to their values."
        return _dict(_zip(self._fields, self))

    def __getnewargs__(self):
        "Return self as a plain tuple.  Used by copy and pickle."
        return _tuple(self)

    for method in (__new__, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
        method.__qualname__ = f"{typename}.{method.__name__}"

    class_namespace = {
        "__doc__": f"{typename}({arg_list})",
        "__slots__": (),
        "_fields": field_names,
        "_field_defaults": field_defaults,
        "__new__": __new__,
        "_make": _make,
        "_replace": _replace,
        "__repr__": __repr__,
        "_asdict": _asdict,
        "__getnewargs__": __getnewargs__,
        "__match_args__": field_names,
    }
    for index, name in enumerate(field_names):
        class_namespace[name] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
    result = type(typename, (tuple,), class_namespace)
    result.__module__ = sys._getframe(1).f_globals.get("__name__", "__main__")
    return result
