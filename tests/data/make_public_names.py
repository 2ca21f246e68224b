# Run with a reference python: records the public names of the installed klampt,
# the `robotsim` classes with their members and, per module, the names a star
# import gives that are Klamp't's own (its functions, classes and constants, the
# `robotsim` names it re-exports, its klampt submodules; not third-party names).
# A module that fails to import there is read from its source instead.
# Usage: python make_public_names.py public_names_<version>.json
import ast
import importlib
import inspect
import io
import json
import pkgutil
import sys
import types
import warnings
from contextlib import redirect_stdout

import klampt
from klampt import robotsim

warnings.simplefilter("ignore")


def top_level_assignments(path):
    """Names bound at the top level of a module's source: its own definitions."""
    tree = ast.parse(open(path).read())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.id if hasattr(node, "id") else node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for leaf in ast.walk(target):
                    if isinstance(leaf, ast.Name):
                        names.add(leaf.id)
    return {n for n in names if not n.startswith("_")}


def own_names(mod):
    """The public names of an imported module that belong to klampt."""
    defined = top_level_assignments(mod.__file__) if getattr(mod, "__file__", "").endswith(".py") else set()
    out = []
    for name in dir(mod):
        if name.startswith("_"):
            continue
        obj = getattr(mod, name)
        if isinstance(obj, types.ModuleType):
            keep = obj.__name__.startswith("klampt")
        elif inspect.isclass(obj) or inspect.isroutine(obj):
            keep = str(getattr(obj, "__module__", "")).startswith("klampt")
        else:
            keep = name in defined
        if keep:
            out.append(name)
    return sorted(out)


def main(out_path):
    result = {"version": klampt.__version__, "robotsim": {}, "modules": {}, "read_from_source": []}
    for name in dir(robotsim):
        obj = getattr(robotsim, name)
        if name.startswith("_"):
            continue
        if inspect.isclass(obj) and obj.__module__.startswith("klampt"):
            result["robotsim"][name] = sorted(n for n in dir(obj) if not n.startswith("_") and n != "thisown")
    result["modules"]["klampt"] = own_names(klampt)
    for info in pkgutil.walk_packages(klampt.__path__, "klampt.", onerror=lambda n: None):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        try:
            with redirect_stdout(io.StringIO()):
                mod = importlib.import_module(info.name)
        except BaseException:
            spec = info.module_finder.find_spec(info.name.rsplit(".", 1)[-1])
            result["modules"][info.name] = sorted(top_level_assignments(spec.origin))
            result["read_from_source"].append(info.name)
            continue
        result["modules"][info.name] = own_names(mod)
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
