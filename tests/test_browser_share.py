"""The share button in chromium: the dialog shows the page's own address (the browser's,
with the page's path and state) and a QR code that decodes to it, drawn from the page's
``<img>`` as the browser renders it; the page makes no request to another origin."""

from __future__ import annotations

import base64
from urllib.parse import urlsplit

import pytest

from tests.browser_support import SHOTS, settle
from tests.test_share import decode

pytestmark = pytest.mark.browser


def test_the_share_dialog_gives_this_views_link_and_a_qr_code_of_it(server, page):
    page.goto(f"{server}/playground?algos=perceptron,pa&seed=3")
    page.locator(".js-plotly-plot").first.wait_for()
    settle(page)
    # the dialog's own requests (every page's: tests/test_browser_theme.py's walk)
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.get_by_role("button", name="Share this view").click()
    dialog = page.get_by_role("dialog")
    dialog.locator("img.olearn-qr").wait_for()
    link = dialog.locator("[data-testid='stCode'] code").first.inner_text().strip()
    assert link.startswith(f"{server}/playground?"), link
    assert "algos=perceptron%2Cpa" in link and "seed=3" in link
    src = dialog.locator("img.olearn-qr").get_attribute("src")
    assert decode(base64.b64decode(src.split(",", 1)[1])) == link
    assert decode(dialog.locator("img.olearn-qr").screenshot()) == link  # as drawn
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "share-dialog.png"))
    assert urls and all(urlsplit(u).netloc in (urlsplit(server).netloc, "") for u in urls), urls
