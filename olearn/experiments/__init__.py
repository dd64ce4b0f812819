"""Experiments from the papers: protocols (cross-validation, tuning, timing), reproductions, CLI."""
