"""cortex.core.closedset.ClosedSet behaves as a (str, enum.Enum) declared alike, in everything the audit uses."""
from __future__ import annotations

import copy
import enum
import json
import pickle

import pytest

from cortex.core.closedset import ClosedSet


class Level(ClosedSet):
    LOW = "low"
    HIGH_AND_DRY = "high-and-dry"

    @property
    def loud(self) -> bool:
        return self is Level.HIGH_AND_DRY


class EnumLevel(str, enum.Enum):
    LOW = "low"
    HIGH_AND_DRY = "high-and-dry"


def _facts(cls, member) -> tuple:
    return (member.name, member.value, type(member.value), str(member).split(".", 1)[1], f"{member:>30}".strip()
            .split(".", 1)[1], "%s" % member == str(member), repr(member).replace(cls.__name__, "X"),
            member == member.value, hash(member) == hash(member.value), json.dumps(member), json.dumps({member: 1}),
            member.upper(), isinstance(member, str), cls(member.value) is member, cls(member) is member,
            copy.copy(member) is member, copy.deepcopy(member) is member, {member.value: 1}.get(member),
            sorted([member, "m"]) == sorted([member.value, "m"]), bool(member))


def test_members_behave_as_the_enum_s():
    assert [member.name for member in Level] == [member.name for member in EnumLevel] and len(Level) == len(EnumLevel)
    for ours, theirs in zip(Level, EnumLevel):
        assert type(ours) is Level and ours is getattr(Level, ours.name)
        assert _facts(Level, ours) == _facts(EnumLevel, theirs)
    assert Level.HIGH_AND_DRY.loud and not Level.LOW.loud


@pytest.mark.parametrize("value", ["nope", None, 3, ["low"], "LOW"])
def test_a_value_that_is_no_member_is_refused_in_the_enum_s_words(value):
    with pytest.raises(ValueError) as ours:
        Level(value)
    with pytest.raises(ValueError) as theirs:
        EnumLevel(value)
    assert str(ours.value).replace("Level", "X") == str(theirs.value).replace("EnumLevel", "X")


def test_a_member_pickles_to_itself():
    assert pickle.loads(pickle.dumps(Level.LOW)) is Level.LOW
