"""Mutations of the demo tree, one per finding: each takes the copied root and returns extra CLI args.

One module per area; this package is the one table the tests and bench/compare_trees.py read
(`health_scenarios.reviewer_missing`, `health_scenarios.append`, ...).
"""
from tests.health_scenarios.rows import *  # noqa: F403
from tests.health_scenarios.reviewer import *  # noqa: F403
from tests.health_scenarios.logs import *  # noqa: F403
from tests.health_scenarios.index import *  # noqa: F403
from tests.health_scenarios.hot_state import *  # noqa: F403
