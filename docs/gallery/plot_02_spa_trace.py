"""
One traced update: Support-Class PA
===================================

PA moves the true class against one rival; with several wrong classes close, its step can
leave another one ahead.  SPA (seed 000) solves the exact problem with one constraint per
wrong class: each *support class* ``u`` gets its own step ``tau_u = max(0, Q_u - theta)``,
found by sorting ``Q_u = (1 - (w_y - w_u).x) / ||x||^2``.  The trace keeps the sorted test
that admitted or stopped each class.
"""

from olearn.core.pa import pa_step
from olearn.core.spa import spa_step
from olearn.teaching.instances import find_pa_failure
from olearn.teaching.spa_walk import spa_walkthrough
from olearn.trace import to_frame
from olearn.viz.spa import pa_vs_spa_figure

# %%
# An instance where PA fails
# --------------------------
# :func:`~olearn.teaching.instances.find_pa_failure` searches a small random state where PA's
# step still misclassifies ``x`` and SPA's does not.
inst = find_pa_failure(seed=0)
print("W =", inst.W.round(3).tolist(), " x =", inst.x.round(3).tolist(), " y =", inst.y)

_, pa = pa_step(inst.W, inst.x, inst.y)
_, spa = spa_step(inst.W, inst.x, inst.y)
print("PA correct after its step: ", pa.correct_after)
print("SPA correct after its step:", spa.correct_after)

# %%
# The SPA trace
# -------------
# ``Q`` per class, the support classes, the threshold ``theta`` and each ``tau``:
to_frame([spa])[["Q", "order", "support", "theta", "tau", "tau_sum", "margins_after"]]

# %%
# The sorted support-class test, one row per class considered:
to_frame(spa.tests)

# %%
# SPA-I and SPA-II on the same example, as rows of one frame
# ----------------------------------------------------------
traces = [spa_step(inst.W, inst.x, inst.y, variant=v, C=0.05)[1] for v in (None, "I", "II")]
to_frame(traces)[["variant", "C", "support", "theta", "tau", "cap_binds", "xi"]]

# %%
# Scores after PA and after SPA
# -----------------------------
walk = spa_walkthrough(inst)
pa_vs_spa_figure(walk).show()
