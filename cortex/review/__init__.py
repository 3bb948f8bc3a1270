"""Reviewer wing: transcripts, the prompt, inference, runs and their evidence, cadence and state."""
