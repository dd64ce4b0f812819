"""Wall time of each reproduction's ``--quick`` run (the CLI's ``olearn reproduce ID --quick``).

Timings live here rather than in the tests: a test checks what a quick run writes, this
section reports how long it takes on the machine at hand.
"""

from __future__ import annotations

import time
from collections.abc import Callable


def run_reproductions(log: Callable[[str], None] = print) -> list[dict]:
    """``[{"id": ..., "seconds": ...}]``: one quick run per reproduction, serially."""
    from olearn.experiments.reproduction import REPRODUCTIONS, reproduction

    rows = []
    for rid in REPRODUCTIONS:
        start = time.perf_counter()
        reproduction(rid).run(quick=True)
        rows.append({"id": rid, "seconds": time.perf_counter() - start})
        log(f"reproduce {rid} --quick: {rows[-1]['seconds']:.1f} s")
    return rows
