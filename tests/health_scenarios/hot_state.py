"""Scenarios of the hot-memory files, the review state, the config, the auditor's log and the search cache."""
import json
import os
import shutil

from cortex.core.timestamps import iso_from_ms
from tests.health_support import DAY_MS, NOW_MS, hot, memory, obs
from tests.health_scenarios.rows import entries_file


def principal_missing(root):
    hot(root, "principal").unlink()


def da_missing(root):
    hot(root, "da").unlink()


def principal_inverted(root):
    path = hot(root, "principal")
    text = path.read_text().replace("<!-- BEGIN ENTRIES -->", "@@B@@").replace("<!-- END ENTRIES -->", "<!-- BEGIN ENTRIES -->")
    path.write_text(text.replace("@@B@@", "<!-- END ENTRIES -->"))


def da_double_end(root):
    path = hot(root, "da")
    path.write_text(path.read_text() + "<!-- END ENTRIES -->\n")


def principal_overlength(root):
    path = hot(root, "principal")
    path.write_text(path.read_text().replace("<!-- END ENTRIES -->",
                                             "PREFERENCE: " + "very long " * 30 + "\n<!-- END ENTRIES -->"))


def da_cap(root):
    hot(root, "da").write_text(entries_file(46))


def principal_directory(root):
    hot(root, "principal").unlink()
    hot(root, "principal").mkdir()


def state_missing(root):
    (obs(root) / "review-state.json").unlink()


def state_not_json(root):
    (obs(root) / "review-state.json").write_text('{"last_review_at": ')


def state_bad_timestamp(root):
    (obs(root) / "review-state.json").write_text('{"last_review_at": "2026-13-01T00:00:00Z"}')


def review_stale(root):
    (obs(root) / "review-state.json").write_text(json.dumps({"last_review_at": iso_from_ms(NOW_MS - 8 * DAY_MS)}))


def review_never(root):
    (obs(root) / "review-state.json").write_text('{"last_review_at": null, "turn_count_since_last_review": 2}')


def review_future(root):
    (obs(root) / "review-state.json").write_text(json.dumps({"last_review_at": iso_from_ms(NOW_MS + DAY_MS)}))


def config_negative(root):
    config = root.parent / "health.json"
    config.write_text('{"thresholds": {"proposal_backlog": -1}}')
    return ["--config", str(config)]


def memory_tree_missing(root):
    """ROOT without LIFEOS/MEMORY (LIFEOS/ still there, so the layout is LifeOS)."""
    shutil.rmtree(root / "LIFEOS" / "MEMORY")


def config_misspelt_name(root):
    """A misspelt name in a config file stays a finding (on the command line it is a usage error)."""
    config = root.parent / "health.json"
    config.write_text('{"thresholds": {"retreival_stale_ms": 5}}')
    return ["--config", str(config)]


def config_not_json(root):
    config = root.parent / "health.json"
    config.write_text("proposal_backlog = 3\n")
    return ["--config", str(config)]


def health_log_directory(root):
    (obs(root) / "memory-health.jsonl").mkdir()


def search_cache_built(root):
    """A search cache for the tree (where the audit, with the same environment, looks for it)."""
    _search_cache(root)


def _search_cache(root) -> str:
    from cortex.cli import run

    for current, _dirs, files in os.walk(memory(root) / "KNOWLEDGE"):
        for name in files:  # older than the cache's racy margin, whatever the real clock says
            os.utime(os.path.join(current, name), ns=(1_700_000_000 * 10**9,) * 2)
    code, out = run(["search", "memory", "--memory-root", str(memory(root))], environ=os.environ)
    assert code == 0, out
    code, out = run(["cache", "status", "--memory-root", str(memory(root))], environ=os.environ)
    assert out["data"]["entries"] > 0, out
    return out["data"]["path"]


def search_cache_wrong(root):
    """A cached value that differs from its file (right checksum), found by `cortex cache verify`."""
    import sqlite3
    import zlib

    from cortex.cli import run

    path = _search_cache(root)
    data = bytes([0, 0, 0, 0, 7, 0, 0, 0])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE postings SET data=?, crc=? WHERE (term, file) IN (SELECT term, file FROM postings LIMIT 1)",
                   (data, zlib.crc32(data)))
    code, out = run(["cache", "verify", "--memory-root", str(memory(root))], environ=os.environ)
    assert out["data"]["ok"] is False, out


def search_cache_garbage(root):
    path = _search_cache(root)
    with open(path, "r+b") as handle:
        handle.write(b"this is not a database" * 10)
