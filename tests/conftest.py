"""Fixtures shared across test files."""

from tests.browser_support import page, server  # noqa: F401  (fixtures for the browser tests)
