"""Plotly figure builders over the tables of :mod:`olearn.teaching` (no maths here beyond
drawing: grids for decision regions, arrow positions)."""
