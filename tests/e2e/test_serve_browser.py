"""The dashboard in a real browser: headless Chromium loads each page from a test server and the rendered DOM is checked."""
from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.health_support import copy_demo
from tests.serve_support import Server, varied_history

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--enable-logging=stderr", "--v=0"]


def chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("chromium is not installed (Debian package chromium; .ci/install-tools installs it)")
    return path


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    root = copy_demo(tmp_path_factory.mktemp("browser"))
    varied_history(root)
    server = Server(root)
    yield server
    server.stop()


def browse(tmp_path, url: str, *extra: str) -> subprocess.CompletedProcess:
    profile = tmp_path / "profile"
    # Chromium keeps its crash database under $HOME/.config/chromium whatever --user-data-dir says: a throw-away HOME.
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"),
           "XDG_CACHE_HOME": str(home / ".cache")}
    return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *extra, url], capture_output=True,
                          text=True, timeout=120, stdin=subprocess.DEVNULL, cwd=tmp_path, env=env)


@pytest.mark.parametrize("path, expected", [
    ("/", ['<span id="overall" class="verdict warn">WARN</span>', '<table id="findings">',
           'data-id="proposal-backlog-high"', 'data-state="intact"']),
    ("/history", ['<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img"', "Overall over time",
                  "Reviewer age (hours)", "Observability bytes", "Pending proposals", "<polyline"]),
    ("/checks", ['<table id="checks">', 'data-id="cortex-threshold-invalid"', "(flapping)"]),
])
def test_each_page_renders_in_chromium(served, tmp_path, path, expected):
    done = browse(tmp_path, served.url + path, "--dump-dom")
    assert done.returncode == 0, done.stderr[-2000:]
    assert (tmp_path / "home" / ".config" / "chromium").is_dir()  # its own files went to the throw-away HOME
    for text in expected:
        assert text in done.stdout, text
    assert "Content Security Policy" not in done.stderr  # nothing on the page was blocked (the stylesheet loads)
    assert "<script" not in done.stdout


def test_screenshot_is_kept_as_an_artefact(served, tmp_path):
    shot = tmp_path / "dashboard-history.png"
    done = browse(tmp_path, served.url + "/history", f"--screenshot={shot}", "--window-size=1280,1000",
                  "--hide-scrollbars")
    assert done.returncode == 0, done.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000
