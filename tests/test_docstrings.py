"""Every public name of the package has a docstring: modules' classes and
functions, the classes' methods and properties, and the bound extension's
classes with all their members (inherited docstrings count, as in the docs)."""
import importlib
import inspect
import pkgutil

import klampt

# Modules that need an optional package the test extra does not install, and
# the reference modules that are deliberately unavailable (they raise ImportError).
OPTIONAL = {"klampt.io.open3d_convert", "klampt.plan.kinetrajopt", "klampt.plan.robotoptimize"}


def public_modules():
    names = ["klampt._robotsim"]
    for info in pkgutil.walk_packages(klampt.__path__, "klampt."):
        parts = info.name.split(".")[1:]
        if any(p.startswith("_") for p in parts) or info.name in OPTIONAL:
            continue
        names.append(info.name)
    return names


def documented(obj):
    doc = obj.__doc__ if isinstance(obj, property) else inspect.getdoc(obj)
    return bool(doc and doc.strip())


def undocumented_names():
    missing = []
    seen = set()
    for module_name in public_modules():
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            if name.startswith("_") or id(obj) in seen:
                continue
            defined_here = getattr(obj, "__module__", None) == module_name
            if not defined_here:
                continue
            seen.add(id(obj))
            qual = f"{module_name}.{name}"
            if inspect.isclass(obj):
                if not documented(obj):
                    missing.append(qual)
                for attr in vars(obj):
                    if attr.startswith("_"):
                        continue
                    raw = inspect.getattr_static(obj, attr)
                    if isinstance(raw, (property, staticmethod, classmethod)) or callable(raw):
                        member = raw if isinstance(raw, property) else getattr(obj, attr)
                        if not documented(member):
                            missing.append(f"{qual}.{attr}")
            elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
                if not documented(obj):
                    missing.append(qual)
    return missing


def test_every_public_name_has_a_docstring():
    missing = undocumented_names()
    assert not missing, f"{len(missing)} public names without a docstring: {missing}"


def test_the_walk_finds_the_bound_members():
    # The check above is only as good as its walk: it must see the
    # extension's methods and properties and the Python packages' functions.
    modules = public_modules()
    assert "klampt.model.trajectory" in modules and "klampt.math.so3" in modules
    robot = vars(klampt._robotsim.RobotModel)
    assert "getConfig" in robot and documented(klampt._robotsim.RobotModel.getConfig)
