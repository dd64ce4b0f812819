"""App-layer helpers shared by every page: language, URL state, lesson links, the error guard,
and figure rendering.  Streamlit only; no maths.

URL state: every control registered through :class:`Controls` starts from ``?name=value`` in
the URL (when present) and writes its value back, so the address bar reproduces the screen,
seed included.  ``?hide=all`` (or ``?hide=name1,name2``) renders no widget for those controls:
their URL or default values are used, which makes a lesson link show only the content.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import contextmanager
from typing import Any

import streamlit as st

from olearn.teaching.strings import LANGS, t
from olearn.viz.common import PLOTLY_CONFIG

RAISE_ENV = "OLEARN_APP_RAISE"  # set to 1 (tests) to let page errors propagate


def lang() -> str:
    """The current UI language ("en" or "ja"): the sidebar switch, else ``?lang=``."""
    value = st.session_state.get("lang") or st.query_params.get("lang", "en")
    return value if value in LANGS else "en"


def tr(key: str, **fmt) -> str:
    """``t(key, current language)``."""
    return t(key, lang(), **fmt)


@contextmanager
def guard():
    """Run a page body; any error becomes a clear ``st.error`` instead of a traceback.

    With the environment variable ``OLEARN_APP_RAISE=1`` (the tests) errors propagate, so a
    test sees the real exception.  Streamlit's own control flow (rerun, stop) is a
    BaseException and passes through untouched.
    """
    try:
        yield
    except Exception as exc:  # noqa: BLE001 - the point: nothing reaches the screen raw
        if os.environ.get(RAISE_ENV):
            raise
        message = str(exc) or type(exc).__name__
        if isinstance(exc, OSError):  # a dataset not on this machine (DatasetUnavailable)
            key = "ui.data_missing"
        elif isinstance(exc, ValueError | KeyError):
            key = "ui.bad_param"
        else:
            key = "ui.error"
        st.error(tr(key, message=message), icon="⚠️")


def plot(fig, key: str | None = None) -> None:
    """Render a plotly figure full width; its modebar camera saves a PNG client-side."""
    st.plotly_chart(fig, config=PLOTLY_CONFIG, key=key)


def _parse(raw: str, like: Any) -> Any:
    if isinstance(like, bool):
        return raw.lower() in ("1", "true", "yes", "on")
    if isinstance(like, int):
        return int(float(raw))
    if isinstance(like, float):
        return float(raw)
    return raw


class Controls:
    """Widgets of one page, synced with the URL and hideable for a lesson.

    Parameters
    ----------
    page : a short page id; widget keys are ``"<page>.<name>"`` so pages never collide,
        the URL uses ``name`` alone.
    """

    def __init__(self, page: str):
        self.page = page
        hide = st.query_params.get("hide", "")
        self.hidden = {h.strip() for h in hide.split(",") if h.strip()}
        self.values: dict[str, Any] = {}

    def key(self, name: str) -> str:
        return f"{self.page}.{name}"

    def is_hidden(self, name: str) -> bool:
        return "all" in self.hidden or name in self.hidden

    def _start(self, name: str, default: Any, valid: Callable[[Any], bool]) -> str:
        """Put the URL value (if valid) or the default in session state before the widget."""
        key = self.key(name)
        if key not in st.session_state:
            value = default
            raw = st.query_params.get(name)
            if raw is not None:
                try:
                    parsed = _parse(raw, default)
                    if valid(parsed):
                        value = parsed
                except (TypeError, ValueError):
                    pass
            st.session_state[key] = value
        elif not valid(st.session_state[key]):
            st.session_state[key] = default
        return key

    def _done(self, name: str, value: Any) -> Any:
        self.values[name] = value
        return value

    def select(
        self,
        name: str,
        label: str,
        options: Sequence,
        default: Any,
        format_func: Callable = str,
        where=None,
        radio: bool = False,
        **kw,
    ) -> Any:
        """A selectbox (or horizontal radio) over ``options``."""
        options = list(options)
        key = self._start(name, default, lambda v: v in options)
        if self.is_hidden(name):
            return self._done(name, st.session_state[key])
        box = where or st
        if radio:
            value = box.radio(
                label, options, key=key, format_func=format_func, horizontal=True, **kw
            )
        else:
            value = box.selectbox(label, options, key=key, format_func=format_func, **kw)
        return self._done(name, value)

    def multiselect(
        self,
        name: str,
        label: str,
        options: Sequence,
        default: list,
        format_func: Callable = str,
        where=None,
        **kw,
    ) -> list:
        options = list(options)
        key = self.key(name)
        if key not in st.session_state:
            raw = st.query_params.get(name)
            value = [v for v in raw.split(",") if v in options] if raw else list(default)
            st.session_state[key] = value
        else:
            st.session_state[key] = [v for v in st.session_state[key] if v in options]
        if self.is_hidden(name):
            value = st.session_state[key]
        else:
            value = (where or st).multiselect(
                label, options, key=key, format_func=format_func, **kw
            )
        self.values[name] = ",".join(map(str, value))
        return value

    def slider(self, name: str, label: str, lo, hi, default, where=None, **kw):
        key = self._start(name, default, lambda v: isinstance(v, int | float) and lo <= v <= hi)
        if self.is_hidden(name):
            return self._done(name, st.session_state[key])
        return self._done(name, (where or st).slider(label, lo, hi, key=key, **kw))

    def select_slider(self, name: str, label: str, options: Sequence, default, where=None, **kw):
        options = list(options)
        key = self._start(name, default, lambda v: v in options)
        if self.is_hidden(name):
            return self._done(name, st.session_state[key])
        return self._done(name, (where or st).select_slider(label, options, key=key, **kw))

    def number(self, name: str, label: str, lo, hi, default, where=None, **kw):
        key = self._start(name, default, lambda v: isinstance(v, int | float) and lo <= v <= hi)
        if self.is_hidden(name):
            return self._done(name, st.session_state[key])
        return self._done(name, (where or st).number_input(label, lo, hi, key=key, **kw))

    def toggle(self, name: str, label: str, default: bool, where=None, **kw) -> bool:
        key = self._start(name, default, lambda v: isinstance(v, bool))
        if self.is_hidden(name):
            return self._done(name, st.session_state[key])
        return self._done(name, (where or st).toggle(label, key=key, **kw))

    def set(self, name: str, value: Any) -> None:
        """Change a control's value from a callback (before its widget is drawn)."""
        st.session_state[self.key(name)] = value

    def get(self, name: str, default: Any = None) -> Any:
        return st.session_state.get(self.key(name), default)

    def sync(self) -> None:
        """Write every control's value (plus the language and hide list) to the URL."""
        params = {k: str(v) for k, v in self.values.items()}
        params["lang"] = lang()
        if self.hidden:
            params["hide"] = ",".join(sorted(self.hidden))
        current = {k: st.query_params.get(k) for k in st.query_params}
        if current != params:
            st.query_params.from_dict(params)
