"""cortex.core.namedtuples.namedtuple makes the class collections.namedtuple makes (for valid field names)."""
from __future__ import annotations

import collections
import copy
import inspect
import pickle

import pytest

from cortex.core import namedtuples

_SPECS = [("Point", "x y", None), ("One", "only", None), ("Row", "a, b c d", (1, [])), ("All", "p q", (0, 1)),
          ("Empty", "", None), ("Named", ("seq", "head", "sealed"), (True,)),
          ("Twelve", " ".join(f"f{n}" for n in range(12)), (None,)), ("Thirteen", " ".join(f"g{n}" for n in range(13)), None)]


def _facts(cls, values: tuple):
    made = cls(*values)
    facts = [cls.__name__, cls.__doc__, cls._fields, cls._field_defaults, cls.__match_args__, cls.__slots__,
             str(inspect.signature(cls)), cls.__new__.__doc__, cls.__new__.__qualname__, cls.__new__.__name__,
             cls.__new__.__code__.co_varnames, cls.__new__.__code__.co_code, cls._make.__doc__,
             cls._replace.__doc__, [getattr(cls, name).__doc__ for name in cls._fields], repr(made), tuple(made),
             made._asdict(), made.__getnewargs__(), copy.copy(made) == made, hash(made) == hash(tuple(made)),
             cls._make(values) == made, made._replace() == made, type(made._replace()) is cls, issubclass(cls, tuple)]
    for attempt in (lambda: cls(*values, 1), lambda: cls._make(values + (1,)), lambda: made._replace(nope=1),
                    lambda: setattr(made, cls._fields[0] if cls._fields else "x", 2), lambda: cls(oops=1)):
        try:
            attempt()
            facts.append("no error")
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            facts.append((type(error), str(error)))
    return facts


@pytest.mark.parametrize("typename,fields,defaults", _SPECS)
def test_the_class_is_namedtuple_s(typename, fields, defaults):
    ours = namedtuples.namedtuple(typename, fields, defaults=defaults)
    theirs = collections.namedtuple(typename, fields, defaults=defaults)
    values = tuple(range(len(theirs._fields)))
    assert _facts(ours, values) == _facts(theirs, values)
    assert ours.__module__ == theirs.__module__ == __name__
    required = values[:len(values) - len(theirs._field_defaults)]  # the defaults fill the rest
    assert ours(*required) == theirs(*required) and repr(ours(*required)) == repr(theirs(*required))


Pickled = namedtuples.namedtuple("Pickled", "a b", defaults=(2,))


def test_a_record_pickles_and_copies():
    row = Pickled(1)
    assert pickle.loads(pickle.dumps(row)) == row and copy.deepcopy(row) == row and row == (1, 2)


def test_too_many_defaults_are_refused_as_namedtuple_refuses_them():
    with pytest.raises(TypeError, match="Got more default values than field names"):
        namedtuples.namedtuple("X", "a", defaults=(1, 2))
