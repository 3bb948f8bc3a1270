"""CLI entry point for `python -m health` (same as the `cortex-health` console script)."""
from health.cli import main

if __name__ == "__main__":
    main()
