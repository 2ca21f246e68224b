"""Shared test helpers live in one place -- a conftest.py or a helper module --
and are not copied between files.  Over every .py file under tests/
(subfolders included), a module-level function is a problem when

(a) a conftest.py that applies to its file, or a module of tests/ that its
    file imports, defines a module-level function of the same name: a copy
    (or a variant) shadowing the shared helper;
(b) another file defines a module-level function with the same name and the
    same body (docstrings aside): a copy nobody has moved to one place yet.

Two kinds of function are left out, and only these:
- tests (names starting with ``test_``): they are what the files are for,
  not helpers they share;
- a pytest fixture overriding a conftest.py fixture of the same name (check
  (a) only): pytest's documented way to give one module its own value under
  the shared name (test_vis_viser.py's ``vis`` is klampt.vis on the viser
  backend instead of the offscreen one); check (b) still catches an
  override that copies another file's."""
import ast
import posixpath

from conftest import python_trees


def _functions(tree):
    """{name: node} of the module-level functions of a parsed module, tests left out."""
    return {node.name: node for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("test_")}


def _is_fixture(node):
    """Whether a function is decorated with pytest.fixture (called or not)."""
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        if ast.unparse(target) in ("pytest.fixture", "fixture"):
            return True
    return False


def _body_key(node):
    """The function's body, docstring left out, as ast.dump (no line numbers)."""
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    return ast.dump(ast.Module(body=body, type_ignores=[]))


def _module_name(path, paths):
    """The name `path` is imported as: dotted from the first folder above it
    without an __init__.py (tests/ and tests/data are on sys.path)."""
    parts = path[:-3].split("/")
    n = len(parts) - 1  # parts[:n] are the folders
    while n > 0 and "/".join(parts[:n] + ["__init__.py"]) in paths:
        n -= 1
    return ".".join(parts[n:])


def _statements(body):
    """The statements of `body` and, recursively, of the blocks in them."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                yield from _statements(block)


def _imported(path, tree, modules, paths):
    """The files under tests/ (`modules`: {module name: path}) that the module
    at `path` imports, anywhere in it."""
    package = _module_name(path, paths).split(".")[:-1]
    found = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the package, or level - 1 packages up
                base = ".".join(package[:len(package) - node.level + 1] + ([node.module] if node.module else []))
            else:
                base = node.module
            names = [base] + ["%s.%s" % (base, a.name) for a in node.names]  # `from pkg import module`
        else:
            continue
        found.update(modules[name] for name in names if name in modules)
    found.discard(path)
    return found


def _conftests(path, paths):
    """The conftest.py files that apply to `path`: its folder's and its ancestors'."""
    out, folder = [], posixpath.dirname(path)
    while True:
        candidate = posixpath.join(folder, "conftest.py") if folder else "conftest.py"
        if candidate in paths and candidate != path:
            out.append(candidate)
        if not folder:
            return out
        folder = posixpath.dirname(folder)


def helper_problems(trees):
    """The problems (a) and (b) above in `trees` ({path below tests/: parsed
    module}), one string each, sorted."""
    functions = {path: _functions(tree) for path, tree in trees.items()}
    modules = {_module_name(path, trees): path for path in trees}
    problems = []
    for path in sorted(trees):
        conftests = _conftests(path, trees)
        shared = conftests + sorted(_imported(path, trees[path], modules, trees) - set(conftests))
        for name, node in functions[path].items():
            for other in shared:
                there = functions[other].get(name)
                if there is None or (other in conftests and _is_fixture(node) and _is_fixture(there)):
                    continue
                why = "a conftest.py over this file" if other in conftests else "imported here"
                problems.append("%s:%d: %s is also defined in %s:%d (%s): use that one"
                                % (path, node.lineno, name, other, there.lineno, why))
    copies = {}
    for path in sorted(functions):
        for name, node in functions[path].items():
            copies.setdefault((name, _body_key(node)), []).append("%s:%d" % (path, node.lineno))
    for (name, _), places in copies.items():
        if len(places) > 1:
            problems.append("%s is defined with the same body in %s: keep one, in conftest.py or a helper module"
                            % (name, ", ".join(places)))
    return sorted(problems)


def test_the_checker_finds_copies_of_shared_helpers():
    sources = {
        "conftest.py": "import pytest\n\ndef load_world(path):\n    return path\n\n"
                       "@pytest.fixture\ndef vis():\n    return 1\n",
        "helpers.py": "def run(c):\n    return c\n",
        "pkg/__init__.py": "",
        "pkg/conftest.py": "def client():\n    return 1\n",
        "pkg/cells.py": "def use(p):\n    return p\n",
        # (a): a variant of conftest's helper
        "test_a.py": "def load_world(path, quiet=False):\n    return None\n",
        # (a): a function named as one of a module it imports
        "test_b.py": "from helpers import other\n\ndef run(c):\n    return c + 1\n",
        # fine: a function of the same name in a file that does not import helpers.py
        "test_c.py": "def run(c):\n    return c * 2\n",
        # fine: a fixture overriding conftest's; (a): a plain function with a conftest fixture's name
        "test_d.py": "import pytest\n\n@pytest.fixture\ndef vis():\n    return 2\n",
        "test_e.py": "def vis():\n    return 3\n",
        # (a) through a subfolder's conftest and a relative import; fine: that conftest does not apply above
        "pkg/test_f.py": "from .cells import x\n\ndef client():\n    return 2\n\ndef use(p):\n    return None\n",
        "test_g.py": "def client():\n    return 3\n",
        # (b): the same body (docstrings aside) in two files; fine: another body, and tests
        "test_h.py": 'def helper(x):\n    """One."""\n    return x + 1\n\ndef test_x():\n    assert helper(1)\n',
        "data/script.py": 'def helper(x):\n    """Two."""\n    return x + 1\n',
        "test_i.py": "def helper(x):\n    return x - 1\n\ndef test_x():\n    assert helper(1)\n",
    }
    problems = helper_problems({path: ast.parse(text) for path, text in sources.items()})
    assert [p.split(":")[0] for p in problems if " is also defined in " in p] == [
        "pkg/test_f.py", "pkg/test_f.py", "test_a.py", "test_b.py", "test_e.py"], problems
    assert [p for p in problems if "same body" in p] == [
        "helper is defined with the same body in data/script.py:1, test_h.py:1: keep one, in conftest.py or a "
        "helper module"], problems
    assert len(problems) == 6, problems


def test_every_helper_is_defined_once():
    trees = python_trees()
    # The walk reaches the subfolders (a helper package, the reference scripts' modules).
    assert "compas_fab_backend/conftest.py" in trees and "data/goal_set_runs.py" in trees
    problems = helper_problems(trees)
    assert not problems, "\n".join(problems)
