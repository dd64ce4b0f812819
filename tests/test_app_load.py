"""The app under load: 20 concurrent sessions on the Playground and on Compare (issue 12).

One ``streamlit run app.py`` server (the ``server`` fixture), 20 browser contexts of one
chromium (20 sessions, as 20 visitors' tabs), opened at once with deep links that differ by
seed (two sessions per seed); on Compare each link also starts a small run (``run=1``).
Checked: no exception or error in any session; every session shows its own seed (its seed
input and its URL) and the same results as the other session with that seed, so no state
crosses sessions; the server's memory stays bounded; every cache in
``olearn/app/cached.py`` is bounded (``max_entries`` or ``ttl``).  Figures are printed:

    OLEARN_DATA=... python -m pytest -q -s tests/test_app_load.py
"""

from __future__ import annotations

import ast
import statistics
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser_support import SERVER_PIDS, assert_no_error, settle

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
N_SESSIONS = 20
LINKS = {
    "playground": "playground?seed={seed}&n=100",
    "compare": "compare?data=digits&algos=perceptron,pa1&max=300&folds=3&epochs=1"
    "&seed={seed}&run=1",
}


def _memory_mib(pid: int) -> tuple[float, float]:
    """(current RSS, peak RSS) of a process, in MiB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return tuple(int(fields[k].split()[0]) / 1024 for k in ("VmRSS", "VmHWM"))


# the first figure's drawn points: the stream (Playground) or the results (Compare)
FIGURE_POINTS = """() => {
  const fig = document.querySelector('[data-testid=stMain] .js-plotly-plot');
  return fig && fig.data ? JSON.stringify(fig.data.map(t => [t.x, t.y])) : '';
}"""


def _view(pg) -> tuple[str, str]:
    """What a visitor sees: the page's text and its first figure's points."""
    return pg.locator("[data-testid='stMain']").inner_text(), pg.evaluate(FIGURE_POINTS)


@pytest.mark.parametrize("where", sorted(LINKS))
def test_concurrent_sessions_stay_separate(server, page, where):
    browser = page.context.browser
    pid = SERVER_PIDS[server]
    seeds = [101 + (i % (N_SESSIONS // 2)) for i in range(N_SESSIONS)]  # two sessions each
    warm = browser.new_context()  # a first visitor alone: the server is warm for the class
    first = warm.new_page()
    first.goto(f"{server}/{LINKS[where].format(seed=100)}")
    settle(first, min_wait=2.0, timeout=180)
    warm.close()
    rss_before, _ = _memory_mib(pid)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in seeds]
    pages = [c.new_page() for c in contexts]
    start = time.perf_counter()
    for pg, seed in zip(pages, seeds):  # all 20 requests in flight before any is awaited
        pg.goto(f"{server}/{LINKS[where].format(seed=seed)}", wait_until="commit")
    done = []
    for pg in pages:
        settle(pg, min_wait=1.0, timeout=300)
        done.append(time.perf_counter() - start)
    wall = time.perf_counter() - start
    rss_after, rss_peak = _memory_mib(pid)
    views: dict[int, set] = {}
    try:
        for pg, seed in zip(pages, seeds):
            assert_no_error(pg)
            assert f"seed={seed}" in pg.url  # the URL the session wrote is its own
            # its own seed, not another's nor the widget's default (waited for: a session
            # that connected late may still be drawing)
            expect(pg.get_by_label("Seed", exact=True)).to_have_value(str(seed), timeout=15_000)
            views.setdefault(seed, set()).add(_view(pg))
    finally:
        for c in contexts:
            c.close()
    assert all(len(v) == 1 for v in views.values()), "two sessions with one seed differ"
    if where == "playground":  # the seed draws the stream: every seed its own figure
        assert len({next(iter(v))[1] for v in views.values()}) == len(views)
    print(
        f"\n[load] {where}: {N_SESSIONS} concurrent sessions in {wall:.1f} s; time to "
        f"settle median {statistics.median(done):.1f} s, p90 "
        f"{sorted(done)[int(0.9 * (len(done) - 1))]:.1f} s; server RSS {rss_before:.0f} -> "
        f"{rss_after:.0f} MiB (peak {rss_peak:.0f} MiB)"
    )
    assert rss_after < rss_before + 1500  # bounded: 20 sessions do not cost 1.5 GiB


def test_every_app_cache_is_bounded():
    """Every ``st.cache_data`` / ``st.cache_resource`` in olearn/app/cached.py has
    ``max_entries`` or ``ttl``: memory cannot grow with the number of distinct inputs."""
    tree = ast.parse((ROOT / "olearn" / "app" / "cached.py").read_text())
    unbounded, seen = [], 0
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef):
            continue
        for deco in node.decorator_list:
            target = deco.func if isinstance(deco, ast.Call) else deco
            if ast.unparse(target) in ("st.cache_data", "st.cache_resource"):
                seen += 1
                keywords = {k.arg for k in deco.keywords} if isinstance(deco, ast.Call) else set()
                if not keywords & {"max_entries", "ttl"}:
                    unbounded.append(node.name)
    assert seen >= 10 and not unbounded, unbounded
