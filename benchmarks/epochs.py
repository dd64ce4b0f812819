"""One-epoch timings of every contestant on one dataset: the main table's rows."""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.contestants import Entry, all_entries
from benchmarks.data import BenchData
from benchmarks.measure import interleaved_medians, peak_memory_mb

REFERENCE = "SPA-I"  # the "x SPA-I" column divides each time by this olearn learner's time


def bench_dataset(
    data: BenchData,
    *,
    repeats: int,
    min_total: float,
    river_rows: int,
    with_vw: bool = True,
    log: Callable[[str], None] = print,
) -> list[dict]:
    """Warm every contestant up, time them interleaved, measure peak memory; one dict per row.

    Row keys: dataset, contestant, library, seconds (one full epoch, extrapolated for
    subsamples and net of ``minus``), examples_per_s, nnz_per_s, peak_mb, memory_method,
    test_error, rows_timed, repeats, note, and ``x_<REFERENCE>`` (seconds / reference seconds).
    """
    entries = [e for e in all_entries(data, river_rows=river_rows, with_vw=with_vw)]
    runnable = [e for e in entries if e.rows > 0]
    errors: dict[str, float | None] = {}
    try:
        for e in list(runnable):  # warm-up: numba compiles, caches fill; the model's error
            try:
                model = e.epoch()
            except Exception as err:  # noqa: BLE001 - a failing contestant is reported
                e.rows, e.note = 0, f"skipped: {type(err).__name__}: {str(err)[:100]}"
                runnable.remove(e)
                continue
            errors[e.name] = None if e.hidden else e.error(model)
        log(f"  {data.name}: warm; timing {len(runnable)} contestants x >= {repeats} rounds")
        times = interleaved_medians({e.name: e.epoch for e in runnable}, repeats, min_total)
        memory = {
            e.name: (e.memory or (lambda e=e: peak_memory_mb(e.epoch)))()
            for e in runnable
            if not e.hidden
        }
    finally:
        for e in entries:
            e.close()
    rows = []
    for e in entries:
        if e.hidden:
            continue
        row = {"dataset": data.name, "contestant": e.name, "library": e.library, "note": e.note}
        if e.rows == 0:
            rows.append({**row, "seconds": None})
            continue
        seconds = times[e.name]["median"]
        if e.minus:
            gross, fixed = seconds, times[e.minus]["median"]
            seconds = gross - fixed
            row["gross_seconds"] = gross
            if seconds <= 0:  # the pass is lost in the fixed cost's noise (tiny data)
                rows.append(
                    {
                        **row,
                        "seconds": None,
                        "note": (
                            f"skipped: net of the empty run ({fixed * 1e3:.3g} ms) the pass "
                            f"({gross * 1e3:.3g} ms) is below timing noise"
                        ),
                    }
                )
                continue
        seconds *= data.n / e.rows  # per-sample extrapolation of a subsample run
        mem = memory[e.name]
        rows.append(
            {
                **row,
                "seconds": seconds,
                "examples_per_s": data.n / seconds if seconds > 0 else None,
                "nnz_per_s": data.nnz / seconds if seconds > 0 else None,
                "peak_mb": mem["traced_mb"],
                "memory_method": mem["method"],
                "test_error": errors.get(e.name),
                "rows_timed": e.rows,
                "repeats": len(times[e.name]["samples"]),
            }
        )
    ref = next((r["seconds"] for r in rows if r["contestant"] == REFERENCE), None)
    for r in rows:
        r[f"x_{REFERENCE}"] = r["seconds"] / ref if ref and r["seconds"] else None
    return rows


def find(rows: list[dict], dataset: str, contestant: str) -> float | None:
    """The seconds of one (dataset, contestant) row, or None."""
    for r in rows:
        if r["dataset"] == dataset and r["contestant"] == contestant:
            return r.get("seconds")
    return None


__all__ = ["Entry", "REFERENCE", "bench_dataset", "find"]
