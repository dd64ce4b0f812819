"""
Figures in notebooks and slides
===============================

Every builder of :mod:`olearn.viz` returns a plain :class:`plotly.graph_objects.Figure`, and
an animation carries its frames and its play control (Play / Pause and a slider).  So one
figure works unchanged in a notebook, in VS Code, in a web page and on a slide:

- **Jupyter / VS Code**: ``fig.show()`` (or leave ``fig`` as a cell's last line).
- **A web page that plays offline**: ``fig.write_html("figure.html")`` inlines plotly.js
  (~4.8 MB); ``include_plotlyjs="cdn"`` writes a small file that loads it from the network.
- **PNG or SVG for slides**, in the browser, nothing to install: the camera button of the
  figure's toolbar.  ``config={"toImageButtonOptions": {"format": "svg"}}`` in ``fig.show``
  or ``fig.write_html`` makes it save an SVG (vector: sharp at any size), ``"scale": 3`` a
  PNG three times the size on screen.
- **PNG or SVG from Python**: ``fig.write_image("figure.svg")`` needs the optional package
  ``kaleido`` (and a Chrome or Chromium it drives); not run here.

In the app, every chart's toolbar has the camera (PNG) and an **SVG** button; the
Playground and the Crammer-Singer page also offer **Animation as HTML**, one HTML file
of the frames the page plays, which plays offline.
"""

import tempfile
from pathlib import Path

from olearn.teaching.cs_walk import cs_walk
from olearn.viz.cs_svm import cs_animation

# %%
# An animation as one figure
# --------------------------
# The Crammer-Singer SVM solved one sub-problem at a time (the app's *Crammer-Singer SVM*
# page): each frame is a sub-problem that moved the weights.
walk = cs_walk(n_samples=40, n_classes=3, C=1.0, seed=0)
fig = cs_animation(walk)
print(f"{len(fig.frames)} frames; slider steps: {len(fig.layout.sliders[0].steps)}")
fig.show()

# %%
# Written as a page that plays offline, and with an SVG camera
# -------------------------------------------------------------
# ``write_html`` keeps the frames and the controls; the ``config`` makes the toolbar's camera
# save an SVG named ``cs-svm.svg``.  (A temporary folder here; in a notebook, any path.)
with tempfile.TemporaryDirectory() as folder:
    page = Path(folder) / "cs-svm.html"
    slides = {"toImageButtonOptions": {"format": "svg", "filename": "cs-svm"}}
    fig.write_html(page, config=slides, auto_play=False)
    text = page.read_text(encoding="utf-8")
    print(f"{page.name}: {len(text) / 1e6:.1f} MB, plotly.js inlined: {'plotly.js v' in text}")
    print("frames added on load:", "Plotly.addFrames" in text, "| SVG camera:", '"svg"' in text)

# %%
# PNG and SVG from Python (optional)
# ----------------------------------
# With ``pip install kaleido`` (which drives a Chrome or Chromium)::
#
#     fig.write_image("cs-svm.svg")               # vector, for slides
#     fig.write_image("cs-svm.png", scale=3)      # 3x the pixels of the screen
#
# An animation exports its current frame (the one the figure shows); the HTML file above
# is the way to take the whole animation to a slide deck (most slide tools embed a web page).
