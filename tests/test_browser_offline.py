"""No request leaves the server (issue 32, item 4): the watch (tests/offline_support.py) and
``olearn app``'s start.  The walk over every page, in English and Japanese, from a new
server, is tests/test_browser_theme.py's: it opens each page once in each language (light in
English, dark in Japanese) under the watch, and reads the page's contrast on the same load.

A classroom without internet, or a school whose rules forbid requests to third parties, must
get the same app.  Two ways out are watched:

- the browser's: every request of the page's context (and every WebSocket) for another host
  or port than the app's is listed, and chromium sends every request not for this machine
  to a :class:`RecordingProxy` too, which refuses it (so the page gets nothing from
  outside, as in a classroom without internet).  The favicon used to come from
  fonts.gstatic.com (``page_icon=":material/timeline:"``, and the navigation's
  ``:material/home:`` on a new server's first page);
- the server's: ``HTTP_PROXY``/``HTTPS_PROXY`` point at :class:`RecordingProxy`.  Streamlit
  asked checkip.amazonaws.com for an "External URL" at every headless start on a wildcard
  address (the hosting guide's command) until ``browser.serverAddress`` was set.  Code that
  ignores the proxy variables would not be seen here.

Both servers are started as a user starts them: ``streamlit run app.py`` from the clone (the
repository's ``.streamlit/config.toml``) and ``olearn app`` (its launcher's settings), with
``--server.address 0.0.0.0 --server.headless true`` as docs/hosting.md says.  Marked
``browser``.
"""

from __future__ import annotations

import sys
from urllib.parse import urlsplit

import pytest

from tests.browser_support import free_port
from tests.offline_support import RecordingProxy, start, stop, watched

pytestmark = pytest.mark.browser


def test_the_watch_sees_and_refuses_a_request_to_another_host(offline_server, offline_browser):
    """The check can fail: a page of the app that asks for a font from fonts.gstatic.com
    (what the favicon once did), a page from another port of this machine and an
    ``http://`` address is seen asking, and every one of them is refused."""
    url, _ = offline_server
    chromium, browser_proxy = offline_browser
    asked = len(browser_proxy.seen)
    context, pg, outside = watched(chromium, urlsplit(url).netloc, ["home"])
    try:
        pg.goto(f"{url}/?lang=en")
        pg.locator("[data-testid=stMain] [data-testid=stElementContainer]:visible").first.wait_for()
        other = f"http://127.0.0.1:{free_port()}/x"  # (a free port: nothing answers)
        answers = pg.evaluate(
            """async (urls) => Promise.all(urls.map((u) => fetch(u, {mode: 'no-cors'})
                 .then((r) => r.status, () => 'failed')))""",
            ["https://fonts.gstatic.com/s/i/x.woff2", "http://example.com/x", other],
        )
    finally:
        context.close()
    # (the proxy answers 403, which a no-cors fetch sees as an opaque status 0; the https
    # tunnel it refuses, and nothing listens on the other port: both fail)
    assert answers == ["failed", 0, "failed"], answers
    assert [line.split(": ", 1)[1] for line in outside] == [
        "GET https://fonts.gstatic.com/s/i/x.woff2",
        "GET http://example.com/x",
        f"GET {other}",
    ]
    refused = browser_proxy.seen[asked:]  # (chromium's own calls may come between)
    assert "CONNECT fonts.gstatic.com:443 HTTP/1.1" in refused, refused
    assert "GET http://example.com/x HTTP/1.1" in refused, refused


def test_olearn_app_asks_no_one_as_it_starts(tmp_path):
    """``olearn app`` as docs/hosting.md starts it: no outgoing request from its start to its
    banner (the launcher's settings, not the clone's config.toml), and the console still
    names the link students open (Streamlit's banner names ``browser.serverAddress`` only)."""
    from olearn.app.server.serve import network_address

    port = free_port()
    with RecordingProxy() as proxy:
        cmd = [sys.executable, "-m", "olearn", "app"]
        proc, log = start(cmd, port, proxy, tmp_path / "server.log")
        stop(proc, log)
    assert not proxy.seen, "requests to other hosts:\n" + "\n".join(proxy.seen)
    console = (tmp_path / "server.log").read_text()
    assert "External URL" not in console
    ip = network_address()
    if ip is not None:  # a machine on a network
        assert f"students on this network open http://{ip}:{port}" in console, console
