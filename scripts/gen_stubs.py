"""Generates the type stubs of the extension (src/klampt/_robotsim.pyi, and
one stub per submodule of it next to the Python module that re-exports it)
from the installed klampt with pybind11-stubgen, or checks that the committed
stubs are current.

    python scripts/gen_stubs.py           # rewrite the stubs
    python scripts/gen_stubs.py --check   # exit 1 (with a diff) if stale

The METH_FASTCALL methods (cpp/bindings/fast_call.h) are not pybind11
functions: their docstrings open with the typed signature as pybind11 writes
it, and the stub generator is taught to read it (it otherwise takes the
untyped text signature).
"""
import argparse
import difflib
import importlib
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(REPO, "src", "klampt", "_robotsim.pyi")
# Submodules of the extension -> the Python module that re-exports each.
SUBMODULES = {"motionplanning": "klampt.plan.motionplanning"}


def python_additions(module_name, native_text):
    """Stubs of the callables a re-exporting Python module defines itself
    (its deprecated aliases, typed as the functions they call)."""
    module = importlib.import_module(module_name)
    out = []
    for name in sorted(vars(module)):
        value = getattr(module, name)
        if name.startswith("_") or not callable(value) or getattr(value, "__module__", "") != module_name:
            continue
        if ("def %s(" % name) in native_text or ("class %s" % name) in native_text:
            continue
        wrapped = getattr(value, "__wrapped__", None)
        if wrapped is not None and ("def %s(" % wrapped.__name__) in native_text:
            # An alias of a native function takes its signature.
            out.append("%s = %s\n" % (name, wrapped.__name__))
            continue
        doc = (value.__doc__ or "").strip().replace('"', "'")
        out.append('def %s(*args, **kwargs) -> typing.Any:\n    """\n    %s\n    """\n' % (name, doc))
    return "".join(out)


def run_stubgen(out):
    """Runs pybind11-stubgen on klampt._robotsim into `out`, reading the typed
    signature that opens a fast-call method's docstring."""
    import pybind11_stubgen
    from pybind11_stubgen.parser.mixins.parse import ExtractSignaturesFromPybind11Docstrings
    from pybind11_stubgen.structs import Identifier

    untyped = ExtractSignaturesFromPybind11Docstrings.handle_function

    def handle_function(self, path, func):
        doc = getattr(func, "__doc__", None)
        if getattr(func, "__text_signature__", None) and doc and doc.startswith(path[-1] + "("):
            parsed = self.parse_function_docstring(Identifier(path[-1]), doc.splitlines())
            if parsed:
                return parsed
        return untyped(self, path, func)

    ExtractSignaturesFromPybind11Docstrings.handle_function = handle_function
    pybind11_stubgen.main(["klampt._robotsim", "-o", out, "--exit-code"])


def generate():
    """{stub path: text} for the installed extension."""
    with tempfile.TemporaryDirectory() as out:
        # Run from the output folder so that the repository's src/ does not
        # shadow the installed package.
        subprocess.run([sys.executable, os.path.abspath(__file__), "--stubgen", out], check=True, cwd=out,
                       stdout=subprocess.DEVNULL)
        package = os.path.join(out, "klampt", "_robotsim")
        if not os.path.isdir(package):
            with open(os.path.join(out, "klampt", "_robotsim.pyi")) as f:
                return {STUBS: f.read()}
        with open(os.path.join(package, "__init__.pyi")) as f:
            text = f.read()
        stubs = {}
        for sub, module_name in SUBMODULES.items():
            parent = module_name.rsplit(".", 1)[0]
            text = text.replace("from . import %s\n" % sub, "from %s import %s as %s\n" % (parent, sub, sub))
            with open(os.path.join(package, sub + ".pyi")) as f:
                native = f.read()
            path = os.path.join(REPO, "src", *module_name.split(".")) + ".pyi"
            stubs[path] = native + python_additions(module_name, native)
        stubs[STUBS] = text
        return stubs


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--stubgen", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stubgen:
        run_stubgen(args.stubgen)
        return 0
    stubs = generate()
    if not args.check:
        for path, text in stubs.items():
            with open(path, "w") as f:
                f.write(text)
        return 0
    stale = False
    for path, text in stubs.items():
        committed = ""
        if os.path.exists(path):
            with open(path) as f:
                committed = f.read()
        if committed != text:
            stale = True
            sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                                       "committed " + os.path.relpath(path, REPO), "generated"))
    if stale:
        print("\nThe stubs are stale: run python scripts/gen_stubs.py and commit the result.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
