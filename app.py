"""olearn's Streamlit app: the frame.  ``streamlit run app.py``

Navigation over the pages in ``pages/`` (grouped), the language switch, the page config.
Each page is thin: widgets, one call into ``olearn.teaching`` / ``olearn.experiments``, render.
"""

import streamlit as st

from olearn.teaching.strings import LANGS, t
from pages._ui import guard

st.set_page_config(
    page_title="olearn",
    page_icon=":material/timeline:",
    layout="wide",
    initial_sidebar_state="expanded",
)

if "lang" not in st.session_state:
    wanted = st.query_params.get("lang", "en")
    st.session_state["lang"] = wanted if wanted in LANGS else "en"
hidden = {h.strip() for h in st.query_params.get("hide", "").split(",")}
if not hidden & {"all", "lang"}:
    st.sidebar.selectbox(
        t("lang.label"), LANGS, key="lang", format_func=lambda code: t("lang.name", code)
    )
L = st.session_state["lang"]
if "all" not in hidden:
    with st.sidebar.expander(t("ui.share", L), icon=":material/link:"):
        st.caption(t("ui.share.help", L))
        st.caption(t("ui.png_hint", L))


def page(path: str, key: str, icon: str, **kw) -> st.Page:
    return st.Page(path, title=t(f"page.{key}", L), icon=icon, url_path=key, **kw)


navigation = st.navigation(
    {
        t("nav.start", L): [page("pages/home.py", "home", ":material/home:", default=True)],
        t("nav.play", L): [page("pages/playground.py", "playground", ":material/animation:")],
        t("nav.inside", L): [
            page("pages/spa.py", "spa", ":material/search_insights:"),
            page("pages/cw.py", "cw", ":material/blur_on:"),
            page("pages/cs_svm.py", "cs_svm", ":material/extension:"),
            page("pages/pcvm.py", "pcvm", ":material/eco:"),
            page("pages/sgd.py", "sgd", ":material/trending_down:"),
        ],
        t("nav.data", L): [
            page("pages/compare.py", "compare", ":material/bar_chart:"),
            page("pages/reproduce.py", "reproduce", ":material/history_edu:"),
        ],
    }
)
with guard():  # no traceback ever reaches the screen, even from a page's imports
    navigation.run()
