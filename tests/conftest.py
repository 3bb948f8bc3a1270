"""Test session setup: derived caches go to a throw-away folder, never to the developer's ~/.cache.

Every test (and every CLI it starts, which inherits the environment) runs with the caches on,
in a folder of this process; a test about caching points CORTEX_CACHE_DIR at its own tmp_path.
"""
import os
import tempfile


def pytest_configure(config):
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="cortex-test-cache-")
    os.environ.pop("CORTEX_CACHE_DIR", None)
    os.environ.pop("CORTEX_CACHE", None)
