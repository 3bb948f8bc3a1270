"""Thresholds stage: the limits the evaluator compares evidence with, and where each came from.

Stdlib only (the status line resolves thresholds too).
"""
