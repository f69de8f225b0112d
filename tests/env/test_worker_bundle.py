"""A worker's source bundle lists the package modules it imports, and is made safely from
several threads at once (two sandboxes starting together; no desktop needed)."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from pcagent.env.accessibility import _package_imports, _source_of

WORKER = "pcagent.env.accessibility_worker"


def test_the_package_imports_of_a_source_are_its_pcagent_from_imports() -> None:
    source = "import os\nfrom pcagent.env.observation import Box\nfrom json import dumps\n"
    assert _package_imports(source) == ["pcagent.env.observation"]


def test_sources_are_parsed_from_many_threads_at_once() -> None:
    """Python 3.11's parser, run in two threads at once, raised "SystemError: AST constructor
    recursion depth mismatch" and one of two sandboxes started together did not start (once, in
    the full test run of 2026-11-28). The race is rare: this parses from eight threads at once,
    which it did not reproduce without the lock in three tries; the desktop test of two
    sandboxes picking one display is the one that met it."""
    source = _source_of(WORKER)
    assert source is not None
    expected = _package_imports(source)
    with ThreadPoolExecutor(max_workers=8) as pool:
        found = list(pool.map(lambda _: _package_imports(source), range(400)))
    assert all(imports == expected for imports in found)
