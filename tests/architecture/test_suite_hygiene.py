"""The test suite cleans up after itself: no cache folder left in the temp folder, xdist workers included
(chromium's files go to a throw-away HOME: tests/e2e/test_serve_browser.py)."""
from __future__ import annotations

import os
import subprocess
import sys

from tests.health_support import REPO

INNER = '''
import os

def test_the_session_cache_folder_is_a_fresh_temp_folder():
    cache = os.environ["XDG_CACHE_HOME"]
    assert os.path.basename(cache).startswith("cortex-test-cache-") and os.path.isdir(cache)
    assert os.path.dirname(cache) == os.environ["TMPDIR"]
    open(os.path.join(cache, "used"), "w").close()
'''


def test_no_cortex_test_cache_folder_is_left_in_the_temp_folder(tmp_path):
    temp, tests = tmp_path / "tmp", tmp_path / "inner"
    temp.mkdir()
    tests.mkdir()
    (tests / "test_inner.py").write_text(INNER)
    env = {**os.environ, "TMPDIR": str(temp), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "tests.conftest",
                           "-n", "2", "--rootdir", str(tests), str(tests / "test_inner.py")],  # a controller, 2 workers
                          capture_output=True, text=True, env=env, cwd=tests, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert not [path.name for path in temp.iterdir() if path.name.startswith("cortex-test-cache-")]
