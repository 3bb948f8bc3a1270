"""Start-up: each command every agent turn runs imports only what it uses (fresh interpreter, sys.modules after main)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cortex.commands import _COMMAND_MODULES, registry
from cortex.envelope import Envelope
from cortex.envelope_data import envelope_problem, failure, success
from tests.health_support import NOW, clean_env, copy_demo
from tests.write_support import REPO, tree  # noqa: F401 - fixture

# Never on a hot path: validation and rendering libraries, the reviewer, the benchmark, the dashboard server.
HEAVY = ("pydantic", "pydantic_core", "rich", "psutil", "yaml", "jsonschema", "hypothesis", "http.server",
         "cortex.review.reviewer", "cortex.benchmark", "cortex.commands.benchmark", "concurrent.futures", "asyncio")

_CHILD = """
import sys
preloaded = set(sys.modules)  # what the interpreter and site (.pth files) loaded: not the command's doing
import io
kind, out, args = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.stdin = io.StringIO('')
try:
    if kind == "cortex":
        from cortex.cli import main
        main(args)
    else:
        from health.cli import dispatch
        dispatch(args)
except SystemExit:
    pass
loaded = sorted(set(sys.modules) - preloaded)
import json
with open(out, "w") as handle:
    json.dump(loaded, handle)
"""


def modules_after(kind: str, args: list[str], env: dict, tmp_path) -> set[str]:
    out = tmp_path / "modules.json"
    proc = subprocess.run([sys.executable, "-c", _CHILD, kind, str(out), *args], capture_output=True,
                          env=env, cwd=str(REPO), timeout=120)
    assert out.exists(), proc.stderr.decode()
    return set(json.loads(out.read_text()))


def heavy_in(modules: set[str], extra: tuple[str, ...] = ()) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY + extra))


@pytest.mark.parametrize("args", [["--bogus"], ["hot", "render"], ["recall", "tea"], ["review", "fire", "--session", "s1"],
                                  ["status"], ["search", "tea"]])
def test_cortex_commands_import_nothing_heavy(tree, tmp_path, args):  # noqa: F811 - fixture
    modules = modules_after("cortex", args, tree.env(), tmp_path)
    assert heavy_in(modules) == []
    if args == ["--bogus"]:  # an unknown command imports no command module at all
        assert not [m for m in modules if m.startswith("cortex.commands.")]
    if args[0] not in ("recall", "status", "search"):  # only the corpus readers open the search cache
        assert heavy_in(modules, ("sqlite3", "_sqlite3", "cortex.searchcache")) == []
    assert heavy_in(modules, ("cortex.helptext",)) == []  # help text only for a help request
    if args[0] == "hot":  # the block is text: the JSON writer (and its surrogate pattern) only for an envelope
        assert heavy_in(modules, ("cortex.core.jsjson", "importlib")) == []


@pytest.mark.parametrize("args", [["status"], ["search", "tea"]])
def test_uncached_reads_load_no_cache_and_no_hashing(tree, tmp_path, args):  # noqa: F811 - fixture
    """CORTEX_CACHE=off: the corpus is read as `rebuild` reads it, without sqlite or the cache's modules; only
    `rebuild` hashes (hashlib's OpenSSL) and no read command needs typing."""
    modules = modules_after("cortex", args, tree.env(CORTEX_CACHE="off"), tmp_path)
    assert heavy_in(modules, ("sqlite3", "_sqlite3", "cortex.searchcache", "hashlib", "_hashlib", "typing",
                              "cortex.core.digest")) == []
    if args == ["status"]:  # counting records ranks nothing: no tokenizer (its patterns) and no ranking
        assert heavy_in(modules, ("cortex.core.search", "cortex.core.tokenize", "cortex.core.unicode_tables")) == []


@pytest.mark.parametrize("args", [["search", "tea"], ["recall", "tea"]])
def test_the_first_call_of_a_cache_loads_no_sqlite(tree, tmp_path, args):  # noqa: F811 - fixture
    """No database yet (installed, `cortex cache clear`): the call reads as an uncached one does and only hands the
    files to the builder, which creates the database; sqlite and the cache's readers stay unloaded."""
    cache = tmp_path / "cache"
    modules = modules_after("cortex", args, tree.env(CORTEX_CACHE_DIR=str(cache)), tmp_path)
    assert "cortex.searchcache.builder" in modules  # the cache path was taken: the files go to the builder
    assert heavy_in(modules, ("sqlite3", "_sqlite3", "cortex.searchcache.cached", "cortex.searchcache.store",
                              "cortex.searchcache.summary", "cortex.searchcache.merged")) == []


# Defining a dataclass costs ~0.5 ms and `import dataclasses` 7-11 ms (inspect, ast, dis, tokenize):
# the commands every agent turn runs define their records as named tuples instead.
@pytest.mark.parametrize("args", [
    ["--bogus"], ["hot", "render"], ["review", "fire", "--session", "s1"], ["recall", "tea"]])
def test_turn_commands_import_no_dataclasses(tree, tmp_path, args):  # noqa: F811 - fixture
    modules = modules_after("cortex", args, tree.env(), tmp_path)
    assert heavy_in(modules, ("dataclasses", "inspect")) == []


# The audit's digests come from CPython's own SHA-256 and BLAKE2b (cortex.core.sha256: OpenSSL only for a
# megabyte or more), its PATH search is the install collector's own (shutil brings bz2, lzma and zlib); a format
# module and a lazy row's module load through __import__ (importlib brings warnings).
NOT_ON_THE_AUDIT = ("hashlib", "_hashlib", "shutil", "bz2", "lzma", "importlib", "warnings",
                    "collectors.dense_context.layout",  # a LifeOS audit's detection asks only context_of
                    # the lists it does not run (health.judge.checks builds them on first use)
                    "health.judge.catalogue.dense_context", "health.judge.catalogue.probe",
                    # no config file and no threshold set: no offered value's units, no config's private spans
                    "thresholds.quantities", "cortex.core.privatejson",
                    "collectors.healthlog.verify",  # no health log yet (--no-write): no chain to verify
                    "collectors.metric",  # the collectors' metrics(): only monitoring formats (Prometheus, OTLP, Nagios)
                    "collectors.healthlog.format",  # no stored line read back
                    "shlex",  # plain hook commands are split without it (collectors.readers.settings.shell_words)
                    "json",  # its decoder and encoder compile six patterns: JSON goes through cortex.core.hookjson
                    "re")  # (~8M instructions with its compiler) a healthy tree's rows, ids and words are read without it
# The audit's plain command line is read without argparse (health.quickargs; gettext and locale with it).
NOT_ON_THE_AUDITS_COMMAND_LINE = ("argparse", "gettext", "locale", "health.parser", "health.checkparser")
# Without the health log's lock file (the gate takes that lock) nothing loads fcntl, an extension module.
NOT_WITHOUT_A_LOCK = ("fcntl",)


# A healthy report in text without a terminal is plain lines: no rich (HEAVY) either.
@pytest.mark.parametrize("args", [["--format", "json", "--no-write"], ["--format", "text", "--no-write"],
                                  ["gate", "--timeout", "60"]])
def test_the_auditor_imports_nothing_heavy(tmp_path, args):
    root = copy_demo(tmp_path)
    modules = modules_after("health", [*args, "--root", str(root), "--now", NOW], clean_env(), tmp_path)
    # The gate's parent only parses, locks and forks its detached check: no judge (check list, rules, catalogue),
    # no collector (but the status line's path names, collectors.readers.paths, and the newest report read back,
    # collectors.healthlog.read with the line's shape), no subprocess.
    extra = ("health.judge", "collectors", "subprocess") if args[0] == "gate" else ()
    # Records are named tuples (a dataclass costs ~0.5 ms to define); the host name comes from os.uname;
    # typing (~2 ms) only behind TYPE_CHECKING.
    found = heavy_in(modules, extra + ("dataclasses", "inspect", "socket", "secrets", "typing") + NOT_ON_THE_AUDIT
                     + (NOT_ON_THE_AUDITS_COMMAND_LINE + NOT_WITHOUT_A_LOCK if args[0] != "gate" else ()))
    allowed = ("collectors", "collectors.readers", "collectors.readers.paths", "collectors.healthlog",
               "collectors.healthlog.format", "collectors.healthlog.read")
    assert [name for name in found if name not in allowed] == []


_BARE_AUDIT = """
import sys
preloaded = set(sys.modules)
from health.cli import dispatch
try:
    dispatch(sys.argv[2:])
except SystemExit:
    pass
with open(sys.argv[1], "w") as handle:
    handle.write("\\n".join(sorted(set(sys.modules) - preloaded)))
"""
# What the interpreter alone loads, which site (an editable install's finder) hides from the test above: a healthy
# audit, its memos warm, reads its rows, ids and hook commands without patterns, its JSON through `_json`, its
# vocabularies as cortex.core.closedset, its records through cortex.core.namedtuples (collections, and functools
# which imports it, ~10M instructions), MappingProxyType and SimpleNamespace without `types`, and the length of a
# BMP text without the UTF-16 codec; a number's finiteness by cortex.core.numbers.is_finite (math is a shared library).
NOT_ON_A_WARM_AUDIT = ("re", "enum", "json", "collections", "functools", "types", "encodings.utf_16_le", "math")


def test_a_warm_audit_of_a_healthy_tree_loads_no_patterns_enum_or_json(tmp_path):
    root = copy_demo(tmp_path)
    args = ["--format", "json", "--no-write", "--root", str(root), "--now", NOW]
    env = clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"))
    first = subprocess.run([sys.executable, "-m", "health", *args], capture_output=True, env=env, cwd=str(REPO),
                           timeout=120)  # the first run writes the memos
    assert first.returncode == 0, first.stderr
    out = tmp_path / "modules.txt"
    # -S: no site, so nothing a .pth file loads hides what the audit loads
    proc = subprocess.run([sys.executable, "-S", "-c", _BARE_AUDIT, str(out), *args], capture_output=True, text=True,
                          env=env, cwd=str(REPO), timeout=120)
    assert out.exists(), proc.stderr
    loaded = set(out.read_text().split())
    assert "health.judge.checks" in loaded and "collectors.lifeos.hook_latency" in loaded  # it audited
    assert heavy_in(loaded, NOT_ON_A_WARM_AUDIT) == []


# What `import json` (its decoder and scanner compile patterns: ~5M instructions) and the rest cost a Stop or
# prompt hook that needs none of it: the hooks read and write JSON through cortex.core.hookjson (`_json`).
_BARE_CHILD = """
import sys
preloaded = set(sys.modules)
from cortex.cli import main
main(sys.argv[2:])
with open(sys.argv[1], "w") as handle:
    handle.write("\\n".join(sorted(set(sys.modules) - preloaded)))
"""
# Annotations' collections.abc, the did-you-mean hint and the root-shape explanations (errors only) never load either;
# the render's root needs no shape check, and the private-tag check folds ASCII (the hot files' `<!--`) without
# unicodedata.
NOT_ON_HOOK_PATHS = ("json", "math", "collections.abc", "cortex.core.spelling", "unicodedata", "cortex.core.numbers",
                     "cortex.write.refusals", "re", "enum")  # `re` (~10M with enum): patterns compile on first use
# The render's records are plain classes (no named tuple: collections and its imports), its patterns compile on first
# use without functools.cache.
NOT_ON_RENDER = ("cortex.rootshape", "errno", "collections", "functools", "types", "operator")
NOT_ON_FIRE = ()


@pytest.mark.parametrize("args,stdin", [
    (["hot", "render"], ""), (["review", "fire", "--session", "s1"], ""),
    (["review", "fire"], json.dumps({"session_id": "s2", "transcript_path": "/nowhere.jsonl"}))])
def test_prompt_and_stop_hooks_import_no_json_module(tree, tmp_path, args, stdin):  # noqa: F811 - fixture
    out = tmp_path / "modules.txt"
    # -S: no site, so nothing a .pth file loads (an editable install's finder loads `re`) hides what the hook loads
    proc = subprocess.run([sys.executable, "-S", "-c", _BARE_CHILD, str(out), *args], input=stdin, capture_output=True,
                          text=True, env=tree.env(), cwd=str(REPO), timeout=120)
    assert out.exists(), proc.stderr
    assert proc.returncode == 0 and proc.stderr == ""  # (only a bad payload's error loads json, to word it)
    assert heavy_in(set(out.read_text().split()), NOT_ON_HOOK_PATHS + (NOT_ON_RENDER if args[0] == "hot" else NOT_ON_FIRE)) == []



def _launched_modules(script: Path, args: list[str], env: dict, stdin: str) -> set[str]:
    """What a run of an installed console script imports after site: its launcher's and the command's modules."""
    proc = subprocess.run([str(script), *args], input=stdin, capture_output=True, text=True, timeout=120,
                          env={**env, "PYTHONPROFILEIMPORTTIME": "1"}, cwd=str(REPO))
    assert proc.returncode == 0, proc.stderr
    names = [line.rsplit("|", 1)[1] for line in proc.stderr.splitlines() if line.startswith("import time:")]
    after_site = names[max(i for i, name in enumerate(names) if name == " site") + 1:]
    return {name.strip() for name in after_site}


@pytest.mark.parametrize("args,stdin", [(["hot", "render"], ""), (["review", "fire", "--session", "s1"], "")])
def test_the_installed_console_script_loads_no_re_on_the_hook_paths(tree, args, stdin):  # noqa: F811 - fixture
    """The hooks as agents run them: `cortex` on PATH, whose launcher the installer wrote."""
    script = Path(sys.executable).parent / "cortex"
    assert script.is_file(), "cortex is not installed in the interpreter running the tests"
    if "import re\n" in script.read_text(encoding="utf-8"):  # pip < 25.0 (and distlib) write `import re` first
        pytest.skip(f"{script} was written by an installer whose launcher imports re (pip < 25.0): "
                    "python3 -m pip install -U pip, then reinstall")
    loaded = _launched_modules(script, args, tree.env(), stdin)
    assert "cortex.cli" in loaded  # the parse saw the command's own imports
    assert heavy_in(loaded, ("re", "enum", "json")) == []

def test_the_command_table_names_every_registered_command_and_its_module():
    specs = registry()
    assert set(_COMMAND_MODULES) == set(specs)
    for name, module in _COMMAND_MODULES.items():
        assert specs[name].handler.__module__ == f"cortex.commands.{module}"


@pytest.mark.parametrize("envelope", [
    success("status", {"a": 1}), failure("x", "invalid_input", "m"), success("s", {}),
    {**success("s", {}), "ok": 1}, {**success("s", {}), "data": None}, {**success("s", {}), "error": {}},
    {**failure("x", "c", "m"), "data": {}}, {**failure("x", "c", "m"), "error": {"code": "c"}},
    {**failure("x", "c", "m"), "error": {"code": 1, "message": "m"}}, {**success("s", {}), "schema": "other"},
    {**success("s", {}), "extra": 1}, {**success(3, {}), }, {**success("s", {1: 2})}, {**failure("x", "c", "m"), "ok": 0},
])
def test_the_stdlib_envelope_check_agrees_with_the_model(envelope):
    try:
        Envelope.model_validate(envelope)
        valid = True
    except ValueError:
        valid = False
    assert (envelope_problem(envelope) is None) == valid


def test_review_fire_reads_init_s_unchanged_config_without_pydantic_and_validates_an_edited_one(tree, tmp_path):  # noqa: F811
    config = tree.lifeos / "USER" / "CONFIG" / "memory-review.json"
    assert config.exists()  # written by cortex init
    assert heavy_in(modules_after("cortex", ["review", "fire", "--session", "s1"], tree.env(), tmp_path)) == []
    config.write_text(config.read_text().replace('"turn_threshold": 8', '"turn_threshold": 9'))
    assert "pydantic" in modules_after("cortex", ["review", "fire", "--session", "s2"], tree.env(), tmp_path)


def test_review_fire_defaults_are_the_models_defaults():
    from cortex.review.reviewconfig import DEFAULTS
    from cortex.review.reviewdefaults import DEFAULT_MIN_MINUTES_BETWEEN, DEFAULT_TURN_THRESHOLD

    assert (DEFAULTS.turn_threshold, DEFAULTS.min_minutes_between, DEFAULTS.pass_env) == (
        DEFAULT_TURN_THRESHOLD, DEFAULT_MIN_MINUTES_BETWEEN, [])


_GC_CHILD = """
import gc, json, sys
kind, args = sys.argv[1], json.loads(sys.argv[2])
if kind == "cortex":
    from cortex.cli import main
    main(args)
else:
    from health.cli import main
    main(args)
print(json.dumps({"enabled": gc.isenabled(), "frozen": gc.get_freeze_count()}))
"""


@pytest.mark.parametrize("kind,args", [("health", ["--format", "json", "--no-write"]), ("cortex", ["hot", "render"]),
                                       ("cortex", ["recall", "green tea"])])  # recall holds it off for its work
def test_the_collector_pauses_while_a_command_loads_and_is_on_again_after(tree, tmp_path, kind, args):  # noqa: F811
    """Start-up objects are frozen out of collection (gc.freeze) and the collector runs again afterwards."""
    if kind == "health":
        argv, env = [*args, "--root", str(copy_demo(tmp_path)), "--now", NOW], clean_env()
    else:
        argv, env = args, tree.env()
    proc = subprocess.run([sys.executable, "-c", _GC_CHILD, kind, json.dumps(argv)], capture_output=True, text=True,
                          env=env, cwd=str(REPO), timeout=120)
    state = json.loads(proc.stdout.strip().splitlines()[-1])
    assert state["enabled"] is True
    assert state["frozen"] > 1000  # the modules, functions and records start-up made


# A warm recall of an ASCII prompt: the corpus's files walked, never parsed (no JSONL reader, no privacy of JSON, no
# error locator), the hot files' frontmatter and the snippets read without patterns, the tokenizer's Unicode tables
# (re, enum, unicodedata) only for text beyond ASCII.
NOT_ON_A_WARM_RECALL = ("json", "sqlite3", "datetime", "cortex.core.related", "_blake2", "hashlib", "re", "enum",
                        "unicodedata", "cortex.core.unicode_tables", "cortex.core.jsonlrows", "cortex.core.privatejson",
                        "cortex.core.corpusfaults", "cortex.core.strictjson", "cortex.rootshape",
                        # nothing to build, nothing read cold, no floor setting, no cache folder to clear
                        "cortex.searchcache.builder", "cortex.searchcache.coldcorpus", "cortex.hot.hotrender",
                        "cortex.core.numbers", "errno",
                        # array and _sqlite3 load without them (cortex.core.lightstdlib): ~8M instructions; _bisect directly
                        "collections", "functools", "operator", "reprlib", "types", "bisect")


def test_a_warm_recall_decodes_no_record_and_imports_no_json(tree, tmp_path):  # noqa: F811 - fixture
    """Warm (the search cache and its summary current), recall takes every file's facts from the summary: no JSON
    decoder, no `related:` reader (json and the two load twelve patterns), no sqlite3 package (its datetime), no
    pattern at all (NOT_ON_A_WARM_RECALL)."""
    import os

    from cortex.cli import run

    knowledge = tree.memory / "KNOWLEDGE"
    knowledge.mkdir(exist_ok=True)
    for n in range(3):
        path = knowledge / f"n{n}.jsonl"
        path.write_text(json.dumps({"id": f"t{n}", "type": "memory", "title": f"tea {n}", "created": "2026-01-01",
                                    "updated": "2026-01-02", "content": f"green tea notes {n}"}) + "\n")
        os.utime(path, ns=(1_700_000_000 * 10**9, 1_700_000_000 * 10**9 + n))
    for _ in range(2):  # cold (builds before returning, in-process), then warm from the rows (writes the summary)
        assert run(["recall", "green tea"], environ=tree.env())[0] == 0
    assert "last_updated:" in tree.principal.read_text()  # the hot files' frontmatter is read too
    out = tmp_path / "modules.txt"
    # -S: no site, so nothing a .pth file loads (an editable install's finder loads `re`) hides what the hook loads
    proc = subprocess.run([sys.executable, "-S", "-c", _BARE_CHILD, str(out), "recall", "green tea"],
                          capture_output=True, text=True, env=tree.env(), cwd=str(REPO), timeout=120)
    assert out.exists(), proc.stderr
    assert "green tea notes" in proc.stdout
    loaded = set(out.read_text().split())
    assert "cortex.searchcache.summary" in loaded and "cortex.core.tokenize" in loaded  # it ranked, from the summary
    assert heavy_in(loaded, NOT_ON_A_WARM_RECALL) == []  # (the summary's seal: zlib's CRC-32)


_RECORDS_CHILD = """
import json, sys
from health.cli import dispatch
try:
    dispatch(sys.argv[2:])
except SystemExit:
    pass
ours = ("cortex", "collectors", "health", "reports", "thresholds")
named = sorted(f"{name}.{key}" for name, module in list(sys.modules.items()) if name.split(".")[0] in ours
               for key, value in vars(module).items() if isinstance(value, type) and issubclass(value, tuple)
               and hasattr(value, "_fields") and value.__module__ == name)
with open(sys.argv[1], "w") as handle:
    json.dump(named, handle)
"""
# A namedtuple class costs ~0.4M instructions to create (it compiles its constructor; cortex.core.namedtuples, which
# the audit's records use instead, ~0.2M); a record whose tuple behaviour nothing uses is a plain __slots__ class. These are the ones that use it
# (_replace, _asdict, nested equality in tests, immutability the tests check); a new record joins them only so.
# A first run (no memos yet: the hot-content detectors and the corpus parser load too) creates 22.
AUDIT_NAMED_TUPLES = 22


def test_the_audit_creates_named_tuples_only_where_tuple_behaviour_is_used(tmp_path):
    out = tmp_path / "records.json"
    args = ["--format", "json", "--no-write", "--root", str(copy_demo(tmp_path)), "--now", NOW]
    proc = subprocess.run([sys.executable, "-c", _RECORDS_CHILD, str(out), *args], capture_output=True,
                          env=clean_env(), cwd=str(REPO), timeout=120)
    assert out.exists(), proc.stderr.decode()
    named = json.loads(out.read_text())
    assert len(named) <= AUDIT_NAMED_TUPLES, named
