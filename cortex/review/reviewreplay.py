"""Reviewer stage: keep the items whose dispatch failed, and replay them; used by the reviewer and `cortex review replay`.

A failed dispatch no longer drops the item: the reviewer saves every item refused for a reason
other than a suspect-write guard in O/reviewer-runs/<runId>/failed-items.json (run id, index,
refusal code and message, the validated item). `cortex review replay RUN_ID` validates them
again (the same answer parser) and dispatches them through the same governed path; when all
succeed it writes replayed.json beside them, which is what the auditor's
reviewer-dispatch-failed check looks for (it names the SHA-256 of the failed-items.json it
replayed, so the auditor believes it only beside those items). RUN_ID must have the shape the
reviewer mints (anything else is invalid_input), and its folder must be a real folder under
reviewer-runs/: a symlink there is an integrity_error, never followed, so nothing is read or
written outside.
"""
from __future__ import annotations

import hashlib
import json
import os

from cortex.write.dispatch import DispatchSummary, dispatch
from cortex.errors import InvalidInput, NotFound
from cortex.core.jsjson import dumps
from cortex.layout import FAILED_ITEMS_FILE as FAILED_ITEMS, OBSERVABILITY, REPLAYED_FILE as REPLAYED
from cortex.review.reviewconfig import load_config
from cortex.review.reviewoutput import OutputRejected, parse_output
from cortex.review.reviewruns import RUNS_DIR, ReviewRun, is_run_id, run_id_for
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.safepaths import memory_dir, real_subdir
from cortex.write.writecontext import WriteContext

MAX_FAILED_BYTES = 4 << 20


def keep_failed(run: ReviewRun, items: tuple[dict, ...], summary: DispatchSummary) -> int:
    """Save the items the dispatch refused (guard skips excluded); returns how many were kept."""
    kept = [{"index": f["index"], "code": f["code"], "error": f["error"], "item": items[f["index"]]}
            for f in summary.failures if f["stage"] == "dispatch" and 0 <= f["index"] < len(items)]
    if kept:
        run.save(FAILED_ITEMS, dumps({"runId": run.run_id, "items": kept}) + "\n")
    return len(kept)


def _kept_items(path: str) -> tuple[list[dict], str]:
    """The kept items and the SHA-256 of the file that holds them."""
    try:
        raw = read_bounded(path, MAX_FAILED_BYTES)
        data = json.loads(raw)
    except FileNotFoundError:
        raise NotFound(f"no failed items were kept for this run: {path}") from None
    except (UnsafeFile, OSError, ValueError) as error:
        raise InvalidInput(f"{path} cannot be used: {error}") from None
    entries = data.get("items") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) and "item" in e for e in entries):
        raise InvalidInput(f"{path} is not a failed-items file")
    return [entry["item"] for entry in entries], hashlib.sha256(raw).hexdigest()


def run_folder(runs: str, run_id: str) -> str:
    """reviewer-runs/<run_id> as a real folder: NotFound when absent, IntegrityError (naming it) when it is a
    symlink or not a folder, so nothing is read from or written through it."""
    if not os.path.lexists(os.path.join(runs, run_id)):
        raise NotFound(f"no reviewer run {run_id}")
    return real_subdir(runs, (run_id,), create=False)


def replay(inv, run_id: str) -> dict:
    if not is_run_id(run_id):  # an empty id would name reviewer-runs/ itself, ".." its parent
        raise InvalidInput(f"review replay requires a run id such as 2026-11-29T08-59-30-004Z, not {run_id!r}")
    ctx = WriteContext.from_invocation(inv)
    run_path = run_folder(memory_dir(ctx.layout.memory_root, OBSERVABILITY, RUNS_DIR, create=False), run_id)
    if os.path.lexists(os.path.join(run_path, REPLAYED)):
        raise InvalidInput(f"the failed items of {run_id} were already replayed (see {REPLAYED})")
    items, digest = _kept_items(os.path.join(run_path, FAILED_ITEMS))
    try:
        parsed = parse_output(dumps({"items": items}).encode("utf-8"), session=None, layout=ctx.layout)
    except OutputRejected as rejected:
        raise InvalidInput(f"the kept items no longer validate: {'; '.join(rejected.errors[:3])}") from None
    config = load_config(ctx.layout, inv.environ)
    summary = dispatch(ctx, parsed.items, config.confidence_threshold)
    run = ReviewRun(ctx.layout, run_id, ctx.now_ms, run_path)
    stamp = run_id_for(ctx.now_ms)
    result = {"runId": run_id, "ts": ctx.now_iso, "replayed": len(parsed.items), "succeeded": summary.succeeded,
              "failures": summary.failures, "skips": summary.skips, "results": summary.results}
    run.save(f"replay-{stamp}.json", dumps(result) + "\n")
    if summary.ok:
        run.save(REPLAYED, dumps({"ts": ctx.now_iso, "replayed": len(parsed.items), "items_sha256": digest}) + "\n")
    return {**result, "done": summary.ok}
