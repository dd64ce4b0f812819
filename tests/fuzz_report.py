"""Run the fuzz suites and print how many inputs ended in which outcome.

    python -m tests.fuzz_report            # all tests/test_fuzz_*.py

Every outcome listed is a documented one (a correct result, a ValueError, an ArchiveCorrupt,
a cache miss); anything else fails the suite itself.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from tests.fuzz_support import COUNTS


def main() -> int:
    files = sorted(str(p) for p in Path(__file__).parent.glob("test_fuzz_*.py"))
    start = time.perf_counter()
    code = pytest.main(["-q", "-p", "no:cacheprovider", *files])
    seconds = time.perf_counter() - start
    print(f"\n{'suite':<34} {'outcome':<26} {'inputs':>7}")
    for suite in sorted({s for s, _ in COUNTS}):
        for (s, outcome), n in sorted(COUNTS.items()):
            if s == suite:
                print(f"{suite:<34} {outcome:<26} {n:>7}")
    print(f"{'total':<61} {sum(COUNTS.values()):>7}   ({seconds:.1f} s, pytest exit {int(code)})")
    return int(code)


if __name__ == "__main__":
    sys.exit(main())
