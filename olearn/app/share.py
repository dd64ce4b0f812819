""" "Share this view": the page's link and a QR code of it for the students' phones, drawn on
the server (segno, pure Python: no outside service, no request leaves the machine).

The link is the browser's address of the page (``st.context.url``) with the page's state
(``st.query_params``, which every page writes at the end of its run); the QR code is a PNG
sent inline in the page (a ``data:`` URI), so nothing else is fetched either.

>>> share_url("http://192.168.1.20:8501/playground", {"algos": "perceptron", "lang": "ja"})
'http://192.168.1.20:8501/playground?algos=perceptron&lang=ja'
>>> is_local("http://localhost:8501/spa"), is_local("http://10.0.0.5:8501/spa")
(True, False)
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from urllib.parse import urlencode, urlsplit

import streamlit as st

from olearn.teaching.strings import t

QR_SCALE = 8  # pixels per module: a 300-400 px code a phone reads across a lecture hall
QR_BORDER = 4  # the quiet zone the QR standard asks for, in modules
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def share_url(page_url: str, params: Mapping[str, str]) -> str:
    """``page_url`` (scheme, host, port, path; its own query dropped) with ``params``."""
    base = page_url.split("?", 1)[0].split("#", 1)[0]
    query = urlencode({str(k): str(v) for k, v in params.items()})
    return f"{base}?{query}" if query else base


def is_local(url: str) -> bool:
    """Does ``url`` name this machine only (a phone on the network cannot open it)?"""
    return (urlsplit(url).hostname or "") in LOCAL_HOSTS


def qr_png(url: str) -> bytes:
    """A QR code of ``url`` as PNG bytes (error correction M, black on white, quiet zone)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(url, error="m", micro=False).save(
        out, kind="png", scale=QR_SCALE, border=QR_BORDER, dark="#000000", light="#ffffff"
    )
    return out.getvalue()


def qr_html(url: str, label: str) -> str:
    """An ``<img>`` of :func:`qr_png` inline (a data URI), ``label`` its alternative text."""
    data = base64.b64encode(qr_png(url)).decode("ascii")
    alt = label.replace('"', "&quot;")
    return (
        f'<img class="olearn-qr" src="data:image/png;base64,{data}" alt="{alt}" '
        'style="width: min(100%, 420px); image-rendering: pixelated; background: #fff;">'
    )


def current_url(fallback: str = "http://localhost:8501/") -> str:
    """This page's link as the browser shows it, with the page's current state."""
    page = st.context.url or fallback
    return share_url(page, {k: st.query_params.get(k) for k in st.query_params})


def show(lang: str) -> None:
    """Draw the link and its QR code (in the dialog the share button opens)."""
    url = current_url()
    st.code(url, language=None, wrap_lines=True)
    st.html(qr_html(url, t("ui.share.qr", lang)))
    st.caption(t("ui.share.qr_help", lang))
    if is_local(url):
        st.warning(t("ui.share.local", lang), icon=":material/wifi_off:")


def dialog(lang: str) -> None:
    """Open the share dialog (``st.dialog``: the link and a large QR code above the page)."""
    st.dialog(t("ui.share.title", lang), width="large")(show)(lang)
