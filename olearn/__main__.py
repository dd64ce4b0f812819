"""``python -m olearn``: the same entry as the ``olearn`` command (see :mod:`olearn.cli`)."""

from olearn.cli import console

if __name__ == "__main__":
    console()
