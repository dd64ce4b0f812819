"""The floor of the classroom benchmark (:mod:`benchmarks.classroom`): a minimal Streamlit app.

Ten pages (the home page, then ``/playground``, ``/spa``, ``/lesson`` and six more, so the
benchmark visits the same paths as in olearn's app), each with four widgets and one small
plotly figure.  What 40 students cost here is what Streamlit itself costs on this machine.

    streamlit run benchmarks/classroom_app/app.py
"""

import numpy as np
import plotly.graph_objects as go
import streamlit as st

PATHS = ["home", "playground", "spa", "lesson", "compare", "cw", "cs", "pcvm", "sgd", "data"]


def _page(name: str):
    def show() -> None:
        st.title(f"Page {name}")
        n = st.slider("Points", 10, 200, 50)
        kind = st.selectbox("Kind", ["line", "markers"])
        seed = st.number_input("Seed", 0, 1000, 0)
        grid = st.checkbox("Grid", value=True)
        rng = np.random.default_rng(int(seed))
        y = np.cumsum(rng.standard_normal(n))
        fig = go.Figure(go.Scatter(y=y, mode="lines" if kind == "line" else "markers"))
        fig.update_layout(height=300, xaxis_showgrid=grid, yaxis_showgrid=grid)
        st.plotly_chart(fig)

    show.__name__ = f"page_{name}"
    return show


pages = [
    st.Page(_page(name), title=name.title(), url_path=name, default=name == "home")
    for name in PATHS
]
st.navigation(pages).run()
