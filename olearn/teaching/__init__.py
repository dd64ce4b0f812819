"""Walkthroughs for the app: plot-ready tables and sentences for one step or one stream.

Each module computes what one page shows, from the readable rules of :mod:`olearn.core` and
the protocols of :mod:`olearn.experiments`; :mod:`olearn.viz` draws it and ``pages/`` renders
it.  :mod:`olearn.teaching.strings` holds every UI sentence in English and Japanese.
"""
