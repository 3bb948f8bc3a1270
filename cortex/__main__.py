"""`python -m cortex`: the same entry point as the `cortex` console script."""
import sys

from cortex.cli import main

sys.exit(main())
