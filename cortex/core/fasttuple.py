"""Core: collections.namedtuple without compiling source per class; used by the audit's record classes.

collections.namedtuple builds each class's `__new__` by compiling the text of a lambda: the parser
and compiler cost about 0.27M instructions a class, and the audit defines about a hundred record
classes on its way in (27M of a 257M run). The compiled constructor depends only on the number of
fields, so this compiles it once per arity, with placeholder names, and gives each class a copy of
that code carrying its own field names (`code.replace`), and every class shares one copy of the
helper methods (_make, _replace, __repr__, _asdict, __getnewargs__), which read the class's
_fields: the same signature, defaults, answers and error messages as collections.namedtuple's
(only the helpers' __qualname__ and docstrings name no class). Anything unusual (rename=,
module=, a name that is not a plain identifier) is still handed to collections.namedtuple.
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


# The methods every class shares (collections.namedtuple makes a closure of each per class): each reads the
# class's own _fields, so it answers exactly as the closure would.
@classmethod
def _make(cls, iterable):
    result = _tuple_new(cls, iterable)
    if len(result) != len(cls._fields):
        raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
    return result


def _replace(self, /, **kwds):
    result = self._make(map(kwds.pop, self._fields, self))
    if kwds:
        raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
    return result


def __repr__(self):
    "Return a nicely formatted representation string"
    return self.__class__.__name__ + ("(" + ", ".join(f"{name}=%r" for name in self._fields) + ")") % self


def _asdict(self):
    "Return a new dict which maps field names to their values."
    return dict(zip(self._fields, self))


def __getnewargs__(self):
    "Return self as a plain tuple.  Used by copy and pickle."
    return tuple(self)


_DOCS = tuple(sys.intern(f"Alias for field number {index}") for index in range(16))


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
    arg_list = ", ".join(field_names) + ("," if len(field_names) == 1 else "")
    code = _template(len(field_names)).replace(co_varnames=("_cls", *field_names), co_name="__new__",
                                               co_qualname=f"{typename}.__new__")
    namespace = {"_tuple_new": _tuple_new, "__builtins__": {}, "__name__": f"namedtuple_{typename}"}
    __new__ = _FunctionType(code, namespace, "__new__", defaults)
    __new__.__doc__ = f"Create new instance of {typename}({arg_list})"
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
        doc = _DOCS[index] if index < len(_DOCS) else sys.intern(f"Alias for field number {index}")
        class_namespace[name] = _tuplegetter(index, doc)
    result = type(typename, (tuple,), class_namespace)
    result.__module__ = sys._getframe(1).f_globals.get("__name__", "__main__")
    return result
