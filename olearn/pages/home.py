"""Home: what each page teaches, the family map, the dataset cards."""

import streamlit as st

from olearn.app import page_path
from olearn.app.cached import home_data
from olearn.app.frame import PAGES
from olearn.app.ui import guard, plot, tr

with guard():
    st.title(tr("home.title"))
    st.markdown(tr("home.intro"))
    st.subheader(tr("home.pages"))
    cols = st.columns(4)
    for i, (key, icon, _) in enumerate(p for p in PAGES if p.key != "home"):
        with cols[i % 4], st.container(border=True, height=150):
            st.page_link(page_path(key), label=f"**{tr('page.' + key)}**", icon=icon)
            st.caption(tr(f"home.desc.{key}"))
    with st.spinner():
        family, cards = home_data(tr("home.family"))
    plot(family, key="home.family")
    st.caption(tr("home.family_caption"))
    st.subheader(tr("home.datasets"))
    st.caption(tr("home.datasets_caption"))
    st.dataframe(
        cards,
        hide_index=True,
        column_config={
            "available": st.column_config.CheckboxColumn(),
            "notes": st.column_config.TextColumn(width="large"),
        },
    )
