"""Report stage: OpenTelemetry OTLP/JSON request bodies of an audit and of the memory operations since a cursor.

Used by the `otlp-json` format (reports.formats.otlp_json) and the OTLP/HTTP exporter
(health.otel). Standard library only, and imported only by those two: the plain audit never
loads it. The modules: encode (the spec's JSON mapping), resource (who speaks), metrics,
logs, spans (the three requests) and live (the bodies of one live run, with the cursor
of its memory operations).
"""
