"""The package's layers: klampt.math, klampt.model and klampt.io import
nothing from the upper packages (vis, plan, sim, control, apps, compas_fab),
not even inside a function, read from every module's AST; the few reference
names of a lower layer whose work an upper one does reach it through
klampt._providers, whose every entry resolves and is used. Outside klampt.vis,
a klampt module imported inside a function says why on its line (OpenGL, an
optional package, a layer above, a cycle)."""
import ast
import os
import subprocess
import sys

import pytest

import klampt
from klampt import _providers

SRC = os.path.dirname(os.path.abspath(klampt.__file__))
LOWER = ('math', 'model', 'io')
UPPER = ('vis', 'plan', 'sim', 'control', 'apps', 'compas_fab')


def module_name(path):
    """Dotted name of a source file under klampt, and whether it is a package."""
    rel = os.path.relpath(path, os.path.dirname(SRC))[:-3].split(os.sep)
    is_package = rel[-1] == '__init__'
    return '.'.join(rel[:-1] if is_package else rel), is_package


def imported_modules(source, name, is_package):
    """(line, dotted module) of every import of ``source`` (module ``name``),
    at any depth: ``from a import b`` gives a.b too, since b may be a
    submodule; ``importlib.import_module('...')`` and ``__import__('...')``
    with a literal count as imports."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split('.') if is_package else name.split('.')[:-1]
                base = base[:len(base) - (node.level - 1)]
                module = '.'.join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            out.append((node.lineno, module))
            out += [(node.lineno, module + '.' + alias.name) for alias in node.names]
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, 'id', None)
            if called in ('import_module', '__import__') and isinstance(node.args[0].value, str):
                out.append((node.lineno, node.args[0].value))
    return out


def upward_imports(source, name, is_package):
    """The imports of a lower-layer module that reach an upper layer."""
    return [(line, module) for line, module in imported_modules(source, name, is_package)
            if module.split('.')[0] == 'klampt' and len(module.split('.')) > 1 and module.split('.')[1] in UPPER]


def lower_layer_sources(packages=LOWER):
    for package in packages:
        for folder, _, files in os.walk(os.path.join(SRC, package)):
            for f in sorted(files):
                if f.endswith('.py'):
                    yield os.path.join(folder, f)


def test_lower_layers_import_nothing_above_them():
    found = []
    for path in lower_layer_sources():
        name, is_package = module_name(path)
        with open(path, encoding='utf-8') as f:
            source = f.read()
        found += ['%s:%d imports %s' % (name, line, module) for line, module in upward_imports(source, name, is_package)]
    assert not found, "upward imports (reach the upper layer through klampt._providers):\n" + "\n".join(found)


@pytest.mark.parametrize("source", [
    "def f():\n    from ..vis import editors\n",
    "def f():\n    from .. import vis\n",
    "import klampt.plan.cspace\n",
    "from klampt import sim\n",
    "class A:\n    def m(self):\n        import importlib\n        importlib.import_module('klampt.control.utils')\n",
])
def test_the_check_finds_an_upward_import_at_any_depth(source):
    assert upward_imports(source, 'klampt.io.resource', False)


def test_the_check_allows_imports_within_and_below_the_layer():
    source = ("from ..math import so3\nfrom . import loader\nfrom .. import _providers\n"
              "def f():\n    from ..model import types\n    import klampt.robotsim\n")
    assert upward_imports(source, 'klampt.io.resource', False) == []


def provider_keys_used():
    """provider('key') calls in the lower layers' sources: key -> modules."""
    used = {}
    for path in lower_layer_sources():
        with open(path, encoding='utf-8') as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == 'provider'
                    and node.args and isinstance(node.args[0], ast.Constant)):
                used.setdefault(node.args[0].value, []).append(module_name(path)[0])
    return used


def test_every_provider_is_in_an_upper_layer_used_and_callable():
    used = provider_keys_used()
    assert set(used) == set(_providers.PROVIDERS), "keys used but not registered, or registered but unused"
    for key, target in _providers.PROVIDERS.items():
        module = target.split(':')[0]
        assert module.split('.')[1] in UPPER, (key, target)
        assert callable(_providers.provider(key)), (key, target)
    with pytest.raises(KeyError):
        _providers.provider('no.such.key')


def test_lower_modules_with_providers_import_without_the_upper_layers():
    modules = sorted({m for mods in provider_keys_used().values() for m in mods})
    code = ("import sys\n"
            "for m in %r:\n    __import__(m)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] == 'klampt' and len(m.split('.')) > 1\n"
            "             and m.split('.')[1] in %r))\n" % (modules, UPPER))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True).stdout
    assert out.strip() == "[]", (modules, out)


def function_local_imports(source):
    """(line, statement, its last source line) of the imports inside
    functions of ``source`` (at any depth)."""
    lines = source.split('\n')
    out = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            if in_function and isinstance(child, (ast.Import, ast.ImportFrom)):
                out.append((child.lineno, ast.unparse(child), lines[child.end_lineno - 1]))
            visit(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))
    visit(ast.parse(source), False)
    return out


def unexplained_local_imports(source, name, is_package):
    """The function-local imports of klampt modules without a comment."""
    found = []
    for line, statement, last_line in function_local_imports(source):
        modules = [m for _, m in imported_modules(statement, name, is_package)]
        if any(m.split('.')[0] == 'klampt' for m in modules) and '#' not in last_line:
            found.append((line, statement))
    return found


def test_function_local_klampt_imports_say_why():
    found = []
    for path in lower_layer_sources(LOWER + ('sim', 'plan', 'control', 'apps')):
        name, is_package = module_name(path)
        with open(path, encoding='utf-8') as f:
            source = f.read()
        found += ['%s:%d %s' % (name, line, text) for line, text in unexplained_local_imports(source, name, is_package)]
    assert not found, "import at the top, or say on the line why not:\n" + "\n".join(found)


def test_the_local_import_check_reads_functions_only():
    source = ("from . import loader\n"
              "def f():\n    from ..model import types\n    import numpy\n"
              "def g():\n    def h():\n        from .. import vis  # OpenGL\n"
              "    return 1\n")
    assert unexplained_local_imports(source, 'klampt.io.resource', False) == [(3, 'from ..model import types')]
