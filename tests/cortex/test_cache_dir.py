"""The cache location rule shared by the search cache and the auditor's log cursors."""
import os
import stat

from cortex.core.cachedir import cache_base, cache_dir, cache_enabled, root_key


def test_location_order_and_switch(tmp_path):
    assert cache_base({"CORTEX_CACHE_DIR": str(tmp_path / "c"), "XDG_CACHE_HOME": "/x"}) == str(tmp_path / "c")
    assert cache_base({"XDG_CACHE_HOME": "/x", "HOME": "/h"}) == "/x/cortex"
    assert cache_base({"XDG_CACHE_HOME": "relative", "HOME": "/h"}) == "/h/.cache/cortex"
    assert cache_base({}) is None
    for off in ("off", "OFF", "0", "no", "false"):
        assert not cache_enabled({"CORTEX_CACHE": off})
        assert cache_base({"CORTEX_CACHE": off, "CORTEX_CACHE_DIR": str(tmp_path)}) is None
    assert cache_enabled({"CORTEX_CACHE": "on"})


def test_private_folder_per_root(tmp_path):
    env = {"CORTEX_CACHE_DIR": str(tmp_path / "cache")}
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir(), b.mkdir()
    first = cache_dir(env, "search", str(a))
    assert first and first != cache_dir(env, "search", str(b))
    assert os.path.basename(first) == root_key(str(a))
    for path in (first, os.path.dirname(first), str(tmp_path / "cache")):
        assert stat.S_IMODE(os.lstat(path).st_mode) == 0o700
    assert cache_dir(env, "search", str(a), create=False) == first
    assert cache_dir(env, "audit", str(a), create=False) is None


def test_unusable_location_means_no_cache(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert cache_dir({"CORTEX_CACHE_DIR": str(blocker)}, "search", str(tmp_path)) is None
    target = tmp_path / "elsewhere"
    target.mkdir()
    (tmp_path / "link").symlink_to(target)
    assert cache_dir({"CORTEX_CACHE_DIR": str(tmp_path / "link")}, "search", str(tmp_path)) is None
