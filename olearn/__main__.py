"""``python -m olearn``: see :mod:`olearn.cli`."""

from olearn.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
