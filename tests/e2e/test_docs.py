"""The documentation (issue 23, point 11): the README is the front door, docs/checks.md is what the generator
writes from the catalogue, and no link of the README or docs/ points nowhere (files and #anchors)."""
from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from health.judge.catalogue import docs as checks_docs
from health.judge.catalogue.find import known_ids, problems
from tests.health_support import REPO
from thresholds.defaults import THRESHOLDS

DOCS = REPO / "docs"
PAGES = [REPO / "README.md", REPO / "CHANGELOG.md", *sorted(DOCS.glob("*.md"))]
FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.MULTILINE | re.DOTALL)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^()\s]*(?:\([^()]*\)[^()\s]*)*)(?:\s+\"[^\"]*\")?\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$", re.MULTILINE)
EXPLICIT = re.compile(r"<a\s+(?:id|name)=\"([^\"]+)\"")


def prose(text: str) -> str:
    """The Markdown without code blocks and code spans, where links and headings are not links and headings."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: the rendered text, lowercased, punctuation but `-` and `_` dropped, spaces `-`."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).replace("`", "").replace("*", "").lower()
    kept = "".join(ch for ch in text if ch in " -_" or unicodedata.category(ch)[0] in "LN")
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    found = set(EXPLICIT.findall(text))
    for _, title in HEADING.findall(text):
        base = slug(title)
        count = seen.get(base, 0)
        found.add(base if count == 0 else f"{base}-{count}")
        seen[base] = count + 1
    return found


def links(path: Path) -> list[str]:
    return LINK.findall(prose(path.read_text(encoding="utf-8")))


def test_every_relative_link_and_anchor_of_the_readme_and_docs_points_somewhere():
    broken = []
    for page in PAGES:
        for target in links(page):
            if re.match(r"[a-z]+:", target):  # https:, mailto:: not ours to check
                continue
            file_part, _, fragment = target.partition("#")
            destination = (page.parent / file_part).resolve() if file_part else page
            if not destination.exists():
                broken.append(f"{page.relative_to(REPO)}: {target} (no such file)")
            elif fragment and destination.suffix == ".md" and fragment not in anchors(destination):
                broken.append(f"{page.relative_to(REPO)}: {target} (no such anchor)")
    assert not broken, "\n".join(broken)


def test_the_link_checker_catches_what_it_must(tmp_path):
    page = tmp_path / "a.md"
    page.write_text("# Title `x`\n\n## Same\n\n## Same\n\n[ok](#title-x) [dup](#same-1) `[code](x.md)`\n"
                    "```\n[in code](nowhere.md)\n```\n[gone](missing.md) [bad](#nope) <a id=\"here\"></a>\n")
    assert {"title-x", "same", "same-1", "here"} <= anchors(page)
    assert links(page) == ["#title-x", "#same-1", "missing.md", "#nope"]
    assert slug("Search cache: `cortex cache`") == "search-cache-cortex-cache"
    assert slug("History: `cortex-health history [--last N] [--json]`") == "history-cortex-health-history---last-n---json"


def test_the_readme_is_the_front_door():
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert len(readme.encode("utf-8")) <= 20 * 1024
    for heading in ("## Quick start", "## Your own tree", "## The two CLIs in brief", "## Exit codes",
                    "## Where to read more"):
        assert heading in readme, heading
    listed = {Path(target).name for target in links(REPO / "README.md") if target.startswith("docs/")}
    assert {path.name for path in DOCS.glob("*.md")} <= listed  # every docs/ file is one line of the list
    assert "bench/" not in readme  # benchmark internals live in docs/benchmarks.md


def test_the_readme_quick_start_keeps_its_two_command_lines():
    block = (REPO / "README.md").read_text().split("## Quick start", 1)[1].split("```sh\n", 1)[1].split("```")[0]
    assert block.splitlines() == [
        "python3 -m venv .venv && . .venv/bin/activate && python3 -m pip install --upgrade pip && python3 -m pip install . && "
        "cortex-health --root fixtures/demo --now 2026-11-29T12:00:00Z --no-write --format text",
        "bash .ci/install-tools; python3 -m venv .venv && . .venv/bin/activate && python3 -m pip install --upgrade pip && "
        "python3 -m pip install -e '.[test]' "
        "&& python3 -m pytest -q -n 2"]


def test_the_checks_reference_is_what_the_generator_writes():
    assert (DOCS / "checks.md").read_text(encoding="utf-8") == checks_docs.render(), \
        "docs/checks.md is stale: run python -m health.judge.catalogue.docs"


def test_the_generator_runs_as_documented_and_is_deterministic(tmp_path):
    out = subprocess.run([sys.executable, "-m", "health.judge.catalogue.docs", "-"], capture_output=True, text=True,
                         cwd=REPO, timeout=120, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO)})
    assert out.returncode == 0 and out.stdout == checks_docs.render()
    check = subprocess.run([sys.executable, "-m", "health.judge.catalogue.docs", "--check"], capture_output=True,
                           text=True, cwd=tmp_path, timeout=120, env={"PYTHONPATH": str(REPO)})
    assert check.returncode == 1 and "is stale" in check.stderr  # no docs/checks.md there
    written = tmp_path / "checks.md"
    assert subprocess.run([sys.executable, "-m", "health.judge.catalogue.docs", str(written)], cwd=REPO, timeout=120,
                          env={"PYTHONPATH": str(REPO)}).returncode == 0
    assert written.read_text() == checks_docs.render()


def test_the_checks_reference_holds_every_id_its_entry_and_every_threshold():
    text = (DOCS / "checks.md").read_text(encoding="utf-8")
    for finding_id in known_ids():
        assert f"`{finding_id}`" in text, finding_id
    ids = [checks_docs.anchor(problem.id) for _, problem in problems()]
    assert len(ids) == len(set(ids))  # one anchor per problem id
    for _, problem in problems():
        assert f'<a id="{checks_docs.anchor(problem.id)}"></a>' in text
        assert checks_docs.inline(problem.fix) in text
        for name in problem.threshold_names:
            assert f"`{name}` (default" in text
    for spec in THRESHOLDS:
        assert f"| `{spec.name}` | {spec.layout} |" in text and spec.env in text


@pytest.mark.parametrize("text, shown", [("a <cortex home> b", "a &lt;cortex home&gt; b"),
                                         ("`<x>` and *.lock", "`<x>` and \\*.lock")])
def test_catalogue_prose_is_escaped_outside_code(text, shown):
    assert checks_docs.inline(text) == shown
