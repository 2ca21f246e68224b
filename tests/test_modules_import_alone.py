"""Every module of the package imports on its own in a fresh interpreter: no
import cycle makes one module need another to be imported first. A module
may only fail for an optional dependency that is not installed.  Nor do the
modules of klampt import each other in a loop, even from inside functions,
where a fresh interpreter would not notice it."""
import ast
import concurrent.futures
import os
import pkgutil
import subprocess
import sys

import klampt
from conftest import REPO

# Packages of the optional extras (vis, jupyter, compas_fab, distributed, kinetrajopt) and torch.
OPTIONAL = {"OpenGL", "glfw", "PyQt5", "PyQt6", "PySide2", "PySide6", "IPython", "ipywidgets", "anywidget",
            "compas", "compas_fab", "compas_robots", "pybullet", "dask", "distributed", "open3d",
            "cvxpy", "torch"}
# Reference modules that are deliberately unavailable: importing them raises
# ImportError saying why (docs/differences.md).
UNAVAILABLE = set()

PROBE = """
import importlib, sys
optional = set(sys.argv[2].split(","))
try:
    importlib.import_module(sys.argv[1])
except ImportError as e:
    # Missing itself, or named by the module's own message.
    if (e.name or "").split(".")[0] not in optional and not any("'%s'" % o in str(e) for o in optional):
        raise
    print("optional dependency missing:", e)
"""


def modules():
    names = ["klampt"]
    for info in pkgutil.walk_packages(klampt.__path__, "klampt."):
        if info.name not in UNAVAILABLE:
            names.append(info.name)
    return sorted(names)


def import_alone(name):
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    r = subprocess.run([sys.executable, "-c", PROBE, name, ",".join(sorted(OPTIONAL))], capture_output=True,
                       text=True, cwd=os.path.dirname(os.path.abspath(__file__)), env=env, timeout=120)
    return name, r.returncode, r.stderr.strip().splitlines()[-1:] if r.returncode else []


def test_every_module_imports_in_a_fresh_interpreter():
    names = modules()
    assert "klampt.model._timing" in names and "klampt.model.trajectory" in names
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        failed = [(n, err) for n, code, err in pool.map(import_alone, names) if code != 0]
    assert not failed, "\n".join("%s: %s" % (n, " ".join(err)) for n, err in failed)


def test_unavailable_modules_say_why():
    for name in sorted(UNAVAILABLE):
        _, code, err = import_alone(name)
        assert code != 0 and err and "ImportError" in err[0] and "not available" in err[0], (name, err)


def package_imports(root, package):
    """{module: modules it imports} for the modules of a source tree (root
    holds package's __init__.py), named relative to package, counting the
    imports at any level of the code, inside functions too."""
    files = {}
    for dirpath, _, filenames in os.walk(root):
        for f in filenames:
            if f.endswith(".py"):
                rel = os.path.relpath(os.path.join(dirpath, f), root)[:-3].replace(os.sep, ".")
                files[rel[:-len("__init__")].rstrip(".") if rel.endswith("__init__") else rel] = os.path.join(dirpath, f)
    graph = {}
    for name, path in files.items():
        here = (package + "." + name).rstrip(".").split(".")
        if not path.endswith("__init__.py"):
            here = here[:-1]
        with open(path) as f:
            tree = ast.parse(f.read(), path)
        targets = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = ".".join(here[:len(here) - node.level + 1] if node.level else [])
                mod = ".".join(p for p in (base, node.module) if p)
                # "from p import m" names the module m only, not the package p;
                # "from p import name" names p
                for a in node.names:
                    sub = "%s.%s" % (mod, a.name)
                    targets.add(sub if sub.startswith(package + ".") and sub[len(package) + 1:] in files else mod)
            elif isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
        graph[name] = set()
        for t in targets:
            if t == package or not t.startswith(package + "."):
                continue
            rel = t[len(package) + 1:]
            # "from .m import name" names m
            while rel and rel not in files:
                rel = rel.rpartition(".")[0]
            if rel and rel != name:
                graph[name].add(rel)
    return graph


def import_cycles(graph):
    """The import loops of graph, each as a path that ends where it starts."""
    cycles = {}
    for start in sorted(graph):
        paths = [[start]]
        seen = set()
        while paths:
            path = paths.pop(0)
            for nxt in sorted(graph[path[-1]]):
                if nxt == start:
                    cycles.setdefault(frozenset(path), path + [start])
                elif nxt not in seen:
                    seen.add(nxt)
                    paths.append(path + [nxt])
    return sorted(cycles.values())


def test_no_import_cycles_in_klampt():
    graph = package_imports(os.path.join(REPO, "src", "klampt"), "klampt")
    assert {"model._timing", "model.trajectory", "model.create.primitives", "vis.backends.base", "io.loader"} <= set(graph)
    # types imports trajectory only inside its functions; "from . import queries" names the module only
    assert "model.trajectory" in graph["model.types"] and "model._timing" in graph["model.trajectory"]
    assert graph["batch"] == {"batch.queries", "batch.distributed"}
    # the vis backends read vis._state, which imports neither visualization nor them
    assert "vis.visualization" not in graph["vis.backends.glfw_window"] | graph["vis._state"]
    cycles = import_cycles(graph)
    assert not cycles, "\n".join(" -> ".join(c) for c in cycles)


def test_the_cycle_check_finds_a_cycle(tmp_path):
    # a -> b only inside a function, b -> c -> a at module level, d clean
    (tmp_path / "__init__.py").write_text("")
    (tmp_path / "a.py").write_text("def f():\n    from .b import g\n    return g\n")
    (tmp_path / "b.py").write_text("import klampt.model.c\n\ndef g():\n    pass\n")
    (tmp_path / "c.py").write_text("from klampt.model import a\nfrom . import d\n")
    (tmp_path / "d.py").write_text("import os\nfrom klampt.math import vectorops\n")
    graph = package_imports(str(tmp_path), "klampt.model")
    assert graph == {"": set(), "a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert import_cycles(graph) == [["a", "b", "c", "a"]]
    graph["c"].discard("a")
    assert import_cycles(graph) == []
    # in a subpackage, "from . import f" names f, not the package's __init__
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "__init__.py").write_text("from .e import h\n")
    (tmp_path / "sub" / "e.py").write_text("from . import f\n\ndef h():\n    pass\n")
    (tmp_path / "sub" / "f.py").write_text("from .. import d\nfrom klampt.model.sub import e\n")
    graph = package_imports(str(tmp_path), "klampt.model")
    assert (graph["sub"], graph["sub.e"], graph["sub.f"]) == ({"sub.e"}, {"sub.f"}, {"d", "sub.e"})
    assert import_cycles(graph) == [["a", "b", "c", "a"], ["sub.e", "sub.f", "sub.e"]]
