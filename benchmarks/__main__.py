"""``python -m benchmarks [--quick] [--out results]``: see :mod:`benchmarks.run`."""

from benchmarks.run import main

raise SystemExit(main())
