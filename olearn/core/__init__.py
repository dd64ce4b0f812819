"""Readable, pure update rules: ``step(state, x, y, **hyper) -> (new_state, trace)``.

Each rule copies its state, never mutates its inputs, and returns a frozen trace of
what a lecturer would point at.  The numba kernels in :mod:`olearn.kernels` mirror them.
"""
