"""Home: what each page teaches, the family map, the dataset cards."""

import streamlit as st

from pages._cached import home_data
from pages._ui import guard, plot, tr

PAGES = [
    ("playground", ":material/animation:"),
    ("spa", ":material/search_insights:"),
    ("cw", ":material/blur_on:"),
    ("cs_svm", ":material/extension:"),
    ("pcvm", ":material/eco:"),
    ("sgd", ":material/trending_down:"),
    ("compare", ":material/bar_chart:"),
    ("reproduce", ":material/history_edu:"),
]
FILES = {"sgd": "pages/sgd.py"}

with guard():
    st.title(tr("home.title"))
    st.markdown(tr("home.intro"))
    st.subheader(tr("home.pages"))
    cols = st.columns(4)
    for i, (key, icon) in enumerate(PAGES):
        with cols[i % 4], st.container(border=True, height=150):
            st.page_link(
                FILES.get(key, f"pages/{key}.py"), label=f"**{tr('page.' + key)}**", icon=icon
            )
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
