"""cortex.core.lightstdlib: its array, _sqlite3, lru_cache and count_items are the standard library's, and its stand-ins never
stay in sys.modules."""
import array
import collections
import collections.abc
import functools
import subprocess
import sys

import _sqlite3
from hypothesis import given, strategies as st

from cortex.core import lightstdlib


def test_array_and_sqlite3_are_the_stdlib_modules():
    assert lightstdlib.array_type() is array.array
    assert lightstdlib.sqlite3_module() is _sqlite3
    assert sys.modules["collections"] is collections and sys.modules["collections.abc"] is collections.abc
    assert sys.modules["functools"] is functools


_CHILD = """
import sys
from cortex.core.lightstdlib import array_type, sqlite3_module
array, sqlite3 = array_type(), sqlite3_module()
assert not {"collections", "collections.abc", "functools"} & set(sys.modules), sorted(sys.modules)
import collections.abc, functools
assert collections.abc.MutableSequence.register and isinstance(array("i"), collections.abc.MutableSequence)
assert functools.lru_cache.__module__ == "functools" and collections.Counter  # the real modules, once imported
db = sqlite3.connect(":memory:", cached_statements=2)
for n in range(5):  # the statement cache (the stand-in lru_cache) reuses and evicts statements as ever
    assert db.execute("SELECT ? + ?", (n, 1)).fetchone() == (n + 1,)
    assert db.execute(f"SELECT {n}").fetchone() == (n,)
print("ok")
"""


def test_a_fresh_process_loads_neither_collections_nor_functools_and_both_work_after():
    proc = subprocess.run([sys.executable, "-S", "-c", _CHILD], capture_output=True, text=True, timeout=60,
                          env={"PYTHONPATH": ":".join(p for p in sys.path if p)})
    assert proc.stdout.strip() == "ok", proc.stderr


@given(st.lists(st.integers(0, 20), max_size=60), st.one_of(st.none(), st.integers(-2, 6)), st.booleans())
def test_lru_cache_caches_and_evicts_as_functools_does(calls, maxsize, typed):
    seen = {"ours": [], "stdlib": []}
    ours = lightstdlib.lru_cache(maxsize, typed)(lambda n: seen["ours"].append(n) or n * 2)
    stdlib = functools.lru_cache(maxsize, typed)(lambda n: seen["stdlib"].append(n) or n * 2)
    assert [ours(n) for n in calls] == [stdlib(n) for n in calls]
    assert seen["ours"] == seen["stdlib"]  # the same calls reached the function: the same hits and evictions
    assert ours.cache_info() == tuple(stdlib.cache_info())


@given(st.lists(st.sampled_from(["tea", "green", "库", "", "a"]) | st.text(max_size=3), max_size=40))
def test_count_items_is_counter(items):
    counts = lightstdlib.count_items(items)
    assert type(counts) is dict
    assert list(counts.items()) == list(collections.Counter(items).items())
