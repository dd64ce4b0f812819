"""
An animation: four learners on one 2-D stream
=============================================

The app's *Playground* outside Streamlit: :func:`olearn.teaching.stream.run_stream` runs up
to four online learners over one stream and keeps every snapshot;
:func:`olearn.viz.stream.planes_animation` draws each learner's exact decision regions (the
margin band lighter), the points seen so far and the mistakes, one frame per example.  Press
*Play* or drag the slider.
"""

from olearn.teaching.stream import run_stream
from olearn.viz.stream import planes_animation

run = run_stream(
    ("perceptron", "pa", "spa", "arow"), n_samples=80, n_classes=4, margin=0.2, noise=0.05, seed=0
)
fig = planes_animation(run)
fig.show()

# %%
# The figure carries its frames and its play control
# --------------------------------------------------
# Every animation of :mod:`olearn.viz` (``planes_animation``, ``curves_animation``,
# ``weight_space_animation``, ``cs_animation``) returns one figure with its frames, a Play /
# Pause button and a slider: ``fig.show()`` plays it in Jupyter and VS Code, and
# ``fig.write_html("planes.html")`` writes a page that plays it in any browser.
print(len(fig.frames), "frames; controls:", [b.label for b in fig.layout.updatemenus[0].buttons])

# %%
# Mistakes per learner over the stream
for key, name in zip(run.keys, run.names):
    print(f"{name:12s} {int(run.mistakes[key].sum()):3d} mistakes on {run.n} examples")
