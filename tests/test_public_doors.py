"""Our libraries through their public doors only (docs/architecture.md, "Where we extend our
libraries"): no code of the site imports a library's private module or name, reads or writes a
library's underscore attribute, or reassigns anything on a library."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
OURS = {"config", "tables", "chat", "bots", "ocholoco", "bench", "scripts", "tests", "__future__"}
CHECKED = ("config", "tables", "chat", "bots", "ocholoco")
# Documented despite the underscore: Django's Model `_meta` API.
DOCUMENTED = {"_meta"}


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def breaches(source: str) -> list[str]:
    """What in `source` goes past a library's public doors, one line each."""
    tree = ast.parse(source)
    library_names: set[str] = set()  # names bound to a library's module or object
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] in OURS:
                    continue
                if any(_private(part) for part in alias.name.split(".")):
                    found.append(f"line {node.lineno}: import {alias.name}")
                library_names.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level or module.split(".")[0] in OURS:
                continue
            if any(_private(part) for part in module.split(".")):
                found.append(f"line {node.lineno}: from {module} import ...")
            for alias in node.names:
                if _private(alias.name):
                    found.append(f"line {node.lineno}: from {module} import {alias.name}")
                library_names.add(alias.asname or alias.name)

    def root(node: ast.expr) -> str | None:
        while isinstance(node, ast.Attribute):
            node = node.value
        return node.id if isinstance(node, ast.Name) else None

    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and root(node) in library_names
            and _private(node.attr)
            and node.attr not in DOCUMENTED
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        elif isinstance(node, ast.Delete):
            targets = node.targets
        for target in targets:
            if isinstance(target, ast.Attribute) and root(target) in library_names:
                found.append(f"line {node.lineno}: {ast.unparse(target)} reassigned")
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in {"setattr", "delattr"}
            and node.args
            and root(node.args[0]) in library_names
        ):
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _defined(tree: ast.AST) -> set[str]:
    """The names `tree` defines: its functions, classes, variables, arguments, imports' names,
    what it sets on `self` or `cls`, and its `__slots__`."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add(node.asname or node.name.split(".")[-1])
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in {"self", "cls"}
        ):
            names.add(node.attr)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            names |= {c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant)}
    return names


def strangers(trees: list[ast.AST]) -> list[str]:
    """Underscore names used on any object that none of `trees` defines: another's privates
    (`response._csp_config`, `instance._state`, `getattr(x, "_y")`)."""
    ours = set().union(*map(_defined, trees)) | DOCUMENTED
    found = []
    for tree in trees:
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Attribute):
                name = node.attr
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in {"getattr", "setattr", "hasattr", "delattr"}
                and len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and isinstance(node.args[1].value, str)
            ):
                name = node.args[1].value
            if name and _private(name) and name not in ours:
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _modules() -> list[Path]:
    return sorted(
        path
        for package in CHECKED
        for path in (ROOT / package).rglob("*.py")
        if "migrations" not in path.parts
    )


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_site_uses_its_libraries_through_their_public_doors(path):
    assert breaches(path.read_text()) == []


def test_no_underscore_name_is_used_that_the_site_does_not_define_itself():
    trees = [ast.parse(path.read_text()) for path in _modules()]
    assert strangers(trees) == []


@pytest.mark.parametrize(
    "source",
    [
        "def f(response):\n    return response._csp_config",
        "def f(instance):\n    instance._state.adding = False",
        "def f(request):\n    return getattr(request, '_csp_nonce', None)",
        "class L(Base):\n    def g(self):\n        self._remove_from_groups('x')",
    ],
)
def test_a_private_of_another_is_found(source):
    assert strangers([ast.parse(source)])


@pytest.mark.parametrize(
    "source",
    [
        "import psycopg_pool.base\npsycopg_pool.base.AttemptWithBackoff.DELAY_BACKOFF = 1.0",
        "from twisted.web import http\nprint(http._parseContentType)",
        "from django.core.handlers import asgi\nasgi.ASGIHandler.handle = lambda self: None",
        "from channels.layers import InMemoryChannelLayer as L\nL._clean_expired(None)",
        "from django.db.models.sql import compiler\nsetattr(compiler, 'x', 1)",
        "from autobahn.websocket import _protocol",
        "import daphne._private",
        "def nonce(request):\n    from csp import middleware\n    return middleware._csp_nonce",
    ],
)
def test_a_breach_of_a_door_is_found(source):
    assert breaches(source)


def test_our_own_underscore_names_and_the_documented_meta_are_not_breaches():
    source = (
        "from django.contrib.auth.models import User\n"
        "from ocholoco.round import State\n"
        "fields = User._meta.get_fields()\n"
        "state = State()\nstate._hands = []\n"
    )
    assert breaches(source) == []


def private_imports(source: str) -> list[str]:
    """Underscore names `source` imports from another of our modules: a module's private part
    (a cache, a registry) read past the functions of the module that owns it."""
    return [
        f"line {node.lineno}: from {node.module} import {alias.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in OURS
        for alias in node.names
        if _private(alias.name)
    ]


@pytest.mark.parametrize(
    "path",
    [*_modules(), *sorted((ROOT / "bench").glob("*.py"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_no_module_of_the_site_or_the_benchmarks_imports_another_modules_private_names(path):
    assert private_imports(path.read_text()) == []


def test_a_private_name_imported_from_another_of_our_modules_is_found():
    source = "from tables.live.frames import _latest\nfrom tests.live import free_port, _env\n"
    assert private_imports(source) == [
        "line 1: from tables.live.frames import _latest", "line 2: from tests.live import _env",
    ]
