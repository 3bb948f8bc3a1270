"""cortex.core.fasttuple.namedtuple defines classes that behave as collections.namedtuple's do."""
from __future__ import annotations

import collections
import copy
import inspect
import pickle

import pytest

from cortex.core.fasttuple import namedtuple

SHAPES = [("One", "a", None), ("Pair", "a b", None), ("Pair", "a, b", (2,)), ("Many", "a b c d e f g h i j k l", (1, 2)),
          ("Listed", ["x", "y", "z"], (None, None, None)), ("Empty", "", None), ("Odd", "a _b", None)]
Picklable = namedtuple("Picklable", "a b", defaults=(0,))


def _both(typename, fields, defaults):
    return (collections.namedtuple(typename, fields, defaults=defaults),
            namedtuple(typename, fields, defaults=defaults) if "_b" not in fields else None)


@pytest.mark.parametrize("typename,fields,defaults", SHAPES)
def test_a_class_behaves_as_the_standard_librarys(typename, fields, defaults):
    if "_b" in fields:  # what collections refuses is refused alike (handed to it)
        with pytest.raises(ValueError) as theirs:
            collections.namedtuple(typename, fields)
        with pytest.raises(ValueError) as ours:
            namedtuple(typename, fields)
        assert str(ours.value) == str(theirs.value)
        return
    theirs, ours = _both(typename, fields, defaults)
    for name in ("_fields", "_field_defaults", "__match_args__", "__doc__", "__slots__", "__module__"):
        assert getattr(ours, name) == getattr(theirs, name), name
    assert str(inspect.signature(ours)) == str(inspect.signature(theirs))
    assert ours.__new__.__qualname__ == theirs.__new__.__qualname__ and ours.__new__.__doc__ == theirs.__new__.__doc__
    count = len(theirs._fields)
    values = tuple(range(10, 10 + count))
    a, b = ours(*values), theirs(*values)
    assert a == b and repr(a) == repr(b) and a._asdict() == b._asdict() and tuple(a) == values
    assert [getattr(a, name) for name in ours._fields] == list(values)
    assert ours(**dict(zip(ours._fields, values))) == a and ours._make(values) == a and copy.copy(a) == a
    if count:
        assert a._replace(**{ours._fields[0]: "x"}) == b._replace(**{theirs._fields[0]: "x"})
        required = count - len(defaults or ())
        assert ours(*values[:required]) == theirs(*values[:required])
    for call in (lambda cls: cls(*values, 99), lambda cls: cls(nope=1), lambda cls: cls._make(values + (1,)),
                 lambda cls: cls(*values)._replace(nope=1)):
        with pytest.raises((TypeError, ValueError)) as mine:
            call(ours)
        with pytest.raises((TypeError, ValueError)) as stdlib:
            call(theirs)
        assert (type(mine.value), str(mine.value)) == (type(stdlib.value), str(stdlib.value))


def test_a_subclass_with_slots_pickles_and_keeps_its_methods():
    class Row(namedtuple("Row", "a b", defaults=(0,))):
        __slots__ = ()

        @property
        def total(self):
            return self.a + self.b

    assert Row(1).total == 1 and Row(1, 2)._replace(b=5).total == 6 and not hasattr(Row(1), "__dict__")
    assert pickle.loads(pickle.dumps(Picklable(1, 2))) == Picklable(1, 2)
