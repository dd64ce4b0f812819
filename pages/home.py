"""Home: what each page teaches, the family map, the dataset cards."""

import streamlit as st

from olearn.app import page_path
from olearn.app.cached import home_data
from olearn.app.frame import PAGES, require_frame
from olearn.app.ui import fill, guard, header, lang, plot, projector, stage_box, tr

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)


def family_map() -> None:
    with st.spinner():
        family, _ = home_data(tr("home.family"), lang())
    with stage_box("home"):  # projector mode: the map first, as tall as the screen allows
        plot(family, key="home.family", **fill())
        st.caption(tr("home.family_caption"))


with guard():
    header(tr("home.title"), tr("home.intro"))
    if projector():
        family_map()
    st.subheader(tr("home.pages"))
    cards = [p for p in PAGES if p.key != "home"]
    per_row = 3  # three cards a row: full titles at 1280 px, never "Confidence-weighte…"
    for start in range(0, len(cards), per_row):
        cols = st.columns(per_row)
        for col, (key, icon, _) in zip(cols, cards[start : start + per_row]):
            with col, st.container(border=True):
                st.page_link(page_path(key), label=f"**{tr('page.' + key)}**", icon=icon)
                st.caption(tr(f"home.desc.{key}"))
    if not projector():
        family_map()
    _, table = home_data(tr("home.family"), lang())
    st.subheader(tr("home.datasets"))
    st.caption(tr("home.datasets_caption") + " " + tr("home.verbatim"))
    st.dataframe(
        table,
        hide_index=True,
        column_config={
            tr("home.col.available"): st.column_config.CheckboxColumn(),
            tr("home.col.notes"): st.column_config.TextColumn(width="large"),
        },
    )
