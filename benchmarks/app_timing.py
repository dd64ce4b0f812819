"""Rerun time of the toy pages (Playground, One SPA update): is interaction instant?

Target: under ~200 ms per rerun on this machine (issue 6).  Two measurements:

1. **AppTest reruns**: the whole app (``app.py`` -> page) run headless by
   ``streamlit.testing.v1.AppTest`` after one widget change, i.e. the script's server-side time
   (widgets, cached calls, figure building and serialisation; not the browser's drawing).
   The first rerun after a change of data computes the run (cached afterwards); moving t or
   stepping through sub-steps hits the cache for the run and builds one figure.
2. **Teaching calls**: the uncached work behind a rerun, timed directly.

Run: ``python -m benchmarks.app_timing`` (prints a table; ``--repeat N``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

APP = Path(__file__).resolve().parents[1] / "app.py"


def _timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(1000 * (time.perf_counter() - start))
    return out


def apptest_reruns(repeat: int) -> list[tuple[str, list[float]]]:
    from streamlit.testing.v1 import AppTest

    os.environ["OLEARN_APP_RAISE"] = "1"
    rows = []
    at = AppTest.from_file(str(APP), default_timeout=300).run()
    at.switch_page("olearn/pages/playground.py").run()
    at.multiselect(key="play.algos").set_value(["perceptron", "pa", "spa", "arow"]).run()
    state = {"t": 20}

    def move_t():
        state["t"] = state["t"] % 140 + 7
        at.slider(key="play.t").set_value(state["t"]).run()

    rows.append(("Playground: move t (4 learners, n=150)", _timed(move_t, repeat)))
    rows.append(
        (
            "Playground: step button",
            _timed(lambda: at.button(key="play.step").click().run(), repeat),
        )
    )
    seeds = iter(range(1, 10_000))
    rows.append(
        (
            "Playground: new seed (recomputes the run)",
            _timed(
                lambda: at.number_input(key="play.seed").set_value(next(seeds)).run(),
                max(3, repeat // 3),
            ),
        )
    )
    at.switch_page("olearn/pages/spa.py").run()
    at.selectbox(key="spa.scenario").set_value("three-rivals").run()

    def next_or_rewind():
        if at.select_slider(key="spa.step").value >= 9:
            at.select_slider(key="spa.step").set_value(0).run()
        else:
            at.button(key="spa.next").click().run()

    rows.append(("SPA: next sub-step", _timed(next_or_rewind, repeat)))
    at.radio(key="spa.rule").set_value("SPA-I").run()
    Cs = iter([0.01, 0.03, 0.1, 0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0] * 100)
    rows.append(
        (
            "SPA: change C (new walkthrough)",
            _timed(lambda: at.select_slider(key="spa.C").set_value(next(Cs)).run(), repeat),
        )
    )
    assert not at.exception, [e.value for e in at.exception]
    return rows


def teaching_calls(repeat: int) -> list[tuple[str, list[float]]]:
    from olearn.teaching.spa_walk import scenario, spa_walkthrough
    from olearn.teaching.stream import run_stream
    from olearn.viz.spa import spa_step_figure
    from olearn.viz.stream import mistakes_figure, stream_figure

    run = run_stream(("perceptron", "pa", "spa", "arow"), "blobs", 150)
    inst = scenario("three-rivals")
    walk = spa_walkthrough(inst, "I", 0.3)
    return [
        (
            "run_stream (4 learners, n=150; once per data)",
            _timed(
                lambda: run_stream(("perceptron", "pa", "spa", "arow"), "blobs", 150),
                max(3, repeat // 3),
            ),
        ),
        (
            "stream_figure + mistakes_figure at one t",
            _timed(lambda: (stream_figure(run, 75), mistakes_figure(run, 75)), repeat),
        ),
        (
            "spa_walkthrough (incl. quadprog, C curve)",
            _timed(lambda: spa_walkthrough(inst, "I", 0.3), repeat),
        ),
        ("spa_step_figure for one sub-step", _timed(lambda: spa_step_figure(walk, 6), repeat)),
    ]


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args(argv)
    print(f"{'measurement':55s} {'median ms':>10s} {'p90 ms':>8s} {'n':>4s}")
    for title, rows in (
        ("AppTest reruns", apptest_reruns(args.repeat)),
        ("teaching calls", teaching_calls(args.repeat)),
    ):
        print(f"-- {title}")
        for name, times in rows:
            p90 = sorted(times)[int(0.9 * (len(times) - 1))]
            print(f"{name:55s} {statistics.median(times):10.1f} {p90:8.1f} {len(times):4d}")


if __name__ == "__main__":
    main()
