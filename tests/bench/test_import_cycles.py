"""The benchmark's modules import one another without a cycle.

A cycle makes what a module holds depend on which module was imported first (the checks modules
once imported the checker library, which imported them back to register their checkers). This walks
every ``import`` statement of ``pcagent.bench``, at module level or inside functions, with ``ast``,
so it needs nothing imported and also catches an import deferred into a function to hide a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pcagent.bench


def module_names(package_dir: Path, package: str) -> dict[str, Path]:
    """Every module of the package (sub-packages included), by dotted name."""
    names: dict[str, Path] = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = list(path.relative_to(package_dir).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        names[".".join([package, *parts])] = path
    return names


def _imported(node: ast.Import | ast.ImportFrom, module: str, is_package: bool) -> list[str]:
    """The dotted name of each thing one import statement names (a module, or a name inside one:
    ``from a.b import c`` gives ``a.b.c``)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if node.level:
        base = module.split(".")
        if not is_package:
            base.pop()
        base = base[: len(base) - (node.level - 1)]
        source = ".".join([*base, node.module] if node.module else base)
    else:
        source = node.module or ""
    return [f"{source}.{alias.name}" for alias in node.names]


def import_graph(package_dir: Path, package: str) -> dict[str, set[str]]:
    """For each module of the package, the package's modules it imports."""
    modules = module_names(package_dir, package)
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for name in _imported(node, module, path.name == "__init__.py"):
                # ``a.b.c`` is the module a.b.c when there is one, else a name in module a.b.
                while name and name not in modules:
                    name = name.rpartition(".")[0]
                if name and name != module:
                    targets.add(name)
        graph[module] = targets
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as ``[a, b, ..., a]``, or None when the graph has none."""
    finished: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in finished:
            return None
        path.append(module)
        for target in sorted(graph.get(module, ())):
            cycle = visit(target)
            if cycle is not None:
                return cycle
        path.pop()
        finished.add(module)
        return None

    for module in sorted(graph):
        cycle = visit(module)
        if cycle is not None:
            return cycle
    return None


def test_bench_modules_import_without_a_cycle() -> None:
    graph = import_graph(Path(pcagent.bench.__file__).parent, "pcagent.bench")
    assert "pcagent.bench.checks_local" in graph  # the walk found the modules
    assert "pcagent.bench.checker_types" in graph["pcagent.bench.checks_local"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_checks_modules_do_not_import_the_library() -> None:
    graph = import_graph(Path(pcagent.bench.__file__).parent, "pcagent.bench")
    checks = [module for module in graph if module.startswith("pcagent.bench.checks_")]
    assert len(checks) >= 4
    for module in checks:
        assert "pcagent.bench.checkers" not in graph[module], module


def test_a_cycle_is_found_even_through_a_function_level_import(tmp_path: Path) -> None:
    package = tmp_path / "demo"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "library.py").write_text("from demo.sub import checks\n")
    (package / "sub" / "checks.py").write_text(
        "def load():\n    from ..library import thing\n    return thing\n"
    )
    (package / "alone.py").write_text("import json\nfrom demo import library\n")

    graph = import_graph(package, "demo")

    assert graph["demo.alone"] == {"demo.library"}
    assert graph["demo.sub.checks"] == {"demo.library"}
    assert find_cycle(graph) == ["demo.library", "demo.sub.checks", "demo.library"]
    graph["demo.sub.checks"].clear()
    assert find_cycle(graph) is None
