"""Every public name of the package has a docstring: modules' classes and
functions, the classes' methods and properties, and the bound extension's
classes with all their members (inherited docstrings count, as in the docs).
The signature lines pybind11 writes into a bound method's docstring are not
text: a docstring must say more than them."""
import importlib
import inspect
import os
import pkgutil
import re

import klampt

# Modules that need an optional package the test extra does not install.
OPTIONAL = {"klampt.io.open3d_convert", "klampt.math.autodiff.pytorch"}


def public_modules():
    names = ["klampt._robotsim"]
    for info in pkgutil.walk_packages(klampt.__path__, "klampt."):
        parts = info.name.split(".")[1:]
        if any(p.startswith("_") for p in parts) or info.name in OPTIONAL:
            continue
        names.append(info.name)
    return names


# Bound methods whose docstring is still only pybind11's signature: the list
# may only shrink (a method documented since must leave it).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "signature_only_methods.txt")) as _f:
    SIGNATURE_ONLY = frozenset(line.strip() for line in _f if line.strip())


def text_beyond_signature(doc, name):
    """The docstring without the signature lines pybind11 writes for `name`
    ("name(self: ...) -> ...", numbered for overloads)."""
    signature = re.compile(r"^(\d+\. )?%s\(.*\)( -> .*)?$" % re.escape(name))
    lines = [line.strip() for line in (doc or "").splitlines()]
    return "\n".join(line for line in lines if line and line != "Overloaded function." and not signature.match(line))


def documented(obj, name=None):
    doc = obj.__doc__ if isinstance(obj, property) else inspect.getdoc(obj)
    return bool(text_beyond_signature(doc, name or getattr(obj, "__name__", "")))


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
                        if not documented(member, attr):
                            missing.append(f"{qual}.{attr}")
            elif inspect.isfunction(obj) or inspect.isbuiltin(obj):
                if not documented(obj):
                    missing.append(qual)
    return missing


def test_every_public_name_has_a_docstring():
    missing = set(undocumented_names())
    new = sorted(missing - SIGNATURE_ONLY)
    assert not new, f"{len(new)} public names without a docstring: {new}"
    since = sorted(SIGNATURE_ONLY - missing)
    assert not since, f"documented now, remove from data/signature_only_methods.txt: {since}"


def test_a_pybind11_signature_alone_is_not_a_docstring():
    class Bound:
        __name__ = "clone"
        __doc__ = "clone(self: klampt._robotsim.Appearance) -> klampt._robotsim.Appearance\n"
    assert not documented(Bound())
    Bound.__doc__ += "\nA deep copy of the appearance.\n"
    assert documented(Bound())
    Bound.__doc__ = "Overloaded function.\n\n1. clone(self: A) -> A\n\n2. clone(self: A, deep: bool) -> A\n"
    assert not documented(Bound())


def test_the_walk_finds_the_bound_members():
    # The check above is only as good as its walk: it must see the
    # extension's methods and properties and the Python packages' functions.
    modules = public_modules()
    assert "klampt.model.trajectory" in modules and "klampt.math.so3" in modules
    robot = vars(klampt._robotsim.RobotModel)
    assert "getConfig" in robot and documented(klampt._robotsim.RobotModel.getConfig)
