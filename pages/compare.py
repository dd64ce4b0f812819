"""Compare algorithms on real data (or an upload) with seed 000's protocol."""

import hashlib

import streamlit as st

from olearn import registry
from olearn.app.cached import comparison, dataset_card
from olearn.app.frame import require_frame
from olearn.app.ui import (
    Controls,
    as_text,
    fill,
    guard,
    lang,
    plot,
    progress_bar,
    projector,
    stage_box,
    tr,
)
from olearn.datasets import names as dataset_names
from olearn.datasets.upload import MAX_BYTES
from olearn.teaching.compare import (
    DEFAULT_ALGORITHMS,
    PAPER_SETTINGS,
    Settings,
    departures,
    display_table,
    learner_label,
    notes,
    runs_from_a_link,
    starting_settings,
    table_formats,
)
from olearn.teaching.hypers import c_grids
from olearn.teaching.settings import CompareRun

require_frame()  # (a page run alone by Streamlit's legacy mode runs the frame)

L = lang()
ui = Controls("cmp")
ALGOS = [*registry.keys(view="compare", averaged=True), "maxent", "svm"]
C_GRIDS = c_grids("compare")  # quick, the protocol's, the default alone: from the registry


def label(key):  # "svm" runs olearn's own Crammer-Singer solver (baselines.svm_implementation)
    return learner_label(key, L)


def store_controls():
    """The store mode's controls: ``(store path, algorithms, epochs, seed)``, or None (no store
    under $OLEARN_DATA/stores: a message saying how to make one)."""
    from olearn.teaching.compare_store import find_stores, online_keys, store_root

    root = store_root()
    found = find_stores(root)
    if not found:
        st.info(tr("cmp.store.none", root=str(root)))
        return None
    picked = ui.select("store", tr("cmp.store"), found, found[0])
    c1, c2, c3 = st.columns([4, 1, 1])
    keys = online_keys(ALGOS)
    algos = ui.multiselect(
        "store_algos", tr("cmp.algorithms"), keys, online_keys(DEFAULT_ALGORITHMS), where=c1,
        format_func=label,
    )  # fmt: skip
    # names of their own: the dataset mode's choices (a batch learner, 10 epochs) stay its own
    epochs = ui.number("store_epochs", tr("cmp.epochs"), 1, 20, 1, where=c2, step=1)
    seed = ui.number("store_seed", tr("ui.seed"), 0, 10_000, 0, where=c3, step=1)
    return root / picked, algos, int(epochs), int(seed)


def store_results(path, algos, epochs, seed):
    """Learners streamed from the store at ``path`` (olearn.teaching.compare_store), after
    a click; a missing, interrupted or damaged store is a message, never a traceback."""
    from olearn.teaching.compare_store import compare_on_store

    if not st.button(tr("cmp.run"), type="primary", key="cmp.store_run"):
        st.info(tr("cmp.press_run"))
        return
    try:
        with progress_bar() as bar:
            table, note = compare_on_store(
                path, algos, epochs, seed,
                progress=lambda share, msg: bar.progress(
                    min(share, 1.0), tr("cmp.progress", message=as_text(msg))
                ),
            )  # fmt: skip
    except ValueError as exc:  # not a store, interrupted, damaged, nothing chosen
        st.error(tr("cmp.store.bad", message=as_text(str(exc))), icon=":material/warning:")
        return
    st.caption(note)
    columns = {c: tr(f"cmp.store.col.{c}") for c in ("algorithm", "error %", "train s", "rows/s")}
    st.dataframe(table.rename(columns=columns), hide_index=True)


def dataset_controls(source: str) -> dict:
    """The dataset (or upload) mode's controls: what they chose, by name (``upload`` and
    ``filename`` are None unless a file was uploaded; ``name`` is None for an upload)."""
    upload = filename = name = None
    if source == "upload":
        file = st.file_uploader(
            tr("cmp.upload", mb=MAX_BYTES // 2**20),
            key="cmp.file",
            type=["csv", "tsv", "txt", "svm", "libsvm", "svmlight", "gz", "bz2"],
        )
        if file is not None:
            upload, filename = file.getvalue(), file.name
    else:
        name = ui.select(
            "data",
            tr("cmp.dataset"),
            [n for n in dataset_names() if not n.startswith("sgd-")],
            "digits",
        )
        with st.expander(tr("cmp.card")):
            st.json(dataset_card(name), expanded=1)
    # a paper dataset starts from the Table 4 reproduction's protocol, an upload from its
    # own (standardised columns, an intercept, 10 epochs), others small
    start = starting_settings(name, upload=source == "upload")
    start_grid = next(k for k, v in C_GRIDS.items() if v == start.c_grid)
    if st.session_state.get("cmp.last_data", (source, name)) != (source, name):  # changed
        for key, value in (
            ("epochs", start.epochs),
            ("folds", start.folds),
            ("max", start.max_samples),
            ("scale", start.scale),
            ("grid", start_grid),
            ("intercept", start.intercept),
        ):
            ui.set(key, value)
    st.session_state["cmp.last_data"] = (source, name)
    if start == PAPER_SETTINGS:
        st.caption(tr("cmp.paper_protocol"))
    c1, c2, c3, c4, c5 = st.columns([4, 2, 1, 1, 1])
    algos = ui.multiselect(
        "algos",
        tr("cmp.algorithms"),
        ALGOS,
        list(DEFAULT_ALGORITHMS),
        where=c1,
        format_func=label,
    )
    grid = ui.select("grid", tr("cmp.C_grid"), list(C_GRIDS), start_grid, where=c2)
    epochs = ui.number("epochs", tr("cmp.epochs"), 1, 20, start.epochs, where=c3, step=1)
    folds = ui.number("folds", tr("cmp.folds"), 2, 10, start.folds, where=c4, step=1)
    seed = ui.number("seed", tr("ui.seed"), 0, 10_000, 0, where=c5, step=1)
    m1, m2, m3 = st.columns([4, 3, 1.4], vertical_alignment="bottom")
    max_samples = ui.select_slider(
        "max",
        tr("cmp.max_samples"),
        [0, 300, 600, 1000, 2000, 5000],
        start.max_samples,
        where=m1,
    )
    scale = ui.select(
        "scale",
        tr("cmp.scale"),
        ["none", "l2", "standard"],
        start.scale,
        where=m2,
        radio=True,
        format_func=lambda v: tr(f"cmp.scale.{v}"),
    )
    intercept = ui.toggle("intercept", tr("cmp.intercept"), start.intercept, where=m3)
    return {
        "name": name,
        "filename": filename,
        "upload": upload,
        "algos": tuple(algos),
        "grid": grid,
        "epochs": int(epochs),
        "folds": int(folds),
        "seed": int(seed),
        "max_samples": int(max_samples),
        "scale": scale,
        "intercept": bool(intercept),
    }


def dataset_results(source: str, chosen: dict) -> None:
    """The dataset mode's comparison (``chosen``: :func:`dataset_controls`), after a click or
    from a link asking for a short run; else a line saying what it waits for."""
    name, upload, grid, scale = chosen["name"], chosen["upload"], chosen["grid"], chosen["scale"]
    epochs, folds, max_samples = chosen["epochs"], chosen["folds"], chosen["max_samples"]
    settings = tuple(v for k, v in chosen.items() if k != "upload")  # what a run is of
    clicked = st.button(tr("cmp.run"), type="primary", key="cmp.run")
    asked = "cmp.ran" not in st.session_state and st.query_params.get("run") == "1"
    protocol = Settings(folds, epochs, max_samples, scale, C_GRIDS[grid], chosen["intercept"])
    from_link = asked and runs_from_a_link(name, protocol)  # a long run waits for the click
    if clicked or from_link:
        st.session_state["cmp.ran"] = settings
    ui.values["run"] = "1" if st.session_state.get("cmp.ran") == settings else "0"
    if source == "upload" and upload is None:
        st.info(tr("cmp.need_upload"))
        return
    if st.session_state.get("cmp.ran") != settings:
        st.info(tr("cmp.press_run"))
        return
    setting = CompareRun(
        name,
        chosen["algos"],
        C_GRIDS[grid],
        epochs,
        folds,
        chosen["seed"],
        max_samples,
        scale,
        digest=hashlib.sha256(upload).hexdigest() if upload is not None else None,
        filename=chosen["filename"],
        intercept=chosen["intercept"],
    )
    with progress_bar() as bar:
        res, fig_err, fig_curves, fig_time = comparison(
            setting,
            L,
            upload,
            progress=lambda share, msg: bar.progress(
                min(share, 1.0), tr("cmp.progress", message=as_text(msg))
            ),
        )
    table = res.table
    gaps = departures(name, protocol)
    if gaps and "paper %" in table:  # one line beside the paper column
        items = "; ".join(
            tr(f"cmp.caveat.{k}", ours=ours or tr("cmp.all"), paper=paper or tr("cmp.all"))
            for k, ours, paper in gaps
        )
        table = table.copy()
        table.insert(table.columns.get_loc("paper %") + 1, tr("cmp.caveat"), items)
    if projector():  # the errors' figure first, the table beside it
        figure, beside = st.columns([3, 2], gap="medium")
        with figure, stage_box("cmp"):
            plot(fig_err, key="cmp.err", **fill())
    else:
        beside = st.container()
    with beside:
        # what ran, in one visible line (the protocol's full text stays in the expander below)
        st.caption(
            tr(
                "cmp.ran",
                folds=folds,
                epochs=epochs,
                scale=tr(f"cmp.scale.{scale}"),
                intercept=tr("cmp.intercept.on" if chosen["intercept"] else "cmp.intercept.off"),
            )
        )
        shown = display_table(table, L)
        st.table(shown.style.format(table_formats(L), na_rep="", subset=[
            c for c in table_formats(L) if c in shown
        ]))  # fmt: skip
        for key, values in notes(res):  # the trivial baseline; a warning when it wins
            (st.caption if key == "cmp.note.baseline" else st.warning)(tr(key, **values))
        st.download_button(
            tr("ui.download_csv"),
            res.table.to_csv(index=False),
            file_name=f"olearn-compare-{res.dataset}.csv",
            mime="text/csv",
            key="cmp.csv",
        )
    left, right = st.columns(2)
    if not projector():
        with left:
            plot(fig_err, key="cmp.err")
    with right if not projector() else left:
        plot(fig_curves, key="cmp.curves")
    plot(fig_time, key="cmp.time")
    with st.expander(tr("cmp.protocol")):
        st.code(res.config, language=None, wrap_lines=True)


with guard():
    ui.header(tr("cmp.title"), tr("cmp.intro"))
    with ui.panel():  # presentation mode: a closed "Settings" box, the results on screen
        source = ui.select(
            "source",
            tr("cmp.source"),
            ["registered", "upload", "store"],
            "registered",
            radio=True,
            format_func=lambda s: tr(f"cmp.source.{s}"),
        )
        # the store mode has its own few controls and table
        chosen = store_controls() if source == "store" else dataset_controls(source)
    if source != "store":
        dataset_results(source, chosen)
    elif chosen is not None:
        store_results(*chosen)
    ui.sync()
