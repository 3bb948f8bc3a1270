"""Derived state never lies (issue 21), beyond the table of tests/collectors/test_tamper_derived.py: the audit's memos forged
with a fresh seal or by an earlier release, the in-process tail memo, and the export row's cursors not being vacuous.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.tamper_kinds import (build_corpus, build_exported, build_hot_content, config_verdicts, content_memos,
                                corpus_verdicts, count_more, export_cursors, exported, say_valid)
from tests.tamper_support import audit_report


def forge(path: Path, change) -> None:
    """Rewrite the sealed memo at `path` through `change(memo)` and seal it again, as a forger who knows the seal can."""
    from collectors.readers.memos import sealed

    data = path.read_bytes()
    memo = json.loads(data[:data.rindex(b',"seal":')] + b"}")
    change(memo)
    path.write_bytes(sealed(json.dumps(memo).encode()))


def test_the_export_row_tells_a_kept_cursor_from_a_lost_one(tmp_path):
    """Not vacuous: with its cursors only the operations appended since are sent; without, every one again."""
    built = build_exported(tmp_path, 0)
    kept = exported(built)
    for path in export_cursors(built).values():
        path.unlink()
    lost = exported(built)
    assert [span["name"] for span in kept["spans"]] == ["search_memory"] and len(lost["spans"]) == 11
    assert lost["spans"][-1] == kept["spans"][0] and lost["metrics"] == kept["metrics"]


def test_memos_forged_with_a_fresh_seal_never_crash_the_audit(tmp_path):
    """Beyond the seal (which a forger can recompute, docs/derived-state.md): a hot-content memo whose totals
    disagree with its rows is judged again, and a memo nested past the decoder's depth is read as no memo."""
    from collectors.readers.memos import sealed
    from tests import hook_scenarios as hooks

    built = build_hot_content(tmp_path, 0)
    hooks.review_config_wrong_type(built.root)
    intact = audit_report(built)
    memos = {**content_memos(built), **config_verdicts(built), **corpus_verdicts(built)}
    assert len(memos) == 4

    for path in content_memos(built).values():
        forge(path, lambda memo: memo["judged"].__setitem__("injection", [1, []]))  # a total without its row
    assert audit_report(built) == intact
    for path in memos.values():
        path.write_bytes(sealed(b'{"format":' + b"[" * 100_000 + b"]" * 100_000 + b"}"))
    assert audit_report(built) == intact


def test_memo_values_forged_with_a_fresh_seal_are_checked_for_their_shape(tmp_path):
    """A config verdict naming its field, line or rule with values the loader never gives, and a corpus memo with
    negative counts, are worked out again: the seal is not keyed, so what a memo says is checked before it is used."""
    from tests import hook_scenarios as hooks

    built = build_corpus(tmp_path, 0)
    hooks.review_config_wrong_type(built.root)
    intact = audit_report(built)
    assert any(f["id"] == "reviewer-config-invalid" for f in intact["findings"]), intact["findings"]
    strange = ({"field": ["turn_threshold"]}, {"line": "3"}, {"rule": {"type": "int"}}, {"line": True})
    for values in strange:
        for path in config_verdicts(built).values():
            forge(path, lambda memo: memo["verdict"].update(values))
        for path in corpus_verdicts(built).values():
            forge(path, lambda memo: memo.update(records=-memo["records"] - 1))
        assert audit_report(built) == intact, values


def test_a_verdict_of_an_earlier_release_is_never_believed(tmp_path):
    """The config's and the corpus's verdicts come from cortex's own loaders, which a release may tighten: a memo
    written by another release (here: as 0.1.0 wrote them, without the release) is worked out again."""
    from collectors.readers.memos import sealed
    from tests import hook_scenarios as hooks

    built = build_corpus(tmp_path, 0)
    hooks.review_config_wrong_type(built.root)
    intact = audit_report(built)
    earlier = {"corpus": ("cortex-health-corpus-verdict/1", count_more),
               "verdict": ("cortex-health-review-config/1", say_valid)}
    for label, path in {**corpus_verdicts(built), **config_verdicts(built)}.items():
        data = path.read_bytes()
        path.write_bytes(data[:data.rindex(b',"seal":')] + b"}")
        earlier[label][1](path)  # what an earlier loader may have said of the same bytes
        memo = json.loads(path.read_bytes())
        memo["format"] = earlier[label][0]
        path.write_bytes(sealed(json.dumps(memo).encode()))
    assert audit_report(built) == intact


def test_a_tail_read_once_is_never_reused_for_other_bytes(tmp_path):
    """collectors.readers.jsonl.tail_of keeps the newest tail of each log in memory: an edit that puts back the size and
    the mtime still changes what it answers (the ctime moved)."""
    from collectors.readers.jsonl import tail_of

    log = tmp_path / "memory-retrievals.jsonl"
    log.write_bytes(b'{"n":1}\n{"n":2}\n')
    first = log.stat()
    assert tail_of(str(log), 5)[1] == [b'{"n":1}', b'{"n":2}']
    while log.stat().st_ctime_ns == first.st_ctime_ns:  # until the kernel's clock tick moves on (no sleep)
        log.write_bytes(b'{"n":3}\n{"n":4}\n')
        os.utime(log, ns=(first.st_atime_ns, first.st_mtime_ns))
    assert (log.stat().st_size, log.stat().st_mtime_ns) == (first.st_size, first.st_mtime_ns)
    assert tail_of(str(log), 5)[1] == [b'{"n":3}', b'{"n":4}']
