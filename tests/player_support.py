"""Reading the frame player (:mod:`olearn.app.components.player`) from a browser test or a
benchmark: its state is public on its root element, ``.olp`` (``data-t``, ``data-ready``...; see
``olearn/app/components/assets/player.js``), inside the component's shadow root.

Playwright's CSS selectors enter shadow roots (``pg.locator('.olp[data-ready=true]')``);
``document.querySelector`` does not, so :data:`OLP` finds the element for
``wait_for_function`` and ``evaluate``.
"""

from __future__ import annotations

# the player's root element (the first on the page), or null
OLP = (
    "(() => { for (const h of document.querySelectorAll('[data-testid=stMain] *')) {"
    " const r = h.shadowRoot && h.shadowRoot.querySelector('.olp'); if (r) return r; }"
    " return null; })()"
)


def player_js(condition: str) -> str:
    """A function for ``wait_for_function`` / ``evaluate``: ``condition`` on ``d``, the
    player's ``dataset`` (false while there is no player), with the argument as ``arg``."""
    return (
        f"(arg) => {{ const el = {OLP}; if (!el) return false; const d = el.dataset;"
        f" return ({condition}); }}"
    )


def player_state(pg) -> dict:
    """The player's public state (its ``data-*`` attributes)."""
    return pg.locator(".olp").first.evaluate("el => ({ ...el.dataset })")


def player_ready(pg, timeout: float = 120.0) -> None:
    """Wait until the player drew its current frame on every chart of its data."""
    pg.locator('.olp[data-ready="true"]').first.wait_for(timeout=timeout * 1000)


def lose_reports(pg) -> dict:
    """Route the page's websocket to the server through Playwright, so that a test can lose
    the player's next report on its way (as a busy server once did): set ``lose["next"]``
    and the next message carrying a report (``{"t": .., "fps": ..}``) is dropped.  Call
    before ``goto``; Playwright forwards messages only while one of its calls runs (wait
    with ``pg.wait_for_timeout``, not ``time.sleep``)."""
    lose = {"next": False, "lost": 0}

    def route(ws):
        server = ws.connect_to_server()

        def to_server(message):
            if lose["next"] and isinstance(message, bytes) and b'"fps"' in message:
                lose["next"] = False
                lose["lost"] += 1
                return
            server.send(message)

        ws.on_message(to_server)
        server.on_message(ws.send)

    pg.route_web_socket("**/_stcore/stream", route)
    return lose
