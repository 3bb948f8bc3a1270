"""cortex.core.namedtuples.namedtuple with `new`: the record classes made so (CortexRecord, RecordHead, Ranked) are
the classes collections.namedtuple makes, but for the `__new__` they write out in source (namedtuple compiles it)."""
from __future__ import annotations

import copy
import inspect
import pickle
from collections import namedtuple

import pytest
from hypothesis import given, strategies as st

from cortex.core.records import CortexRecord, RecordHead
from cortex.core.search import Ranked

CLASSES = {"CortexRecord": (CortexRecord, (None, None, 0, 0, None, None)), "RecordHead": (RecordHead, None),
           "Ranked": (Ranked, None)}


def twin(made: type, defaults) -> type:
    """namedtuple's class of the same name, fields and defaults."""
    return namedtuple(made.__name__, made._fields, defaults=defaults)


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_the_class_is_namedtuples(name):
    made, defaults = CLASSES[name]
    base, reference = made.__mro__[1], twin(made, defaults)
    assert made.__mro__[1:] == (base, tuple, object)
    assert base._fields == reference._fields and base.__match_args__ == reference.__match_args__
    assert base._field_defaults == reference._field_defaults
    assert inspect.signature(base.__new__) == inspect.signature(reference.__new__)
    assert base.__new__.__defaults__ == reference.__new__.__defaults__
    for attribute in ("__new__", "_make", "_replace", "__repr__", "_asdict", "__getnewargs__"):
        mine, theirs = getattr(base, attribute), getattr(reference, attribute)
        assert (mine.__name__, mine.__doc__) == (theirs.__name__, theirs.__doc__), attribute
        assert mine.__qualname__ == theirs.__qualname__, attribute
    assert base.__doc__ == reference.__doc__ and base.__slots__ == reference.__slots__ == ()
    assert base.__module__ == made.__module__
    for field in reference._fields:
        assert type(vars(base)[field]) is type(vars(reference)[field])
        assert vars(base)[field].__doc__ == vars(reference)[field].__doc__


values = st.one_of(st.none(), st.integers(), st.text(max_size=5), st.lists(st.text(max_size=3), max_size=2))


@pytest.mark.parametrize("name", sorted(CLASSES))
@given(data=st.data())
def test_the_instances_behave_as_namedtuples(name, data):
    made, defaults = CLASSES[name]
    reference = twin(made, defaults)
    fields = made._fields
    given_count = data.draw(st.integers(len(fields) - len(defaults or ()), len(fields)))
    args = data.draw(st.lists(values, min_size=given_count, max_size=given_count))
    as_keywords = data.draw(st.booleans())
    keywords = dict(zip(fields, args)) if as_keywords else {}
    mine = made(**keywords) if as_keywords else made(*args)
    theirs = reference(**keywords) if as_keywords else reference(*args)
    assert tuple(mine) == tuple(theirs) and type(mine) is made
    assert repr(mine).removeprefix(made.__name__) == repr(theirs).removeprefix(made.__name__)
    assert mine._asdict() == theirs._asdict()
    assert tuple(made._make(tuple(theirs))) == tuple(theirs)
    changed = {fields[0]: "x"}
    assert tuple(mine._replace(**changed)) == tuple(theirs._replace(**changed))
    assert copy.copy(mine) == mine and pickle.loads(pickle.dumps(mine)) == mine
    assert [getattr(mine, field) for field in fields] == [getattr(theirs, field) for field in fields]
    with pytest.raises(TypeError):
        made._make(tuple(theirs)[:-1])
    with pytest.raises(ValueError):
        mine._replace(nothing=1)
    with pytest.raises(TypeError):
        made(*args[:len(fields) - len(defaults or ()) - 1])
