"""
A reproduction through the Python API: seed 000's Table 4, quick
================================================================

``olearn reproduce matsushima-table4`` runs the paper's protocol (10-fold CV, C tuned on one
random fold) and sets our error rates beside the paper's.  The same runs from Python:
``olearn.experiments.table4.run`` returns a :class:`~olearn.experiments.reproduction.ReproResult`
(a table, a printed summary with verdicts, details).  Here the ``--quick`` version (3 folds,
600 samples, epochs 1 and 2, two-point grids) on USPS, for PA, SPA and their -II variants:
seconds instead of the full run's tens of minutes, so the numbers are far from the paper's
(600 samples, not 7,291).  See :doc:`/reproduces` for the full runs.

USPS is read from ``$OLEARN_DATA`` (or ``~/olearn_data``); if it is absent the loader
downloads its archive (1.5 MB) on first use.
"""

from olearn.experiments.reproduction import reproduction
from olearn.teaching.reproduce import numeric_pairs
from olearn.viz.reproduce import paper_vs_ours_figure

table4 = reproduction("matsushima-table4")
result = table4.run(
    quick=True, datasets=["usps"], algorithms=["pa", "spa", "pa2", "spa2"], curves=False
)

# %%
# The table: one row per cell, the paper's value beside ours
# ----------------------------------------------------------
result.table[["dataset", "algorithm", "epochs", "paper", "ours", "diff", "params"]].round(2)

# %%
# The summary the CLI prints: the protocol, every choice the paper leaves open, verdicts
print(result.summary)

# %%
# Paper against ours, last epochs (on the diagonal: reproduced)
# --------------------------------------------------------------
paper_vs_ours_figure(numeric_pairs(result)).show()

# %%
# ``olearn.experiments.report.write_all(result, "results")`` writes the same CSV and JSON
# files as the CLI.
