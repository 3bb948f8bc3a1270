"""Rows of tests/test_tamper_derived.py (issue 21): the audit's memos.

Each kind is built, listed, edited and answered as tests/tamper_support.Kind describes.
"""
from __future__ import annotations

import json
from pathlib import Path

from tests.health_support import copy_demo
from tests.tamper_support import Built, audited, memos_of

# -- the reviewer-config verdict memo (collectors.reviewer_config): the whole audit report ------------------------


def build_config(folder: Path, variant: int) -> Built:
    from tests import hook_scenarios as hooks

    root = copy_demo(folder)
    (hooks.review_config_trailing_comma if variant else hooks.review_config_wrong_type)(root)
    return audited(folder, root)  # leaves the loader's verdict: reviewer-config-invalid


def config_verdicts(built: Built) -> dict[str, Path]:
    from collectors.reviewer_config import FORMAT

    return memos_of(built, ".verdict", FORMAT, lambda memo: "verdict")


def say_valid(path: Path) -> None:
    """The loader's error forgotten: the memo says the config it is keyed to is valid."""
    memo = json.loads(path.read_bytes())
    memo["verdict"] = None
    path.write_text(json.dumps(memo))


# -- the clean-corpus-load memo (collectors.corpus): the whole audit report ---------------------------------------


def build_corpus(folder: Path, variant: int) -> Built:
    from tests import hook_scenarios as hooks
    from tests.health_support import HOUR_MS, NOW_MS, set_mtimes

    root = copy_demo(folder)
    if variant:
        hooks.write_note(root, "seed-order.md", "---\nid: knowledge-seed-order\ntitle: Seed order\n"
                         "created: 2026-02-14\n---\nOrder the seeds by the end of January.\n")
        set_mtimes(root, NOW_MS - HOUR_MS)  # older than the racy margin: the memo is trusted
    return audited(folder, root)  # leaves the memo of a clean load


def corpus_verdicts(built: Built) -> dict[str, Path]:
    from collectors.corpus import FORMAT

    return memos_of(built, ".verdict", FORMAT, lambda memo: "corpus")


def count_more(path: Path) -> None:
    """One record and one file more than the load found, the listing it is bound to untouched."""
    memo = json.loads(path.read_bytes())
    memo["records"], memo["count"] = memo["records"] + 1, memo["count"] + 1
    path.write_text(json.dumps(memo))


# -- the hot-content memo (collectors.hot_content_memo): the whole audit report -----------------------------------


def build_hot_content(folder: Path, variant: int) -> Built:
    from tests import hot_content_scenarios as hc

    root = copy_demo(folder)
    for change in ((hc.principal_injection,) if variant else (hc.principal_imperative, hc.da_duplicate)):
        change(root)
    return audited(folder, root)  # leaves one memo per hot file


def content_memos(built: Built) -> dict[str, Path]:
    from collectors.hot_content_memo import FORMAT

    return memos_of(built, ".content", FORMAT, lambda memo: Path(memo["file"]).name)


def one_more_of_each(path: Path) -> None:
    """Every kind's total one higher (still a valid memo for the same text)."""
    from collectors.hot_content_memo import KINDS as FLAGS

    memo = json.loads(path.read_bytes())
    for flag in FLAGS:
        memo["judged"][flag][0] += 1
    path.write_text(json.dumps(memo, ensure_ascii=False))
