"""Test session setup: derived caches go to a throw-away folder, never to the developer's ~/.cache.

Every test (and every CLI it starts, which inherits the environment) runs with the caches on,
in a folder of this process; a test about caching points CORTEX_CACHE_DIR at its own tmp_path.
Each pytest process removes its own folder when it exits (atexit: an xdist worker never runs
pytest_unconfigure).
"""
import atexit
import os
import shutil
import tempfile


def pytest_configure(config):
    cache = tempfile.mkdtemp(prefix="cortex-test-cache-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    os.environ["XDG_CACHE_HOME"] = cache
    os.environ.pop("CORTEX_CACHE_DIR", None)
    os.environ.pop("CORTEX_CACHE", None)
