"""Reproduce the papers: each registered reproduction, quick by default, paper beside ours."""

import streamlit as st

from olearn.app.cached import repro_catalogue, repro_run
from olearn.app.frame import require_frame
from olearn.app.ui import (
    Controls,
    blank_missing,
    fill,
    guard,
    lang,
    plot,
    progress_bar,
    projector,
    stage_box,
    tr,
)
from olearn.teaching.reproduce import extra_tables, first_shown, localized, start_mode
from olearn.teaching.reproduce_summary import summary_lines

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("rep")

with guard():
    ui.header(tr("rep.title"), tr("rep.intro"))
    cat = repro_catalogue()
    titles = dict(zip(cat["id"], cat["title"]))
    ids = cat["id"].tolist()
    id_ = ui.select(
        "id",
        tr("rep.choose"),
        ids,
        first_shown(cat),  # one that runs in a hall without the internet
        format_func=lambda i: tr(f"rep.name.{i}") if titles[i] else f"{i} (—)",
    )
    if not dict(zip(cat["id"], cat["available"]))[id_]:
        st.info(tr("rep.missing", id=id_))
    else:
        b1, b2, _ = st.columns([1, 1, 3])
        clicked = None
        if b1.button(tr("rep.quick"), type="primary", key="rep.quick"):
            clicked = "quick"
        if b2.button(tr("rep.full"), key="rep.full"):
            clicked = "full"
        linked = st.query_params.get("mode")
        mode = start_mode(clicked, st.session_state.get(f"rep.ran.{id_}"), linked)
        if mode:
            st.session_state[f"rep.ran.{id_}"] = mode
        if mode is None:
            st.info(tr("rep.press_full" if linked == "full" else "rep.press"))
        else:
            ui.values["mode"] = mode
            with progress_bar() as bar:  # gone when the run ends, error or not
                result, fig = repro_run(
                    id_,
                    mode == "quick",
                    L,
                    progress=lambda done, total, msg: bar.progress(
                        min(done / max(total, 1), 1.0), msg[:80]
                    ),
                )
            st.caption(tr("rep.mode", mode=tr(f"rep.mode.{mode}")))
            if projector():  # the figure beside the table, on the first screen
                table_col, fig_col = st.columns([1, 1], gap="medium")
                with fig_col, stage_box("rep"):
                    plot(fig, key="rep.fig", **fill())
            else:
                table_col = st.container()
            table_col.dataframe(blank_missing(localized(result.table, L)), hide_index=True)
            st.download_button(  # the CSV keeps the original columns and values
                tr("ui.download_csv"),
                result.table.to_csv(index=False),
                file_name=f"{id_}.csv",
                mime="text/csv",
                key="rep.csv",
                help=tr("rep.csv_help"),
            )
            for name, frame in extra_tables(result):
                st.subheader(tr(f"rep.table.{name}") if name in ("claims", "tests") else name)
                st.dataframe(blank_missing(localized(frame, L)), hide_index=True)
            if id_ == "matsushima-table4":
                st.caption(tr("rep.diagnostic"))
            if not projector():
                plot(fig, key="rep.fig")
            st.subheader(tr("rep.summary"))
            st.markdown("\n".join(f"- {line}" for line in summary_lines(result, L, mode)))
            with st.expander(tr("rep.cli")):  # program output, as printed: English
                st.code(result.summary, language=None, wrap_lines=True)
    ui.sync()
