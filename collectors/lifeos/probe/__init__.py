"""Collect stage: the synthetic probe (`cortex-health probe`, `--probe`). Loaded only when asked for: never on the plain audit's path.

sandbox builds the throw-away copy and removes it; runner runs one command as the agent
runs a hook (shell, environment, stdin, timeout, its own process group); verdicts judges
what a step printed and left; steps knows the steps; collect orchestrates them within the
time budget and turns the run into evidence.
"""
