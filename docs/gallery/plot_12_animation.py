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
fig, frames = planes_animation(run)

# %%
# Attach the frames and a play control
# ------------------------------------
# The figure plays in Jupyter, VS Code, ``fig.write_html()`` and here once it carries its
# frames, a Play / Pause button and a slider.  (Figures from newer olearn versions may carry
# them already; then this cell changes nothing.)
if not fig.frames:
    fig.frames = frames
if not fig.layout.updatemenus:
    play = dict(
        frame=dict(duration=80, redraw=False), transition=dict(duration=0), fromcurrent=True
    )
    pause = dict(frame=dict(duration=0, redraw=False), mode="immediate")
    fig.update_layout(
        updatemenus=[
            dict(
                type="buttons",
                direction="left",
                x=0.0,
                y=-0.1,
                xanchor="left",
                yanchor="top",
                buttons=[
                    dict(label="Play", method="animate", args=[None, play]),
                    dict(label="Pause", method="animate", args=[[None], pause]),
                ],
            )
        ],
        sliders=[
            dict(
                x=0.3,
                y=-0.05,
                len=0.7,
                currentvalue=dict(prefix="t = ", xanchor="right"),
                steps=[
                    dict(label=f.name, method="animate", args=[[f.name], pause]) for f in fig.frames
                ],
            )
        ],
    )
    fig.update_layout(margin=dict(b=110), height=640)
fig.show()

# %%
# Mistakes per learner over the stream
for key, name in zip(run.keys, run.names):
    print(f"{name:12s} {int(run.mistakes[key].sum()):3d} mistakes on {run.n} examples")
