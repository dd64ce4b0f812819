"""
The confidence-weighted ellipse shrinking
=========================================

A confidence-weighted learner keeps a Gaussian over its weights; the ellipse is its 1-sigma
contour.  Each update moves the mean and shrinks the ellipse along the direction of the
example (``Sigma' = Sigma - beta Sigma x x' Sigma``), so the learner grows confident where it
has seen data.  This is the app's *Confidence-weighted* page, outside Streamlit.
"""

import numpy as np
import plotly.graph_objects as go

from olearn.core.cw_geometry import ellipse_points
from olearn.teaching.cw_walk import cw_update
from olearn.teaching.settings import CwWalk
from olearn.viz.walks import cw_figure

# %%
# One AROW update, as the app draws it
# ------------------------------------
# Left: weight space, the mean's path and the ellipse before and after.  Right: the margin's
# distribution before and after the update.
arow = CwWalk.of("arow", seed=0, r=1.0)  # the rule, its hyper-parameters, the stream's seed
walk = cw_update(arow, warmup=6)
print(
    f"example {walk.index} of {walk.n}; alpha = {walk.trace.alpha:.3f}, "
    f"beta = {walk.trace.beta:.3f}"
)
cw_figure(walk).show()

# %%
# Update after update
# -------------------
# Follow the stream: every update that moves the state (``walk.next_index``), its ellipse
# after the step.  The area (``pi a b``) only goes down.
walks = [walk]
while walks[-1].next_index is not None and len(walks) < 8:
    walks.append(cw_update(arow, warmup=walks[-1].next_index))

fig = go.Figure()
for i, w in enumerate(walks):
    e = w.trace.ellipse_after
    points = ellipse_points(e)
    fig.add_scatter(
        x=points[:, 0],
        y=points[:, 1],
        mode="lines",
        name=f"after example {w.index}",
        line=dict(width=1 + i / 2),
    )
fig.update_layout(
    xaxis_title="mu_1",
    yaxis_title="mu_2",
    yaxis_scaleanchor="x",
    height=480,
    title="AROW: the 1-sigma ellipse after each update",
)
fig.show()

areas = [np.pi * w.trace.ellipse_after.semi_major * w.trace.ellipse_after.semi_minor for w in walks]
print("ellipse areas:", np.round(areas, 4).tolist())
