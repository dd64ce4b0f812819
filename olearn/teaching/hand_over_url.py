"""A Playground hand-over (:class:`~olearn.teaching.settings.HandOver`) in the SPA page's URL
and back: :func:`instance_to_url`, :func:`instance_from_url` (bounded by
:data:`olearn.teaching.stream.URL_BOUNDS`), and what its run holds (:func:`hand_over_bytes`).

Apart from :mod:`olearn.teaching.stream` so the stream module needs no settings (the settings
run streams: one direction, no import circle)."""

from __future__ import annotations

from collections.abc import Mapping

from olearn import registry
from olearn._budget import APP_BYTES, require
from olearn.teaching.settings import HandOver, PlaygroundRun
from olearn.teaching.stream import (
    KINDS,
    MAX_ALGORITHMS,
    URL_PARAM,
    clamp,
    held_out_size,
    points_from_text,
    points_to_text,
    stream_bytes,
    stream_data,
)


def instance_to_url(hand_over: HandOver) -> dict[str, str]:
    """The SPA page's URL parameters for a playground :class:`HandOver`:
    ``{"scenario": "playground", "pg": "..."}``.

    >>> hand = PlaygroundRun(("pa", "spa"), "blobs", 40, 3, test_fraction=0.2).hand_over("spa", 7)
    >>> url = instance_to_url(hand)
    >>> url["pg"]
    'algos=pa,spa;kind=blobs;n=40;K=3;noise=0;margin=0.5;seed=0;C=1;bias=1;learner=spa;t=7;test=0.2'
    >>> instance_from_url(url) == hand
    True
    """
    run = hand_over.run
    fields = {
        "algos": ",".join(run.keys),
        "kind": "placed" if run.points is not None else run.kind,
        "n": run.n,
        "K": run.K,
        "noise": f"{run.noise:g}",
        "margin": f"{run.margin:g}",
        "seed": run.seed,
        "C": f"{run.C:g}",
        "bias": int(run.bias),
        "learner": hand_over.learner,
        "t": hand_over.at,
        "test": f"{run.test_fraction:g}",
    }
    if run.points is not None:
        fields["pts"] = points_to_text(run.points).replace(";", "_")
    return {"scenario": "playground", URL_PARAM: ";".join(f"{k}={v}" for k, v in fields.items())}


def hand_over_bytes(hand_over: HandOver) -> int:
    """Bytes the SPA page's run of a hand-over holds (:func:`stream_bytes`)."""
    run = hand_over.run
    n_test = held_out_size(run.n, run.test_fraction) if run.points is None else 0
    return stream_bytes(len(run.keys), run.n, run.K, n_test, run.bias)


def instance_from_url(params: Mapping, notes: list | None = None) -> HandOver | None:
    """The :class:`HandOver` of :func:`instance_to_url` read back from URL parameters (a dict or
    ``st.query_params``), or ``None`` when absent or malformed.  Never raises.

    Numbers outside :data:`URL_BOUNDS` are clamped into them (each clamp appended to
    ``notes``, see :func:`clamp`), so the run a link asks for stays within ``APP_BYTES``.

    >>> instance_from_url({"pg": "algos=nope;t=1"}) is None, instance_from_url({}) is None
    (True, True)
    >>> one = "algos=pa;kind=placed;n=1;K=2;noise=0;margin=0.5;seed=0;C=1;bias=1;learner=pa;t=0"
    >>> instance_from_url({"pg": one + ";test=0;pts=1,1,0"}) is None  # no stream: not a hand-over
    True
    >>> url = instance_to_url(PlaygroundRun(("spa",), "blobs", 40).hand_over("spa", 7))
    >>> notes = []
    >>> instance_from_url({"pg": url["pg"].replace("n=40", "n=10000000")}, notes).run.n, notes
    (400, [('n', '10000000', 400, 2, 400)])
    """
    try:
        raw = params.get(URL_PARAM)
        if not raw:
            return None
        f = dict(item.split("=", 1) for item in str(raw).split(";") if "=" in item)
        keys = tuple(k for k in f["algos"].split(",") if k)
        online = set(registry.keys(online=True))
        if not 1 <= len(keys) <= MAX_ALGORITHMS or not set(keys) <= online:
            return None
        key = f["learner"]
        if key not in keys:
            return None
        points = points_from_text(f["pts"].replace("_", ";")) if f["kind"] == "placed" else None
        if points is not None:  # fewer than two points, or one class: no stream to learn from
            stream_data(points=points)
        kind = "blobs" if points is not None else f["kind"]
        if kind not in KINDS:
            return None
        found: list = []
        n, K, seed, t = (clamp(k, f[k], found) for k in ("n", "K", "seed", "t"))
        noise, margin, C, test = (clamp(k, f[k], found) for k in ("noise", "margin", "C", "test"))
        if points is not None:
            n, test = len(points), 0.0
        t = min(t, n - 1)
        bias = f["bias"] == "1"
        run = PlaygroundRun(keys, kind, n, K, noise, margin, seed, C, bias, points, test)
        hand_over = run.hand_over(key, t)
        require(hand_over_bytes(hand_over), "the linked playground run", budget=APP_BYTES)
        if notes is not None:
            notes.extend(found)
        return hand_over
    except (KeyError, ValueError, TypeError, OverflowError, AttributeError):
        return None
