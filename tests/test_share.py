"""The "Share this view" button (issue 31, item 6): the page's link and a QR code of it, drawn
on the server.  The code is read back by an independent decoder (zxing-cpp, a C++ reader that
shares no code with segno, the encoder) from the very PNG the page sends, with every socket
refused: nothing is fetched from elsewhere."""

from __future__ import annotations

import base64
import io
import re
import socket

import numpy as np
import pytest

pytest.importorskip("streamlit")
zxingcpp = pytest.importorskip("zxingcpp")
from PIL import Image  # noqa: E402

from olearn.app.share import is_local, qr_html, qr_png, share_url  # noqa: E402
from olearn.teaching.lesson import STEPS, deep_link  # noqa: E402
from tests.app_support import APP, page_file  # noqa: E402


@pytest.fixture(autouse=True)
def no_network(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError("the share button must not use the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


def decode(png: bytes) -> str:
    image = np.asarray(Image.open(io.BytesIO(png)).convert("L"))
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, found
    assert found[0].format == zxingcpp.BarcodeFormat.QRCode
    return found[0].text


LINKS = [
    "http://192.168.1.20:8501/playground?algos=perceptron&present=1&lang=ja",
    *(f"http://10.0.0.5:8501{deep_link(step, 'ja', 12)}" for step in STEPS),
    share_url(
        "https://olearn.example.org/olearn/compare",
        {
            "data": "digits",
            "algos": "perceptron,pa1,spa1,arow,scw1",
            "grid": "0.001 … 10",
            "run": "1",
        },
    ),  # noqa: E501
]


@pytest.mark.parametrize("url", LINKS)
def test_the_qr_code_decodes_back_to_the_link(url):
    assert decode(qr_png(url)) == url


def test_the_check_can_fail():
    assert decode(qr_png(LINKS[0] + "x")) != LINKS[0]


def test_the_page_shows_its_own_link_and_a_qr_code_of_it():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(APP), default_timeout=120)
    at.run()
    at.switch_page(page_file("pages/spa.py")).run()
    at.sidebar.button(key="ui.share").click().run()
    assert not at.exception, [e.value for e in at.exception]
    shown = [c.value for c in at.code]
    assert len(shown) == 1
    url = shown[0]
    assert "scenario=pa-failure" in url and "lang=en" in url  # this run's state
    images = [h.proto.body for h in at.get("html") if "olearn-qr" in h.proto.body]
    assert len(images) == 1
    data = re.search(r'src="data:image/png;base64,([^"]+)"', images[0]).group(1)
    assert decode(base64.b64decode(data)) == url
    assert is_local(url) and at.warning  # AppTest has no browser address: localhost, a warning


def test_the_image_is_inline_and_names_no_outside_address():
    html = qr_html(LINKS[0], "QR")
    assert html.count("src=") == 1 and 'src="data:image/png;base64,' in html
    assert "http" not in html.split("src=")[1].split('"')[1][:30]
