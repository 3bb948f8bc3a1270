"""The install collector's PATH search (collectors.lifeos.install.on_path) answers as shutil.which does."""
from __future__ import annotations

import os
import shutil

import pytest

from collectors.lifeos.install import on_path


@pytest.fixture()
def folders(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name in ("bin", "other", "empty"):
        (tmp_path / name).mkdir()
    tool = tmp_path / "bin" / "tool"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    plain = tmp_path / "other" / "tool"
    plain.write_text("not executable\n")
    plain.chmod(0o644)
    (tmp_path / "other" / "folder").mkdir()
    (tmp_path / "bin" / "link").symlink_to(tool)
    (tmp_path / "bin" / "dangling").symlink_to(tmp_path / "nowhere")
    local = tmp_path / "here"
    local.write_text("#!/bin/sh\n")
    local.chmod(0o755)
    return tmp_path


@pytest.mark.parametrize("program", ["tool", "link", "dangling", "folder", "here", "missing"])
@pytest.mark.parametrize("entries", [["bin"], ["other", "bin"], ["empty", "other"], ["bin", "bin", "other"],
                                     ["", "bin"], ["other", ""], ["bin/"], ["nowhere", "bin"], [":"]])
def test_on_path_answers_as_shutil_which(folders, program, entries):
    path = os.pathsep.join(entry if entry in ("", ":") else str(folders / entry) for entry in entries)
    assert on_path(program, path) == shutil.which(program, path=path)
