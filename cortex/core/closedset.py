"""Core: a closed set of named str constants with the API of a `(str, enum.Enum)` class, without `enum`.

`import enum` costs the audit ~6M instructions and each Enum class ~0.8M more; the audit's
vocabularies (evidence states, severities, threshold sources, reviewer row classes) use only
what this gives: members as class attributes that are the value's own str (equal to it, hashed
as it), `.name` and `.value`, `Cls(value)` (ValueError when none), iteration in declaration order
and len, and Enum's str(), format() and repr() (`Severity.WARN`, `<Severity.WARN: 'warn'>`).
tests/cortex/test_closedset.py holds each of these against an Enum declared alike.
"""
from __future__ import annotations


class _Members(type):
    """The type of a closed set: calling it looks a member up by value; iterating yields its members."""

    def __call__(cls, value):
        try:
            return cls._by_value[value]
        except (KeyError, TypeError):
            raise ValueError(f"{value!r} is not a valid {cls.__qualname__}") from None

    def __iter__(cls):
        return iter(cls._by_value.values())

    def __len__(cls) -> int:
        return len(cls._by_value)


class ClosedSet(str, metaclass=_Members):
    """Subclasses declare their members as NAME = "value" (upper-case names); each becomes an instance."""

    _by_value: dict = {}

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        cls._by_value = {}
        for name, value in list(vars(cls).items()):
            if name.isupper() and type(value) is str:
                member = str.__new__(cls, value)
                member.name, member.value = name, value
                setattr(cls, name, member)
                cls._by_value[value] = member

    def __str__(self) -> str:
        return f"{type(self).__name__}.{self.name}"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"<{type(self).__name__}.{self.name}: {self.value!r}>"

    def __reduce__(self):  # a member is a singleton: copies and pickles are the member itself
        return getattr, (type(self), self.name)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self
