"""collectors.lifeos.layout._Once does what functools.cached_property does for the layout's readings."""
from __future__ import annotations

import functools

import pytest

from collectors.lifeos.layout import Layout, _Once


def _holder(decorator):
    class Holder:
        def __init__(self) -> None:
            self.calls = 0

        @decorator
        def reading(self):
            """The reading."""
            self.calls += 1
            return [self.calls]

    return Holder


@pytest.mark.parametrize("decorator", [_Once, functools.cached_property])
def test_a_reading_is_computed_once_per_instance_and_kept_in_its_dict(decorator):
    holder = _holder(decorator)
    first, second = holder(), holder()
    assert first.reading is first.reading and first.calls == 1 and first.__dict__["reading"] == [1]
    assert second.reading == [1] and second.reading is not first.reading
    first.reading = "set"  # an assignment replaces the kept value
    assert first.reading == "set"
    del first.reading  # and deleting it reads again
    assert first.reading == [2]
    assert isinstance(holder.reading, decorator) and holder.reading.__doc__ == "The reading."


def test_the_layout_reads_its_settings_once(tmp_path):
    (tmp_path / "settings.json").write_text('{"env": {"A": "1"}}')
    layout = Layout.for_root(str(tmp_path))
    assert layout.settings is layout.settings and layout.settings.env == (("A", "1"),)
