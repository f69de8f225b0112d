"""The package's imports keep to its layers: no import runs upwards and no new cycle appears.

The known exceptions of today are named below; a change may shorten these lists, never lengthen
them (a test also fails when an exception has gone, so that the list is shortened with it)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: Imports that run upwards today: (importing module, imported module). None is left; a new one
#: is a design decision to write down here with its reason.
KNOWN_UPWARD_IMPORTS: set[tuple[str, str]] = set()

#: Cycles today, each as the set of its modules. None is left.
KNOWN_CYCLES: list[set[str]] = []

#: Functions allowed over the line limit, each with its reason (at most five). None is left.
LONG_FUNCTION_EXCEPTIONS: set[str] = set()

#: Modules allowed over the line limit (at most five). None is left.
LONG_MODULE_EXCEPTIONS: set[str] = set()


def load_architecture() -> ModuleType:
    """scripts/architecture.py, loaded from its file (scripts/ is no package)."""
    path = ROOT / "scripts" / "architecture.py"
    spec = importlib.util.spec_from_file_location("architecture_measure", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def report() -> dict:
    """The structure as measured now, once for the module's tests."""
    return load_architecture().measure(ROOT, with_duplicates=False)


def test_no_import_runs_upwards_beyond_the_known_ones(report: dict) -> None:
    found = {(row["from"], row["to"]) for row in report["upward_imports"]}
    assert found - KNOWN_UPWARD_IMPORTS == set(), "imports that run upwards through the layers"
    assert KNOWN_UPWARD_IMPORTS - found == set(), "gone: remove them from KNOWN_UPWARD_IMPORTS"


def test_no_cycle_beyond_the_known_ones(report: dict) -> None:
    found = [set(group) for group in report["cycles"]]
    new = [group for group in found if not any(group <= known for known in KNOWN_CYCLES)]
    assert new == [], "new import cycles"
    for known in KNOWN_CYCLES:
        inside = set().union(*(group for group in found if group <= known))
        assert inside == known, f"left the cycle, remove from KNOWN_CYCLES: {known - inside}"


def test_every_room_has_a_layer(report: dict) -> None:
    unplaced = [room for room, layer in report["rooms"].items() if layer == "unplaced"]
    assert unplaced == [], "name these rooms in scripts/architecture.py's LAYERS"


def test_no_module_or_function_over_the_limits_beyond_the_named_exceptions(report: dict) -> None:
    assert len(LONG_FUNCTION_EXCEPTIONS) + len(LONG_MODULE_EXCEPTIONS) <= 5
    long_modules = {row["module"] for row in report["long_modules"]}
    assert long_modules - LONG_MODULE_EXCEPTIONS == set(), "modules over 400 lines: split them"
    long_functions = {
        f"{row['where'].rsplit(':', 1)[0]}:{row['function']}" for row in report["long_functions"]
    }
    assert long_functions - LONG_FUNCTION_EXCEPTIONS == set(), "functions over 80 lines"
    gone = (LONG_FUNCTION_EXCEPTIONS - long_functions) | (LONG_MODULE_EXCEPTIONS - long_modules)
    assert gone == set(), f"within the limits now, remove from the exceptions: {gone}"
