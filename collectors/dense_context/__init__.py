"""Collect stage (Dense Context): one module per evidence source of the Dense Context layout, wired in health.judge.checks.

These collectors never run on a LifeOS tree and the LifeOS collectors never run on this one
(health.judge.checks.DENSE_CONTEXT is this layout's check list). Their names start with `dc_`.
"""
