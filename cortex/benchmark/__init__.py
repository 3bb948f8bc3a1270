"""Benchmark stage: the labeled retrieval benchmark behind `cortex benchmark` (cortex/commands/benchmark.py).

labels.py reads the labeled query set, runner.py drives the production ranker, metrics.py
scores rankings, disclosure.py serialises what each configuration would inject,
instruments.py measures the process and the disk, schema.py is the report's pydantic model
(the published JSON Schema), assemble.py turns measurements into that report, output.py
enforces where a durable copy may be written and progress.py draws the optional bar.
"""
