"""Evaluate stage (Dense Context): one rule module per dc_* collector, wired in health.judge.checks.DENSE_CONTEXT.

A LifeOS audit never judges Dense Context evidence and vice versa: each layout has its own rows.
"""
