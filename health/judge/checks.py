"""Judgement: THE check list, in report order. Read by health.run, the options (--only/--skip) and the catalogue.

Each row names one collector (what it measures), the rule that judges its evidence and
the catalogue entries (meaning, causes, fix) of the ids that rule emits. Adding a check
is its collector module, its catalogue module with its problems, its rule module and one row
in its layout's list here (CHECKS: LifeOS; DENSE_CONTEXT: Dense Context; the layout's spec in
health.layouts names its list). The run's own inputs are judged first (INPUTS); ids about
collector errors, publication and the gate come last (health.judge.catalogue.run.OUTCOMES).
The Dense Context rows (one line each in _DC_ROWS) import their collector and rule modules on
first use, so a LifeOS audit never loads them; so does the probe's row (PROBE), which runs
only when asked for (--probe, `cortex-health probe`). Their shared tree scan is their layout's
prepare step (health.layouts.dense_context), not an import.
"""
from __future__ import annotations

import sys

from collectors.lifeos import (dispatch_failures, health_history, heartbeats, hot_memory, index, install, locks,
                               memory_root, observability, proposals, retrieval, review_cadence, review_state,
                               reviewer, reviewer_lifecycle, search_cache)
from collectors.lifeos import corpus, hook_failures, hook_latency, hot_content, reviewer_config
from collectors.runner import Collector
from health.judge.catalogue import Check
from health.judge.catalogue import dispatch_failures as dispatch_failures_entries
from health.judge.catalogue import heartbeats as heartbeats_entries
from health.judge.catalogue import install as install_entries
from health.judge.catalogue import locks as locks_entries
from health.judge.catalogue import memory_root as memory_root_entries
from health.judge.catalogue import review_cadence as review_cadence_entries
from health.judge.catalogue import reviewer_lifecycle as reviewer_lifecycle_entries
from health.judge.catalogue import health_history as health_history_entries
from health.judge.catalogue import hot_memory as hot_memory_entries
from health.judge.catalogue import hot_content as hot_content_entries
from health.judge.catalogue import hook_latency as hook_latency_entries
from health.judge.catalogue import index as index_entries
from health.judge.catalogue import observability as observability_entries
from health.judge.catalogue import proposals as proposals_entries
from health.judge.catalogue import retrieval as retrieval_entries
from health.judge.catalogue import review_state as review_state_entries
from health.judge.catalogue import search_cache as search_cache_entries
from health.judge.catalogue import reviewer as reviewer_entries
from health.judge.catalogue import run as run_entries
from health.judge.catalogue import corpus as corpus_entries
from health.judge.catalogue import hook_failures as hook_failures_entries
from health.judge.catalogue import reviewer_config as reviewer_config_entries
from health.judge.rules import Rule
from health.judge.rules import dispatch_failures as dispatch_failures_rule
from health.judge.rules import heartbeats as heartbeats_rule
from health.judge.rules import install as install_rule
from health.judge.rules import locks as locks_rule
from health.judge.rules import memory_root as memory_root_rule
from health.judge.rules import review_cadence as review_cadence_rule
from health.judge.rules import reviewer_lifecycle as reviewer_lifecycle_rule
from health.judge.rules import health_history as health_history_rule
from health.judge.rules import hot_memory as hot_memory_rule
from health.judge.rules import hot_content as hot_content_rule
from health.judge.rules import hook_latency as hook_latency_rule
from health.judge.rules import index as index_rule
from health.judge.rules import observability as observability_rule
from health.judge.rules import proposals as proposals_rule
from health.judge.rules import retrieval as retrieval_rule
from health.judge.rules import review_state as review_state_rule
from health.judge.rules import search_cache as search_cache_rule
from health.judge.rules import reviewer as reviewer_rule
from health.judge.rules import run_inputs
from health.judge.rules import corpus as corpus_rule
from health.judge.rules import hook_failures as hook_failures_rule
from health.judge.rules import reviewer_config as reviewer_config_rule
from cortex.core.namedtuples import namedtuple  # collections.namedtuple, without collections

TYPE_CHECKING = False
if TYPE_CHECKING:
    from health.judge.rules import Judge


class CheckRow(namedtuple("CheckRow", "collector judge entries")):
    """One collector, the rule that judges its evidence, and the catalogue entries of that rule's ids.

    collector: Collector; judge: Judge; entries: tuple[Check, ...].
    """

    __slots__ = ()

    @property
    def name(self) -> str:
        return self.collector.name


def row(name: str, collect, judge: Judge, entries: tuple[Check, ...]) -> CheckRow:
    return CheckRow(Collector(name, collect), judge, entries)


CHECKS: tuple[CheckRow, ...] = (
    row("memory_root", memory_root.collect, memory_root_rule.judge, memory_root_entries.CHECKS),  # the rest read below it
    row("install", install.collect, install_rule.judge, install_entries.CHECKS),
    row("heartbeats", heartbeats.collect, heartbeats_rule.judge, heartbeats_entries.CHECKS),
    row("hook_failures", hook_failures.collect, hook_failures_rule.judge, hook_failures_entries.CHECKS),
    row("reviewer_config", reviewer_config.collect, reviewer_config_rule.judge, reviewer_config_entries.CHECKS),
    row("reviewer", reviewer.collect, reviewer_rule.judge, reviewer_entries.CHECKS),
    row("review_cadence", review_cadence.collect, review_cadence_rule.judge, review_cadence_entries.CHECKS),
    row("reviewer_lifecycle", reviewer_lifecycle.collect, reviewer_lifecycle_rule.judge,
        reviewer_lifecycle_entries.CHECKS),
    row("dispatch_failures", dispatch_failures.collect, dispatch_failures_rule.judge, dispatch_failures_entries.CHECKS),
    row("locks", locks.collect, locks_rule.judge, locks_entries.CHECKS),
    row("retrieval", retrieval.collect, retrieval_rule.judge, retrieval_entries.CHECKS),
    row("hook_latency", hook_latency.collect, hook_latency_rule.judge, hook_latency_entries.CHECKS),
    row("proposals", proposals.collect, proposals_rule.judge, proposals_entries.CHECKS),
    row("observability", observability.collect, observability_rule.judge, observability_entries.CHECKS),
    row("index", index.collect, index_rule.judge, index_entries.CHECKS),
    row("search_cache", search_cache.collect, search_cache_rule.judge, search_cache_entries.CHECKS),
    # after search_cache: reading through the cache, as recall does, drops a damaged one (reported just before)
    row("corpus", corpus.collect, corpus_rule.judge, corpus_entries.CHECKS),
    row("hot_memory", hot_memory.collect, hot_memory_rule.judge, hot_memory_entries.CHECKS),
    row("hot_content", hot_content.collect, hot_content_rule.judge, hot_content_entries.CHECKS),
    row("review_state", review_state.collect, review_state_rule.judge, review_state_entries.CHECKS),
    row("health_history", health_history.collect, health_history_rule.judge, health_history_entries.CHECKS),
)



def _dc_entries(name: str) -> tuple[Check, ...]:
    """The Dense Context catalogue entries of one collector (their keys start with its name, `-` for `_`)."""
    from health.judge.catalogue import dense_context as dense_context_entries

    return tuple(c for c in dense_context_entries.CHECKS if c.key.startswith(name.replace("_", "-") + ":"))


# (collector name, module name under collectors.dense_context and health.judge.rules.dense_context), report order
_DC_ROWS = (("dc_structure", "structure"), ("dc_caps", "caps"), ("dc_atoms", "atoms"), ("dc_references", "references"),
            ("dc_index", "index_drift"), ("dc_access_log", "access_log"), ("dc_decisions", "decisions"))


def _lazy(module: str, function: str):
    """`function` of `module`, imported on first call: a layout not audited (and the probe) never loads its modules."""
    def call(*args):
        __import__(module)  # importlib.import_module's answer, without loading importlib (and warnings) for it
        return getattr(sys.modules[module], function)(*args)
    return call


def probe_row(budget_ms: int | None = None) -> CheckRow:
    """The synthetic probe (--probe, `cortex-health probe`), within budget_ms (probe_timeout_ms); its collector and
    rule modules load only when it runs, never on the plain audit's path."""
    from health.judge.catalogue import probe as probe_entries

    def collect(layout):
        from collectors.lifeos.probe.collect import collect as probe
        from thresholds.defaults import BY_NAME

        return probe(layout, int(budget_ms if budget_ms is not None else BY_NAME["probe_timeout_ms"].default))
    return row("probe", collect, _lazy("health.judge.rules.probe", "judge"), probe_entries.CHECKS)


def _other_lists() -> dict[str, tuple[CheckRow, ...]]:
    """The lists a LifeOS audit does not run, built on first use (their catalogue modules cost every audit ~1M)."""
    dense = tuple(row(name, _lazy(f"collectors.dense_context.{module}", "collect"),
                      _lazy(f"health.judge.rules.dense_context.{module}", "judge"), _dc_entries(name))
                  for name, module in _DC_ROWS)
    probe = (probe_row(),)
    return {"DENSE_CONTEXT": dense, "PROBE": probe, "EVERY_LAYOUT": CHECKS + dense + probe}


def _other(name: str) -> tuple[CheckRow, ...]:
    if name not in globals():
        globals().update(_other_lists())
    return globals()[name]


def __getattr__(name: str):
    """DENSE_CONTEXT: the Dense Context layout's list (--layout dense-context; it never runs on a LifeOS tree, nor
    CHECKS on it); PROBE: added to the LifeOS list when the probe is asked for (health.inputs); EVERY_LAYOUT: what
    --only/--skip, explain and --list-checks know. Built once, on first use (PEP 562)."""
    if name not in ("DENSE_CONTEXT", "PROBE", "EVERY_LAYOUT"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return _other(name)


INPUTS = Rule(None, run_inputs.judge, run_entries.INPUTS)  # thresholds, config and clock: judged before any evidence


def rules(checks: tuple[CheckRow, ...] = CHECKS) -> tuple[Rule, ...]:
    """What the evaluator applies, in report order."""
    return (INPUTS,) + tuple(Rule(item.name, item.judge, item.entries) for item in checks)


def collectors(checks: tuple[CheckRow, ...] = CHECKS) -> tuple[Collector, ...]:
    return tuple(item.collector for item in checks)


def names(checks: tuple[CheckRow, ...] | None = None) -> list[str]:
    """Every collector's name (of every layout unless `checks` says), in report order (what --only and --skip accept)."""
    return [item.name for item in (_other("EVERY_LAYOUT") if checks is None else checks)]


def catalogue(checks: tuple[CheckRow, ...] | None = None) -> tuple[Check, ...]:
    """Every catalogue entry in report order (of every layout unless `checks` says), each naming its row's collector."""
    every = _other("EVERY_LAYOUT") if checks is None else checks
    rows = tuple(entry._replace(collector=item.name) for item in every for entry in item.entries)
    return run_entries.INPUTS + rows + run_entries.OUTCOMES
