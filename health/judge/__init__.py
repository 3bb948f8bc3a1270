"""Judgement: the judge of the audit, its own floor inside health/. Used by the application around it (health.run,
health.inputs, health.options, health.explain, health.gatefailures, the dashboard, the OTLP export).

catalogue/ (each problem declared once: id, severity, meaning, causes, fix, threshold), rules/ (one judge per
collector), checks.py (THE check list, one row per collector), evaluate.py (the pure evaluator), model.py and
findings.py (the vocabulary and helpers the rules share). It imports cortex/, thresholds/, collectors/ and
reports/'s vocabulary, and nothing from the rest of health/ (tests/architecture/test_import_direction.py); no third-party
package (the audit's start-up budget: tests/architecture/test_startup_imports.py).
"""
