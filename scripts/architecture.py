"""Measures the package's structure from its source and prints one JSON object.

What it reports, so that the structure can be compared from one commit to the next:

- rooms: the package's top-level modules and subpackages, each with its layer;
- upward imports: an import from a room into a room of a higher layer;
- cycles: groups of modules that import each other, directly or through others;
- long modules (over 400 lines) and long functions (over 80 lines);
- repeated code: the number of pairs the `duplicates` command finds, when it is installed.

The layer order is written here, bottom first, after docs/architecture.md: a room may import
rooms of its own layer or of a lower one. Imports inside functions and under `TYPE_CHECKING`
count too: they are dependencies all the same.

Run: `python scripts/architecture.py` (from the repository root, or with `--root`).
"""

from __future__ import annotations

import argparse
import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

PACKAGE = "pcagent"
MODULE_LINE_LIMIT = 400
FUNCTION_LINE_LIMIT = 80

#: The layers, bottom first. A room imports only rooms of its own layer or of a lower one.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (
        "foundation",
        (
            "errors",
            "config",
            "scratch",
            "interrupts",
            "text",
            "field_names",
            "code_version",
            "lifecycle",
            "registry",
            "applications",
        ),
    ),
    # the typed actions, where each runs (handlers) and the typed state of a step built from them
    ("actions", ("action_base", "actions", "app_actions", "action_handlers", "step_context")),
    ("env", ("env",)),
    ("models", ("models",)),
    ("perception", ("perception",)),
    ("skills", ("skills",)),
    ("agents", ("agents",)),
    ("runtime", ("runtime",)),
    # learned from run records; the assembly opens it for a run and hands it to the session
    ("experience", ("experience",)),
    ("assembly", ("assembly",)),
    ("bench", ("bench",)),
    ("clients", ("cli", "viewer", "demo", "__main__")),
)


@dataclass(frozen=True)
class Module:
    """One source file: its dotted name, its path and whether it is a package's `__init__`."""

    name: str
    path: Path
    is_package: bool


def layer_of_room() -> dict[str, int]:
    """The layer number (0 at the bottom) of every room named in LAYERS."""
    return {room: index for index, (_, rooms) in enumerate(LAYERS) for room in rooms}


def find_modules(source: Path) -> list[Module]:
    """Every Python file under the package folder, named as Python would import it."""
    modules = []
    for path in sorted((source / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(source).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        modules.append(Module(".".join(parts), path, is_package))
    return modules


def imported_names(module: Module, known: set[str]) -> Iterator[str]:
    """The package's modules a module imports, relative imports resolved. `from a import b`
    counts as importing `a.b` when that is a module, and `a` otherwise."""
    tree = ast.parse(module.path.read_text(encoding="utf-8"))
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join([*anchor, base] if base else anchor)
            submodules = [f"{base}.{alias.name}" for alias in node.names]
            found = [name for name in submodules if name in known]
            yield from found
            if len(found) < len(submodules):
                yield base


def import_graph(modules: list[Module]) -> dict[str, set[str]]:
    """Module name → the package's modules it imports."""
    known = {module.name for module in modules}
    graph: dict[str, set[str]] = {}
    for module in modules:
        names = set(imported_names(module, known))
        graph[module.name] = {name for name in names if name in known and name != module.name}
    return graph


def room_of(module_name: str) -> str:
    """The top-level room a module belongs to (`pcagent.env.sandbox` → `env`)."""
    parts = module_name.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def strongly_connected(graph: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iteratively: the groups of two or more modules that import each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return sorted(groups)


def upward_imports(graph: dict[str, set[str]]) -> list[dict[str, str]]:
    """Imports from a room into a room of a higher layer (or into a room LAYERS does not name)."""
    layers = layer_of_room()
    found = []
    for source, targets in sorted(graph.items()):
        source_room = room_of(source)
        if source_room == "__init__":
            continue
        for target in sorted(targets):
            target_room = room_of(target)
            if target_room in ("__init__", source_room):
                continue
            source_layer = layers.get(source_room, -1)
            target_layer = layers.get(target_room, len(LAYERS))
            if target_layer > source_layer:
                found.append({"from": source, "to": target})
    return found


def long_functions(modules: list[Module], source: Path) -> list[dict[str, object]]:
    """Functions and methods longer than the limit, longest first."""
    found = []
    for module in modules:
        tree = ast.parse(module.path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > FUNCTION_LINE_LIMIT:
                    where = f"{module.path.relative_to(source)}:{node.lineno}"
                    found.append({"function": node.name, "where": where, "lines": lines})
    return sorted(found, key=lambda row: -int(str(row["lines"])))


def long_modules(modules: list[Module], source: Path) -> list[dict[str, object]]:
    """Files longer than the limit, longest first."""
    found = []
    for module in modules:
        lines = len(module.path.read_text(encoding="utf-8").splitlines())
        if lines > MODULE_LINE_LIMIT:
            found.append({"module": str(module.path.relative_to(source)), "lines": lines})
    return sorted(found, key=lambda row: -int(str(row["lines"])))


def repeated_code_pairs(root: Path) -> int | None:
    """How many repeated-code pairs `duplicates` counts over the source folder; None without it."""
    command = shutil.which("duplicates")
    if command is None:
        return None
    completed = subprocess.run(
        [command, "--repo", str(root / "src"), "--seconds", "120"],
        capture_output=True,
        text=True,
        check=False,
    )
    first = completed.stdout.strip().splitlines()[:1]
    if not first or first[0].startswith("no duplicates"):
        return 0 if first else None
    word = first[0].split()[0]
    return int(word) if word.isdigit() else None


def room_layers(graph: dict[str, set[str]]) -> dict[str, str]:
    """Each room found in the package with its layer's name ("unplaced" when LAYERS lacks it)."""
    names = {index: name for index, (name, _) in enumerate(LAYERS)}
    layers = layer_of_room()
    rooms = sorted({room_of(name) for name in graph} - {"__init__"})
    return {room: names.get(layers.get(room, -1), "unplaced") for room in rooms}


def measure(root: Path, *, with_duplicates: bool = True) -> dict[str, object]:
    """Everything this script reports, as one dictionary."""
    source = root / "src"
    modules = find_modules(source)
    graph = import_graph(modules)
    cycles = strongly_connected(graph)
    return {
        "rooms": room_layers(graph),
        "layers": [name for name, _ in LAYERS],
        "modules": len(modules),
        "upward_imports": upward_imports(graph),
        "cycles": cycles,
        "modules_in_cycles": sum(len(group) for group in cycles),
        "long_modules": long_modules(modules, source),
        "long_functions": long_functions(modules, source),
        "repeated_code_pairs": repeated_code_pairs(root) if with_duplicates else None,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--no-duplicates", action="store_true", help="skip the repeated code")
    arguments = parser.parse_args()
    report = measure(arguments.root, with_duplicates=not arguments.no_duplicates)
    report["counts"] = {
        "upward_imports": len(report["upward_imports"]),  # type: ignore[arg-type]
        "cycles": len(report["cycles"]),  # type: ignore[arg-type]
        "long_modules": len(report["long_modules"]),  # type: ignore[arg-type]
        "long_functions": len(report["long_functions"]),  # type: ignore[arg-type]
    }
    json.dump(report, sys.stdout, indent=1)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
