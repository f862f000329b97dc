"""The shape of the code: stages that import one way, no import circles, a pure differ.

Read from the source with the standard library's ast module: every `import` statement counts,
at the top of a module or inside a function, and every module loaded when first used
(`lazy_module("...")`), but for those under `if TYPE_CHECKING:` (names for the type checker,
never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The folders installed as rulesarchive.<stage> (pyproject's package-dir), and the top package.
STAGES = ("corpus", "differ", "scraper", "site_builder", "exports", "system", "templates")
# What each stage may import of the others (the top package `rulesarchive` wires them all).
ALLOWED = {
    "system": set(),
    "corpus": {"system"},
    "differ": {"corpus", "system"},
    "scraper": {"corpus", "system"},
    "site_builder": {"corpus", "differ", "system"},
    "exports": {"corpus", "differ", "system"},
    "templates": set(),
}
# What would make the differ do I/O or start processes: none of it is imported there.
IMPURE = {
    "os",
    "io",
    "pathlib",
    "shutil",
    "tempfile",
    "sqlite3",
    "subprocess",
    "multiprocessing",
    "concurrent",
    "socket",
    "requests",
    "rulesarchive.corpus.store",
    "rulesarchive.corpus.derived",
    "rulesarchive.corpus.lookup",
    "rulesarchive.system.processes",
}


def _modules() -> dict[str, Path]:
    """Every module of the package by its installed name."""
    found = {}
    for folder in ("rulesarchive", *STAGES):
        package = "rulesarchive" if folder == "rulesarchive" else f"rulesarchive.{folder}"
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = path.relative_to(ROOT / folder).with_suffix("").parts
            name = ".".join((package, *parts)).removesuffix(".__init__")
            found[name] = path
    return found


MODULES = _modules()


def _imports(path: Path) -> set[str]:
    """The modules a file imports (absolute names), leaving out `if TYPE_CHECKING:` blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(node)
        for block in ast.walk(tree)
        if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
        for child in block.body
        for node in ast.walk(child)
    }
    names: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            # `from rulesarchive import corpus`: the submodule is what is imported
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif (  # a module loaded when first used (system.lazy) is imported all the same
            isinstance(node, ast.Call)
            and ast.unparse(node.func) == "lazy_module"
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(node.args[0].value)
    return names


def _internal(names: set[str]) -> set[str]:
    return {name for name in names if name in MODULES}


def _stage(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in STAGES else "rulesarchive"


def test_there_are_no_import_circles():
    graph = {name: _internal(_imports(path)) - {name} for name, path in MODULES.items()}
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> None:
        if module in path:
            circle = [*path[path.index(module) :], module]
            pytest.fail("import circle: " + " -> ".join(circle))
        if module in done:
            return
        path.append(module)
        for imported in sorted(graph[module]):
            visit(imported)
        path.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)


def test_stages_import_one_way():
    wrong = []
    for name, path in MODULES.items():
        stage = _stage(name)
        if stage == "rulesarchive":
            continue
        for imported in _internal(_imports(path)):
            other = _stage(imported)
            if other != stage and other not in ALLOWED[stage]:
                wrong.append(f"{name} imports {imported}")
    assert wrong == []


def test_the_differ_opens_no_file_takes_no_folder_and_starts_no_process():
    impure = []
    for name, path in MODULES.items():
        if _stage(name) != "differ":
            continue
        for imported in _imports(path):
            if any(imported == bad or imported.startswith(bad + ".") for bad in IMPURE):
                impure.append(f"{name} imports {imported}")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = {
            node.func.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        }
        impure += [f"{name} calls {call}" for call in calls & {"open", "exec", "eval"}]
    assert impure == []


def test_the_command_line_is_click_alone():
    """No second parser of the command line: sys.argv is read by click only."""
    readers = [
        name
        for name, path in MODULES.items()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute) and ast.unparse(node) == "sys.argv"
    ]
    assert readers == []


KIND_NAMES = {"kind", "status", "level", "place", "flags", "format"}


def _names_a_kind(node: ast.AST) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr in KIND_NAMES
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
        return node.slice.value in KIND_NAMES
    return isinstance(node, ast.Name) and node.id in KIND_NAMES


def _is_text(node: ast.AST) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Set, ast.Tuple, ast.List)):
        return any(_is_text(item) for item in node.elts)
    return False


def test_kinds_and_statuses_are_compared_as_enum_members():
    bare = []
    for name, path in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(map(_names_a_kind, sides)) and any(map(_is_text, sides)):
                bare.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    assert bare == []
