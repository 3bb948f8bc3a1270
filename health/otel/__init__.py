"""Application: `cortex-health --otlp`, the OTLP/HTTP (JSON) exporter. Imported only when --otlp is given.

config reads the standard OTEL_* variables, transport makes one bounded POST per signal,
export puts the run's three requests (reports.otlp.live) on the wire and turns a failure
into the `otlp-export-failed` finding. Standard library only; no OpenTelemetry SDK.
"""
