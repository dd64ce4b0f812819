"""The suite's own split (``.ci/run``: ``pytest -n 2 --dist loadgroup``): every test is in
its file's group, so a file's tests run on one worker and its module fixtures (a server, a
browser, a benchmark run) are built once (files that share the page renders of
tests/app_renders.py share a group: conftest's ``SAME_WORKER``).

tests/conftest.py marks the groups before pytest-xdist reads them: xdist's worker names a
test ``<node id>@<group>`` in its own collection hook, which ran first until conftest's hook
was ``tryfirst``, and then no test had a group (one file's module fixture was built on both
workers: the quick benchmark run twice, 30 s)."""

from __future__ import annotations

GROUP = "test_suite_groups.py"


def test_each_test_is_in_its_files_group(request):
    assert request.node.get_closest_marker("xdist_group").args == (GROUP,)
    if getattr(request.config.option, "loadgroup", False):  # a worker of --dist loadgroup
        assert request.node.nodeid.endswith(f"@{GROUP}"), request.node.nodeid
