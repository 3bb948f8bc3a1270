"""`cortex review replay RUN_ID` on hostile run ids and run folders: refused with the right code, nothing written."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.write_support import all_bytes_under, tree  # noqa: F401 - fixture

RUN_ID = "2026-11-29T08-59-30-004Z"
IDEA = {"type": "idea", "title": "Replayed idea", "content": "an idea kept from a failed dispatch"}


def kept_items(folder: Path, run_id: str = RUN_ID) -> Path:
    """A run folder holding one kept item, as the reviewer leaves it after a failed dispatch."""
    folder.mkdir(parents=True, exist_ok=True)
    entry = {"index": 0, "code": "ELOCK_HELD", "error": "held", "item": IDEA}
    (folder / "failed-items.json").write_text(json.dumps({"runId": run_id, "items": [entry]}) + "\n")
    return folder


def test_a_kept_item_in_a_real_run_folder_is_replayed(tree):
    kept_items(tree.obs / "reviewer-runs" / RUN_ID)
    done = tree.cortex("review", "replay", RUN_ID)
    assert done.code == 0 and done.data["done"] is True and done.data["succeeded"] == 1
    assert (tree.obs / "reviewer-runs" / RUN_ID / "replayed.json").is_file()


def test_a_run_folder_that_is_a_symlink_out_of_the_tree_is_refused_and_nothing_is_written(tree, tmp_path):
    outside = kept_items(tmp_path / "elsewhere" / RUN_ID)
    runs = tree.obs / "reviewer-runs"
    runs.mkdir(parents=True, exist_ok=True)
    (runs / RUN_ID).symlink_to(outside)
    before_tree, before_outside = all_bytes_under(tree.root), all_bytes_under(outside)
    done = tree.cortex("review", "replay", RUN_ID)
    assert done.code == 4 and done.error["code"] == "integrity_error"
    assert str(runs / RUN_ID) in done.error["message"] and "symlink" in done.error["message"]
    assert all_bytes_under(tree.root) == before_tree and all_bytes_under(outside) == before_outside


@pytest.mark.parametrize("run_id", ["", " ", ".", "..", "../reviewer-runs", "2026-11-29T08-59-30-004Z/",
                                    "2026-11-29T08-59-30-004Z/../x", "x", "2026-11-29T08:59:30.004Z",
                                    "2026-11-29T08-59-30-004Z\n", "2026-11-29t08-59-30-004z",
                                    "\uff12026-11-29T08-59-30-004Z"])
def test_anything_but_a_run_id_is_invalid_input_and_nothing_is_written(tree, run_id):
    kept_items(tree.obs / "reviewer-runs")  # what an empty id or "." would replay: reviewer-runs/ itself
    kept_items(tree.obs / "reviewer-runs" / RUN_ID)
    before = all_bytes_under(tree.root)
    done = tree.cortex("review", "replay", run_id)
    assert done.code == 4 and done.error["code"] == "invalid_input", done.envelope
    assert "2026-11-29T08-59-30-004Z" in done.error["message"]  # the shape it wants
    assert all_bytes_under(tree.root) == before


def test_an_unknown_run_id_of_the_right_shape_is_not_found(tree):
    (tree.obs / "reviewer-runs").mkdir(parents=True, exist_ok=True)
    done = tree.cortex("review", "replay", "2026-11-29T09-00-00-000Z")
    assert done.code == 3 and done.error["code"] == "not_found"
