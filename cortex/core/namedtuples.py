"""Core: collections.namedtuple's classes, without importing collections.

`collections` (and functools, which imports it) cost the audit ~10M instructions; its records
that use tuple behaviour (_replace, _asdict, equality, immutability) are made here instead: the
class namedtuple makes, built the same way (the generated __new__ with its defaults, _make,
_replace, __repr__, _asdict, __getnewargs__, __match_args__, the C field accessors), for field
names that are valid already (ours are literals: namedtuple's name checks and `rename` are left
out). tests/cortex/test_namedtuples.py compares the two.

namedtuple compiles its __new__ from source (`eval`, ~0.25M instructions a class, ~0.7M for 16
fields); here the same lambda for up to twelve fields comes compiled with this module, its argument
names set on a copy of its code, so the function is the one eval would make. A caller with more
fields passes its own, written in source (`new`: `_tuple_new(_cls, (fields...))`, as in
cortex.core.records), rather than pay the compile.
"""
from __future__ import annotations

import sys
from _collections import _tuplegetter  # the field accessor collections.namedtuple uses


# namedtuple's `lambda _cls, <fields>: _tuple_new(_cls, (<fields>))`, by number of fields (a..l stand for them).
_NEW = (None,
        lambda _cls, a: _tuple_new(_cls, (a,)),  # noqa: F821 - _tuple_new: the globals each copy is given
        lambda _cls, a, b: _tuple_new(_cls, (a, b)),  # noqa: F821
        lambda _cls, a, b, c: _tuple_new(_cls, (a, b, c)),  # noqa: F821
        lambda _cls, a, b, c, d: _tuple_new(_cls, (a, b, c, d)),  # noqa: F821
        lambda _cls, a, b, c, d, e: _tuple_new(_cls, (a, b, c, d, e)),  # noqa: F821
        lambda _cls, a, b, c, d, e, f: _tuple_new(_cls, (a, b, c, d, e, f)),  # noqa: F821
        lambda _cls, a, b, c, d, e, f, g: _tuple_new(_cls, (a, b, c, d, e, f, g)),  # noqa: F821
        lambda _cls, a, b, c, d, e, f, g, h: _tuple_new(_cls, (a, b, c, d, e, f, g, h)),  # noqa: F821
        lambda _cls, a, b, c, d, e, f, g, h, i: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i)),  # noqa: F821
        lambda _cls, a, b, c, d, e, f, g, h, i, j: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j)),  # noqa: F821
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k)),  # noqa: F821
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, l: _tuple_new(  # noqa: F821, E741
            _cls, (a, b, c, d, e, f, g, h, i, j, k, l)))


def _new(field_names: tuple[str, ...], arg_list: str, namespace: dict):
    if 0 < len(field_names) < len(_NEW):
        template = _NEW[len(field_names)].__code__
        return type(_NEW[1])(template.replace(co_varnames=("_cls", *field_names), co_filename="<string>"), namespace)
    return eval(f"lambda _cls, {arg_list}: _tuple_new(_cls, ({arg_list}))", namespace)  # noqa: S307 - our names


def namedtuple(typename: str, field_names, *, defaults: tuple | None = None, module: str | None = None,
               new=None) -> type:
    """collections.namedtuple(typename, field_names, defaults=defaults, module=module); `new`, when given, is its
    __new__ written out (the function namedtuple would compile: tests/cortex/test_tuple_type.py)."""
    if isinstance(field_names, str):
        field_names = field_names.replace(",", " ").split()
    field_names = tuple(map(sys.intern, field_names))
    typename = sys.intern(typename)
    field_defaults = {}
    if defaults is not None:
        defaults = tuple(defaults)
        if len(defaults) > len(field_names):
            raise TypeError("Got more default values than field names")
        field_defaults = dict(reversed(list(zip(reversed(field_names), reversed(defaults)))))
    num_fields = len(field_names)
    arg_list = ", ".join(field_names) + ("," if num_fields == 1 else "")
    repr_fmt = "(" + ", ".join(f"{name}=%r" for name in field_names) + ")"
    tuple_new = tuple.__new__

    namespace = {"_tuple_new": tuple_new, "__builtins__": {}, "__name__": f"namedtuple_{typename}"}
    __new__ = _new(field_names, arg_list, namespace) if new is None else new
    __new__.__name__ = "__new__"
    __new__.__doc__ = f"Create new instance of {typename}({arg_list})"
    if defaults is not None:
        __new__.__defaults__ = defaults

    @classmethod
    def _make(cls, iterable):
        result = tuple_new(cls, iterable)
        if len(result) != num_fields:
            raise TypeError(f"Expected {num_fields} arguments, got {len(result)}")
        return result

    _make.__func__.__doc__ = f"Make a new {typename} object from a sequence or iterable"

    def _replace(self, /, **kwds):
        result = self._make(map(kwds.pop, field_names, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    _replace.__doc__ = f"Return a new {typename} object replacing specified fields with new values"

    def __repr__(self):
        "Return a nicely formatted representation string"
        return self.__class__.__name__ + repr_fmt % self

    def _asdict(self):
        "Return a new dict which maps field names to their values."
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        "Return self as a plain tuple.  Used by copy and pickle."
        return tuple(self)

    for method in (__new__, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
        method.__qualname__ = f"{typename}.{method.__name__}"

    class_namespace = {"__doc__": f"{typename}({arg_list})", "__slots__": (), "_fields": field_names,
                       "_field_defaults": field_defaults, "__new__": __new__, "_make": _make, "_replace": _replace,
                       "__repr__": __repr__, "_asdict": _asdict, "__getnewargs__": __getnewargs__,
                       "__match_args__": field_names}
    for index, name in enumerate(field_names):
        class_namespace[name] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
    result = type(typename, (tuple,), class_namespace)
    result.__module__ = module if module is not None else sys._getframe(1).f_globals.get("__name__", "__main__")
    return result
