"""olearn's benchmarks against its peers: one epoch, same data, one run (``python -m benchmarks``).

Modules: :mod:`benchmarks.data` (the datasets and synthetic stand-ins), :mod:`benchmarks.measure`
(median timing, peak memory), :mod:`benchmarks.contestants` (olearn and each peer doing the same
job), :mod:`benchmarks.limit` (the physical limit), :mod:`benchmarks.scaling`,
:mod:`benchmarks.startup`, :mod:`benchmarks.report`, and :mod:`benchmarks.run` (the command).
See ``benchmarks/README.md`` for how to read the results.
"""
