"""Dashboard (`cortex-health serve`): read-only loopback pages over memory-health.jsonl. Started by health.serve."""
