"""Application stage: the options of one audit run (a plain record); used by health.options, health.gate and health.run.

Its own module so that parsing a command line (and the gate's parent process, which only
parses and waits) never imports the check list and every collector behind health.run.
"""
from __future__ import annotations

FAIL_ON = ("warn", "critical", "never")  # --fail-on: what fails the run (health.options, health.checkparser)


class Options:
    """What to audit and where to publish.

    root, now, config, report_path, index_manifest, prometheus_textfile: str | None; thresholds: tuple of
    (name, value) pairs; no_write: bool; selected: tuple[str, ...] | None (collectors to run, --only/--skip;
    None: all); layout: str | None (lifeos | dense-context; None: auto-detect, health.layouts); otlp: bool (also
    push the report and the memory operations to the OTLP endpoints, health.otel); probe: bool (also run the
    synthetic probe, --probe; `--only probe` asks for it too).
    """

    __slots__ = ("root", "now", "config", "thresholds", "no_write", "report_path", "index_manifest", "selected",
                 "prometheus_textfile", "layout", "otlp", "probe")

    def __init__(self, root=None, now=None, config=None, thresholds=(), no_write=False, report_path=None,
                 index_manifest=None, selected=None, prometheus_textfile=None, layout=None, otlp=False,
                 probe=False) -> None:
        self.root, self.now, self.config, self.thresholds, self.no_write = root, now, config, thresholds, no_write
        self.report_path, self.index_manifest, self.selected = report_path, index_manifest, selected
        self.prometheus_textfile, self.layout, self.otlp, self.probe = prometheus_textfile, layout, otlp, probe
