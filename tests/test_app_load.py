"""The app under load: 20 concurrent sessions on Playground and Compare (issue 12).

Each session is a ``streamlit.testing.v1.AppTest`` in its own thread, opened through
``app.py`` like a browser tab, that sets its own seed (two sessions per seed) and reruns;
on Compare it also presses the run button when the page has one.  Checked: no exception or
error in any session; every session sees its own seed (widget and URL) and, on the
Playground, exactly the figure of that seed (the same as the other session with that seed,
different from every other seed's), so no state crosses sessions; and every cache in
``olearn/app/cached.py`` is bounded (``max_entries`` or ``ttl``).

Figures (peak RSS, latency per session, cache entries) are printed:

    OLEARN_DATA=/work/shared/data python -m pytest -q -s tests/test_app_load.py
"""

from __future__ import annotations

import ast
import json
import resource
import statistics
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.runtime import Runtime  # noqa: E402
from streamlit.runtime.caching import cache_data_api  # noqa: E402
from streamlit.runtime.scriptrunner.script_cache import ScriptCache  # noqa: E402
from streamlit.testing.v1 import AppTest, app_test  # noqa: E402
from streamlit.testing.v1.util import patch_config_options  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
N_SESSIONS = 20
PAGES = {"playground": "olearn/pages/playground.py", "compare": "olearn/pages/compare.py"}


@pytest.fixture(autouse=True)
def _raise_errors(monkeypatch):
    monkeypatch.setenv("OLEARN_APP_RAISE", "1")


@pytest.fixture
def shared_runtime(monkeypatch):
    """Let AppTests run in parallel threads.

    ``AppTest`` is made for one session per process: each ``AppTest.run`` installs a mock
    ``Runtime`` singleton and sets it back to None when it ends, which pulls the runtime
    from under every other session still running (a limit of the test harness, not of a
    served app, where one Runtime serves every session).  Here a session that finds it
    cleared uses the last mock installed; all mocks are equivalent (in-memory media and
    cache storage).
    """
    last: dict = {}

    def instance(cls):
        current = cls._instance
        if current is not None:
            last["runtime"] = current
            return current
        if "runtime" in last:
            return last["runtime"]
        raise RuntimeError("Runtime hasn't been created!")

    def exists(cls) -> bool:
        return cls._instance is not None or "runtime" in last

    monkeypatch.setattr(Runtime, "instance", classmethod(instance))
    monkeypatch.setattr(Runtime, "exists", classmethod(exists))
    # Each run also compiles the scripts into a fresh ScriptCache: a served app has one
    # (locked) for every session, so share one here (concurrent compiles hit CPython
    # 3.11's "AST constructor recursion depth mismatch").
    shared_cache = ScriptCache()
    monkeypatch.setattr(app_test, "ScriptCache", lambda: shared_cache)
    # Likewise each run sets the global option global.appTest and restores it when it
    # ends, under the feet of the others; hold it for the whole test.
    with patch_config_options({"global.appTest": True, "client.showErrorDetails": "full"}):
        yield


def _rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _seed_widget(at: AppTest):
    """The page's seed input, whatever its key prefix (pages are being reworked)."""
    found = [w for w in at.number_input if str(w.key or "").endswith("seed")]
    trace = [(e.value, "\n".join(e.stack_trace)) for e in at.exception]
    assert found, ("the page has no seed input", trace)
    return found[0]


def _press_run(at: AppTest) -> None:
    """Compare: small settings and the run button, if the page has them."""
    for kind, key, value in (("multiselect", "cmp.algos", ["perceptron", "pa1"]),):
        widgets = [w for w in getattr(at, kind) if w.key == key]
        if widgets:
            widgets[0].set_value(value).run()
    small = [w for w in at.select_slider if w.key == "cmp.max"]
    if small:
        small[0].set_value(min(small[0].options, key=lambda o: float(o))).run()
    buttons = [b for b in at.button if str(b.key or "").endswith(".run")]
    if buttons:
        buttons[0].click().run()


def _session(page: str, seed: int) -> dict:
    start = time.perf_counter()
    at = AppTest.from_file(str(APP), default_timeout=180)
    at.run()
    at.switch_page(PAGES[page]).run()
    _seed_widget(at).set_value(seed).run()
    if page == "compare":
        _press_run(at)
    seconds = time.perf_counter() - start
    query = at.query_params.get("seed")
    return {
        "seed": seed,
        "widget": _seed_widget(at).value,
        "url": query[0] if isinstance(query, list) else query,
        "charts": [json.dumps(json.loads(c.proto.spec)["data"]) for c in at.get("plotly_chart")],
        "tables": tuple(
            t.value.drop(columns=[c for c in t.value.columns if "time" in str(c)]).to_json()
            for t in at.dataframe
        ),
        "exceptions": [e.value for e in at.exception],
        "errors": [e.value for e in at.error],
        "seconds": seconds,
    }


def _cache_entries(monkeypatch) -> Counter:
    """Entries per ``st.cache_data`` function (one stat per entry when not grouped)."""
    monkeypatch.setattr(cache_data_api, "group_cache_stats", lambda stats: stats)
    stats = cache_data_api.get_data_cache_stats_provider().get_stats()
    return Counter(s.cache_name for family in stats.values() for s in family)


@pytest.mark.parametrize("page", sorted(PAGES))
def test_concurrent_sessions_stay_separate(page, monkeypatch, shared_runtime):
    seeds = [101 + (i % (N_SESSIONS // 2)) for i in range(N_SESSIONS)]  # two sessions each
    _session(page, 100)  # a first visitor, alone (the server is warm when the class arrives)
    rss_before = _rss_mib()
    start = time.perf_counter()
    with ThreadPoolExecutor(max_workers=N_SESSIONS) as pool:
        sessions = list(pool.map(lambda s: _session(page, s), seeds))
    wall = time.perf_counter() - start
    for s in sessions:
        assert not s["exceptions"] and not s["errors"], (s["seed"], s["exceptions"], s["errors"])
        assert s["widget"] == s["seed"]  # its own seed, not another session's
        assert s["url"] in (None, str(s["seed"]))
    by_seed: dict[int, set] = {}
    for s in sessions:  # the first figure and the tables, minus timings (never equal)
        by_seed.setdefault(s["seed"], set()).add((tuple(s["charts"][:1]), s["tables"]))
    assert all(len(views) == 1 for views in by_seed.values())  # same seed, same results
    if page == "playground":  # the seed draws the stream: every seed its own picture
        firsts = [next(iter(views))[0][0] for views in by_seed.values()]
        assert len(set(firsts)) == len(firsts)
    latency = sorted(s["seconds"] for s in sessions)
    entries = _cache_entries(monkeypatch)
    print(
        f"\n[load] {page}: {N_SESSIONS} concurrent sessions in {wall:.1f} s; latency per "
        f"session median {statistics.median(latency):.1f} s, p90 "
        f"{latency[int(0.9 * (len(latency) - 1))]:.1f} s, max {latency[-1]:.1f} s; RSS "
        f"{rss_before:.0f} -> {_rss_mib():.0f} MiB, peak "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; figures per "
        f"session {sorted({len(s['charts']) for s in sessions})}, distinct results over "
        f"{len(by_seed)} seeds {len(set().union(*by_seed.values()))}; cache_data entries "
        f"{dict(entries)}"
    )


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
