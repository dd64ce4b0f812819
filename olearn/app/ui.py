"""App-layer helpers shared by every page: language, URL state, lesson links, the error guard,
and figure rendering.  Streamlit only; no maths.

URL state: every control registered through :class:`Controls` starts from ``?name=value`` in
the URL (when present) and writes its value back, so the address bar reproduces the screen,
seed included.  ``?hide=all`` (or ``?hide=name1,name2``) renders no widget for those controls:
their URL or default values are used, which makes a lesson link show only the content.

Presentation: ``?present=1`` (or the sidebar's "Present" switch) collapses the sidebar, folds
the controls into one closed "Settings" expander beside a one-line title (:meth:`Controls.header`,
:meth:`Controls.panel`) and fits the page's main view to the screen, 1280x720 down to 1024x576
(125 % zoom): :func:`stage` lays out figure | explanation + step buttons side by side, and
:func:`stage_box` with :func:`fill` stretches the figures to the screen's height in the browser.

Theme: :func:`figure_theme` is the theme the figures are painted in (:mod:`olearn.viz.theme`):
the server's fixed ``theme.base``, else ``?theme=`` / the sidebar's switch, else the one the
browser reports showing (:mod:`olearn.app.components.theme`); :func:`plot` paints every figure,
:func:`painted` the JSON a stepper or a player sends.

Language: widget values are stored language-free (the option itself, never its label) under
keys that do not depend on the language; a control whose labels were drawn in another
language is re-sent to the browser, so a language switch keeps every widget's state and
re-translates its option labels.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from contextlib import contextmanager, nullcontext
from typing import Any

import streamlit as st

from olearn._budget import BudgetError
from olearn.app import downloads
from olearn.app.components.player import chart_key
from olearn.teaching.strings import LANGS, t
from olearn.viz.theme import LIGHT, THEMES, Theme, paint, paint_json, paint_text

RAISE_ENV = "OLEARN_APP_RAISE"  # set to 1 (tests) to let page errors propagate
_LANG_OF = "_ui.lang_of."  # session key prefix: the language a widget's labels were drawn in
# session key prefix: a value set() gave a control, kept until a run of the page completes
_PENDING = "_ui.pending."


def lang() -> str:
    """The current UI language ("en" or "ja"): the sidebar switch, else ``?lang=``."""
    value = st.session_state.get("lang") or st.query_params.get("lang", "en")
    return value if value in LANGS else "en"


def tr(key: str, **fmt) -> str:
    """``t(key, current language)``."""
    return t(key, lang(), **fmt)


_MARKDOWN = re.compile(r"([\\`*_{}\[\]()#+\-.!|<>~$:])")


def as_text(value: Any) -> str:
    """``value`` as text that Streamlit's Markdown shows literally (every Markdown character
    backslash-escaped): for names and values a user or a link chose (an upload's file name,
    a URL parameter), which must never become a link, an image fetched or a formula.

    >>> print(as_text("![x](http://h/a.png)"))
    \\!\\[x\\]\\(http\\://h/a\\.png\\)
    """
    return _MARKDOWN.sub(r"\\\1", str(value))


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
        message = as_text(str(exc) or type(exc).__name__)  # may quote a file name or a URL
        if isinstance(exc, BudgetError):  # refused before allocating: a choice to change
            st.warning(tr("ui.budget", message=message), icon=":material/memory:")
            return
        if isinstance(exc, OSError):  # a dataset not on this machine (DatasetUnavailable)
            key = "ui.data_missing"
        elif isinstance(exc, ValueError | KeyError):
            key = "ui.bad_param"
        else:
            key = "ui.error"
        st.error(tr(key, message=message), icon=":material/warning:")


@contextmanager
def progress_bar(text: str | None = None):
    """``st.progress`` for a long call, removed when the call ends, also when it fails (an
    error is then shown alone, not under an empty bar)."""
    bar = st.progress(0.0, text)
    try:
        yield bar
    finally:
        bar.empty()


def blank_missing(frame):
    """``frame`` for ``st.dataframe`` with missing values shown blank (Streamlit writes
    "None"); floats to 6 significant digits; the numbers stay numbers (a pandas Styler, so
    a column still sorts by value)."""
    floats = list(frame.select_dtypes("float").columns)
    others = [c for c in frame.columns if c not in floats]
    style = frame.style.format(lambda v: "" if v != v else f"{v:.6g}", subset=floats)
    return style.format(na_rep="", subset=others)


THEME_CHOICES = ("auto", "light", "dark")  # "auto": the system's prefers-color-scheme
SHOWN_THEME = "_ui.theme_shown"  # session key: the theme the browser reported showing


def theme_switchable() -> bool:
    """Whether the page may choose light or dark: not when the server fixed one
    (``--theme.base dark``); the figures then follow the server's."""
    return st.get_option("theme.base") not in ("light", "dark")


def theme_choice() -> str:
    """The theme asked for: the sidebar's switch, else ``?theme=`` (``auto``: the system's)."""
    value = st.session_state.get("theme") or st.query_params.get("theme", "auto")
    return value if value in THEME_CHOICES else "auto"


def figure_theme() -> Theme:
    """The theme the page is drawn in, whose inks the figures take (:mod:`olearn.viz.theme`):
    the server's fixed one, else the one asked for, else the one the browser shows (its
    system's, reported by :func:`olearn.app.components.theme.theme_sync`), light until known."""
    base = st.get_option("theme.base")
    if base in THEMES:
        return THEMES[base]
    choice = theme_choice()
    if choice in THEMES:
        return THEMES[choice]
    shown = st.session_state.get(SHOWN_THEME) or getattr(st.context.theme, "type", None)
    return THEMES.get(shown, LIGHT)


def plot(fig, key: str | None = None, **kw):
    """Render a plotly figure full width, in the page's theme (:func:`figure_theme`); its
    modebar saves a PNG (camera) or an SVG, client-side (:mod:`olearn.app.downloads`).
    ``kw`` go to ``st.plotly_chart``."""
    return downloads.plot(paint(fig, figure_theme()), key, **kw)


def inked(text: str) -> str:
    """A formula or a note drawn with the figures' inks (e.g. a ``\\textcolor`` of
    :data:`olearn.viz.theme.LIGHT`'s alert), in the page's theme."""
    return paint_text(text, figure_theme())


def painted(figures_json: Sequence[str]) -> list[str]:
    """Figures (or frame lists) as JSON, in the page's theme: what a stepper or a player
    sends to the browser."""
    theme = figure_theme()
    return [paint_json(text, theme) for text in figures_json]


def parse_param(raw: Any, like: Any) -> Any:
    """A URL value parsed to the type of ``like``, or ``None`` when it does not parse.

    Never raises: ``inf``, ``nan``, ``1e999``, numbers too big for an int, and garbage all
    give ``None`` (the caller then keeps its default).

    >>> parse_param("7", 0), parse_param("2.5", 1.0), parse_param("on", False)
    (7, 2.5, True)
    >>> [parse_param(v, 0) for v in ("inf", "1e999", "nan", "7.5", "x", None)]
    [None, None, None, None, None, None]
    >>> parse_param("1e999", 1.0), parse_param("-0", 0), parse_param("spa", "pa")
    (None, 0, 'spa')
    """
    if raw is None:
        return None
    text = str(raw).strip()
    if isinstance(like, bool):
        low = text.lower()
        if low in ("1", "true", "yes", "on"):
            return True
        if low in ("0", "false", "no", "off"):
            return False
        return None
    if isinstance(like, int | float):
        try:
            value = float(text)
        except (TypeError, ValueError, OverflowError):
            return None
        if not math.isfinite(value):
            return None
        if isinstance(like, int):
            if value != round(value) or abs(value) > 2**53:
                return None
            return int(value)
        return value
    return text


def query_param(name: str, like: Any, valid: Callable[[Any], bool] | None = None) -> Any:
    """``?name=`` parsed like ``like`` (see :func:`parse_param`), ``like`` itself when absent,
    unparsable or refused by ``valid``.  Never raises."""
    value = parse_param(st.query_params.get(name), like)
    if value is None:
        return like
    try:
        return value if valid is None or valid(value) else like
    except Exception:  # noqa: BLE001 - a validator choking on odd input means "not valid"
        return like


def clamp_notes(notes: Sequence[tuple]) -> None:
    """One gentle note per URL value that was out of range and replaced: ``(name, given,
    used, low, high)`` tuples, as :func:`olearn.teaching.stream.clamp` records them."""
    for name, given, used, low, high in notes:
        st.info(
            tr("ui.clamped", name=name, given=as_text(given), used=used, low=low, high=high),
            icon=":material/info:",
        )


def presenting() -> bool:
    """Presentation mode: the sidebar's "Present" switch, else ``?present=1``."""
    if "present" in st.session_state:
        return bool(st.session_state["present"])
    return bool(query_param("present", False))


def hidden_set() -> set[str]:
    """The names listed in ``?hide=`` (``{"all"}`` for ``hide=all``)."""
    raw = st.query_params.get("hide", "") or ""
    return {h.strip() for h in str(raw).split(",") if h.strip()}


def projector() -> bool:
    """Projector mode: ``?present=1`` (the sidebar's switch) or a lesson's ``hide=all`` view.
    The page's title shrinks to one line, its intro goes, and its main view fills one screen
    (:func:`stage_box`), from 1280x720 down to 1024x576 (a 1280x720 projector at 125% zoom)."""
    return presenting() or "all" in hidden_set()


# figure heights that fit 1280x720 in presentation mode (the header, title and one row of
# buttons take ~150 px) and a comfortable height otherwise; in projector mode the main
# figures are then stretched to the screen's height (:func:`stage_box`, :func:`fill`)
PRESENT_HEIGHT = 540


def figure_height(normal: int, present: int = PRESENT_HEIGHT) -> int:
    """The height to give the page's main figure: ``present`` in presentation mode and in a
    lesson's ``hide=all`` view (both must fit 1280x720)."""
    return present if projector() else normal


def stage(widths: Sequence[float] = (3, 2)):
    """Two columns for a page's main view: the figure on the left, the current step's text
    and its Step / Next / Play buttons on the right (side by side, as item 1 of the lecture
    layout asks).  Returns ``(figure_column, side_column)``."""
    left, right = st.columns(list(widths), gap="medium", vertical_alignment="top")
    return left, right


def stage_box(name: str, where=None):
    """In projector mode, a box as tall as the screen below the page's head row (CSS
    ``100dvh`` less the head, ``assets/present.css``): a figure drawn in it with
    :func:`fill` stretches to what its siblings leave, so the view fits at any window height
    (a zoomed browser too) without a rerun.  Otherwise no box at all."""
    if not projector():
        return nullcontext()
    return (where or st).container(key=f"stage-{name}")


def fill() -> dict:
    """``plot(...)`` keywords for a figure inside a :func:`stage_box`: in projector mode it
    fills the height its box has left; otherwise it keeps its own height."""
    return {"height": "stretch"} if projector() else {}


def header(title: str, intro: str | None = None):
    """The page title and its intro; in projector mode one short line instead (no intro),
    beside which the page's settings go (:meth:`Controls.panel`).  Returns the place for the
    settings in projector mode, else None."""
    if not projector():
        st.title(title)
        if intro:
            st.caption(intro)
        return None
    left, right = st.columns([2, 3], vertical_alignment="center", gap="small")
    with left.container(key="olearn-head"):
        st.markdown(f"##### {title}")
    return right


def key_class(key: str) -> str:
    """The CSS class Streamlit gives the element with widget or container key ``key``.

    >>> key_class("play.place_class")
    'st-key-play-place_class'
    """
    return "st-key-" + chart_key(key)


def swatch_css(key: str, colors: Sequence[str]) -> str:
    """CSS putting a square of ``colors[i]`` before the label of option ``i`` of the button
    group (``st.segmented_control`` / ``st.pills``) with key ``key``: the exact colour the
    figures use (an emoji only comes close, and a machine without an emoji font draws an
    empty box).  Options past ``len(colors)`` get no square."""
    at = f".{key_class(key)} button[role=radio]"
    rules = [
        f'{at}:nth-of-type(-n+{len(colors)}) p::before {{ content: ""; display: inline-block;'
        " width: 0.9em; height: 0.9em; border-radius: 0.2em; margin-right: 0.4em;"
        " vertical-align: -0.12em; }",
        *(
            f"{at}:nth-of-type({i + 1}) p::before {{ background: {c}; }}"
            for i, c in enumerate(colors)
        ),
    ]
    return "<style>\n" + "\n".join(rules) + "\n</style>"


def forget_pending() -> None:
    """Drop the values :meth:`Controls.set` holds: called by the frame when a run of the page
    completes, so that from then on the browser's values are the user's."""
    for key in [k for k in st.session_state if str(k).startswith(_PENDING)]:
        del st.session_state[key]


class _Nowhere:
    """Stands in for a column when the controls are all hidden: every call does nothing, so a
    page can keep ``where=col`` and ``col.button(...)`` without drawing empty boxes."""

    def __getattr__(self, name: str):
        return lambda *a, **k: None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def _safe(valid: Callable[[Any], bool], value: Any) -> bool:
    try:
        return bool(valid(value))
    except Exception:  # noqa: BLE001
        return False


class Controls:
    """Widgets of one page, synced with the URL and hideable for a lesson.

    Parameters
    ----------
    page : a short page id; widget keys are ``"<page>.<name>"`` so pages never collide,
        the URL uses ``name`` alone.
    """

    def __init__(self, page: str):
        self.page = page
        self.hidden = hidden_set()
        self.values: dict[str, Any] = {}
        self.present = presenting()
        self.slot = None  # where the settings go in projector mode (beside the title)

    def header(self, title: str, intro: str | None = None) -> None:
        """:func:`header`; the settings of :meth:`panel` then sit beside the one-line title."""
        self.slot = header(title, intro)

    @property
    def all_hidden(self) -> bool:
        return "all" in self.hidden

    def panel(self, label: str | None = None):
        """The box around the page's controls: a bordered container; in presentation mode a
        closed "Settings" expander; with ``hide=all`` nothing at all (no empty box)."""
        if self.all_hidden:
            return nullcontext()
        if self.present:
            where = self.slot or st
            return where.expander(
                label or tr("ui.settings"), expanded=False, icon=":material/tune:"
            )
        return st.container(border=True)

    def settings(self, label: str | None = None):
        """Where a page that lays its own controls out puts them: in projector mode the closed
        "Settings" expander (beside the title), with ``hide=all`` None (no widgets), else the
        page itself (``st``)."""
        if self.all_hidden:
            return None
        return self.panel(label) if self.present else st

    def columns(self, spec, **kw) -> list:
        """``st.columns(spec)``; with ``hide=all`` stand-ins that draw nothing."""
        if self.all_hidden:
            n = spec if isinstance(spec, int) else len(spec)
            return [_Nowhere() for _ in range(n)]
        return st.columns(spec, **kw)

    def key(self, name: str) -> str:
        return f"{self.page}.{name}"

    def is_hidden(self, name: str) -> bool:
        return "all" in self.hidden or name in self.hidden

    def _start(self, name: str, default: Any, valid: Callable[[Any], bool]) -> str:
        """Put the URL value (if valid) or the default in session state before the widget."""
        key = self.key(name)
        if _PENDING + key in st.session_state and _safe(valid, st.session_state[_PENDING + key]):
            st.session_state[key] = st.session_state[_PENDING + key]  # see :meth:`set`
        elif key not in st.session_state:
            st.session_state[key] = query_param(name, default, valid)
        elif not _safe(valid, st.session_state[key]):
            st.session_state[key] = default
        else:
            self._relabel(key)
        st.session_state[_LANG_OF + key] = lang()
        return key

    @staticmethod
    def _relabel(key: str) -> None:
        """If this widget's labels were last drawn in another language, assign its (language-
        free) value again: Streamlit then sends the value with the new labels to the browser,
        which otherwise keeps the old label and falls back to the first option."""
        drawn_in = st.session_state.get(_LANG_OF + key)
        if drawn_in is not None and drawn_in != lang():
            st.session_state[key] = st.session_state[key]

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
        *,
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
            by_text = {str(o): o for o in options}
            value = [by_text[v] for v in str(raw).split(",") if v in by_text] if raw else None
            value = list(dict.fromkeys(value or default))
            most = kw.get("max_selections")
            if most is not None and len(value) > most:  # Streamlit would refuse the widget
                dropped = as_text(", ".join(map(str, value[most:])))
                st.info(
                    tr("ui.too_many", name=name, most=most, dropped=dropped),
                    icon=":material/info:",
                )
                value = value[:most]
            st.session_state[key] = value
        else:
            st.session_state[key] = [v for v in st.session_state[key] if v in options]
            self._relabel(key)
        st.session_state[_LANG_OF + key] = lang()
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

    def state(self, name: str, default: Any, valid: Callable[[Any], bool]) -> Any:
        """A value kept in the session and the URL without a Streamlit widget (e.g. a value
        set in the browser by a component): the URL's on arrival, :meth:`set` after that."""
        key = self._start(name, default, valid)
        return self._done(name, st.session_state[key])

    def adopt(self, name: str, value: Any) -> Any:
        """Take a value the browser reported (after the widget or :meth:`state` was drawn)."""
        st.session_state[self.key(name)] = value
        return self._done(name, value)

    def set(self, name: str, value: Any) -> None:
        """Change a control's value from a callback (before its widget is drawn).

        The value holds until a run of the page completes (:func:`forget_pending`).  The
        race it prevents: the browser learns the value only from that run, and a rerun it
        asks for meanwhile (a second click, a component's report) carries the widget's old
        value; Streamlit stops the running run and starts one with the browser's widget
        values, where the old value wins over the callback's (Streamlit 1.67 still does).
        ``tests/test_browser_walks.py::
        test_a_value_a_callback_set_survives_the_rerun_that_interrupts_its_run`` delivers a
        second click once Regenerate's run has drawn; without the held value the seed stays
        0.  (A request that arrives before the run's callbacks even ran makes Streamlit
        drop the click itself: the player and the stepper hold their reports after a press
        elsewhere, see ``holdReportsOnPresses`` in ``assets/component_base.js``.)"""
        st.session_state[self.key(name)] = value
        st.session_state[_PENDING + self.key(name)] = value

    def get(self, name: str, default: Any = None) -> Any:
        return st.session_state.get(self.key(name), default)

    def sync(self) -> None:
        """Write every control's value (plus the language, the theme, presentation mode and
        the hide list) to the URL, all at once."""
        params = {k: str(v) for k, v in self.values.items()}
        params["lang"] = lang()
        if theme_choice() != "auto":
            params["theme"] = theme_choice()
        if self.present:
            params["present"] = "1"
        if self.hidden:
            params["hide"] = ",".join(sorted(self.hidden))
        current = {k: st.query_params.get(k) for k in st.query_params}
        if current != params:
            st.query_params.from_dict(params)
