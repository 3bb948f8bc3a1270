"""Test session setup: derived caches go to a throw-away folder, never to the developer's ~/.cache.

Every test (and every CLI it starts, which inherits the environment) runs with the caches on,
in a folder of this process; a test about caching points CORTEX_CACHE_DIR at its own tmp_path.
Each pytest process removes its own folder when it exits (atexit: an xdist worker never runs
pytest_unconfigure).

Hypothesis runs without its per-example deadline: the suite judges answers, not speed (speed is
measured by bench/), and on a loaded machine a first example that imports a module took 827 ms
against the default 200 ms and failed a test whose answer was right.
"""
import atexit
import os
import shutil
import tempfile

from hypothesis import settings

settings.register_profile("cortex", deadline=None)
settings.load_profile("cortex")


def pytest_configure(config):
    cache = tempfile.mkdtemp(prefix="cortex-test-cache-")
    atexit.register(shutil.rmtree, cache, ignore_errors=True)
    os.environ["XDG_CACHE_HOME"] = cache
    os.environ.pop("CORTEX_CACHE_DIR", None)
    os.environ.pop("CORTEX_CACHE", None)
