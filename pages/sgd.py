"""SGD-SVM: global vs per-feature learning rates."""

import streamlit as st

from olearn.app.cached import sgd_page
from olearn.app.frame import require_frame
from olearn.app.hypers import hyper_options
from olearn.app.ui import Controls, guard, lang, plot, presenting, tr
from olearn.teaching.hypers import algorithm_hyper

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("sgd")
LAM = algorithm_hyper("sgd-svm", "lam")  # the slider's range and default: the registry's
hide_all = "all" in ui.hidden
present = hide_all or presenting()  # the figure, the step's text and its buttons side by side

with guard():
    if present:
        st.markdown(f"### {tr('sgd.title')}")
    else:
        st.title(tr("sgd.title"))
        st.caption(tr("sgd.intro"))
    box = (
        st.expander(tr("walks.settings"), icon=":material/tune:")
        if present and not hide_all
        else st
    )
    row = box.columns([3, 2, 1]) if not hide_all else [None] * 3  # no empty box
    c1, c2, c3 = row
    lam = ui.select_slider("lam", tr("sgd.lam"), hyper_options(LAM), LAM.default, where=c1)
    epochs = ui.slider("epochs", tr("sgd.epochs"), 1, 5, 3, where=c2)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c3, step=1)
    with st.spinner():
        walk, fig_obj, fig_f1, fig_rates, table = sgd_page(float(lam), int(epochs), int(seed), L)
    left, right = st.columns(2)
    with left:
        plot(fig_obj, key="sgd.obj")
    with right:
        plot(fig_f1, key="sgd.f1")
    left, right = st.columns([1, 1])
    with left:
        plot(fig_rates, key="sgd.rates")
        st.caption(tr("sgd.rates_caption"))
    with right:
        st.dataframe(table, hide_index=True)
    ui.sync()
