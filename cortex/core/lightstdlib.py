"""array, _sqlite3 and Counter's counting without the collections and functools they import: ~8M instructions of a
warm recall (collections with operator, reprlib and keyword 6.5M, functools with types 3.2M).

The array C module registers its type with collections.abc.MutableSequence, and _sqlite3's takes functools.lru_cache
for its statement cache; nothing else of those packages is used. While these two load (and only when the real modules
are not loaded yet), sys.modules briefly holds what they use: `_collections_abc`, which collections.abc re-exports
(the registration lands on the very same class), and a functools with `lru_cache` built on functools' own C wrapper as
functools builds it. The stand-ins leave sys.modules at once, so any later import gets the real module.
tests/cortex/test_lightstdlib.py proves the pieces equal to the stdlib's.
"""
import sys

import _collections_abc
from _collections import _count_elements
from _functools import _lru_cache_wrapper


def _cache_info(hits, misses, maxsize, currsize):
    return hits, misses, maxsize, currsize  # functools' _CacheInfo fields, as a plain tuple


def lru_cache(maxsize=128, typed=False):
    """functools.lru_cache for an int or None maxsize (what _sqlite3 passes), without update_wrapper's copies."""
    if isinstance(maxsize, int) and maxsize < 0:
        maxsize = 0
    return lambda function: _lru_cache_wrapper(function, maxsize, typed, _cache_info)


def _import_with(stand_ins: dict, name: str):
    """Import `name` while each of `stand_ins` absent from sys.modules is there; those leave again."""
    modules = sys.modules
    added = [key for key in stand_ins if key not in modules]
    for key in added:
        modules[key] = stand_ins[key]
    try:
        return __import__(name)
    finally:
        for key in added:
            if modules.get(key) is stand_ins[key]:
                del modules[key]


def _module(name: str, **attributes):
    module = type(sys)(name)
    module.__dict__.update(attributes)
    return module


def count_items(items) -> dict:
    """dict(collections.Counter(items)): the same counts in the same order (Counter fills itself this way)."""
    counts: dict = {}
    _count_elements(counts, items)
    return counts


def array_type() -> type:
    """array.array; the C module imports the package "collections" before "collections.abc": a stand-in for both."""
    return _import_with({"collections": _module("collections"), "collections.abc": _collections_abc}, "array").array


def sqlite3_module():
    """_sqlite3, the C module the sqlite3 package wraps (the package also loads datetime for adapters no cache value
    needs), or the package in a build without it."""
    try:
        return _import_with({"functools": _module("functools", lru_cache=lru_cache)}, "_sqlite3")
    except ImportError:  # pragma: no cover - a build that has only the package
        import sqlite3
        return sqlite3
