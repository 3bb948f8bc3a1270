"""A layout is one spec (health.layouts): chosen in one place, import-light, its shared scan an explicit step."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from health.layouts import LAYOUTS, NAMES, LayoutError, choose, named
from tests.health_support import REPO
from thresholds.defaults import THRESHOLDS

DEMO = str(REPO / "fixtures" / "demo")
DENSE = str(REPO / "fixtures" / "dense-context")


def test_every_layout_is_one_spec_with_its_own_name_checks_and_thresholds():
    assert NAMES == ("lifeos", "dense-context")
    tagged = {spec.layout for spec in THRESHOLDS}
    collectors = [row.name for spec in LAYOUTS for row in spec.checks()]
    assert len(collectors) == len(set(collectors))  # no collector belongs to two layouts
    for spec in LAYOUTS:
        assert named(spec.name) is spec and spec.thresholds in tagged and spec.describe and spec.checks()


def test_auto_detection_picks_the_one_layout_whose_marker_is_there(tmp_path):
    assert choose(None, DEMO).name == "lifeos"
    assert choose(None, DENSE).name == "dense-context"
    assert choose(None, os.path.join(DENSE, "context")).name == "dense-context"  # the context/ folder itself
    assert choose("dense-context", DEMO).name == "dense-context"  # asked for: never second-guessed
    assert choose(None, str(tmp_path / "absent")) is LAYOUTS[0]  # nothing to tell from: the audit reports the root
    with pytest.raises(LayoutError, match=r"holds neither LIFEOS/ nor context/AGENTS.md .*--layout lifeos\|dense-context"):
        choose(None, str(tmp_path))
    (tmp_path / "LIFEOS").mkdir()
    (tmp_path / "context").mkdir()
    (tmp_path / "context" / "AGENTS.md").write_text("# agents\n")
    with pytest.raises(LayoutError, match="holds both LIFEOS/ and context/AGENTS.md"):
        choose(None, str(tmp_path))


def test_the_choices_and_the_detection_load_no_collector_and_no_pydantic():
    code = ("import sys; from health.layouts import choose; choose(None, sys.argv[1]); choose(None, sys.argv[2]); "
            "print(sorted(m for m in sys.modules if m.startswith(('collectors.lifeos', 'pydantic', 'health.judge'))))")
    done = subprocess.run([sys.executable, "-c", code, DEMO, DENSE], capture_output=True, text=True, cwd=REPO,
                          check=True)
    assert done.stdout.strip() == "[]", done.stdout


def test_importing_a_dense_context_collector_registers_nothing():
    """The shared scan's analyses are listed in one module, never filled in as an import side effect."""
    import collectors.dense_context.tree as tree

    before = dict(vars(tree))
    import collectors.dense_context.atoms  # noqa: F401
    import collectors.dense_context.references  # noqa: F401

    assert vars(tree).keys() == before.keys() and not hasattr(tree, "ANALYSES")


def test_the_shared_scan_is_a_step_whose_result_the_collectors_receive():
    from collectors.dense_context.atoms import collect
    from collectors.dense_context.layout import DenseLayout
    from collectors.evidence import CollectorFailure
    from collectors.runner import Collector, run_one

    layout = named("dense-context").for_root(DENSE, None, {}, None)
    unscanned = run_one(Collector("dc_atoms", collect), layout)
    assert isinstance(unscanned, CollectorFailure) and "not scanned" in unscanned.error  # fails closed, as data
    scanned = named("dense-context").prepare(layout)
    assert isinstance(scanned, DenseLayout) and scanned.tree is not None and layout.tree is None  # a new value
    assert collect(scanned).atoms > 0
    assert named("lifeos").prepare(layout) is layout  # LifeOS shares no step
