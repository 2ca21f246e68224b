"""Generates the type stubs of the extension (src/klampt/_robotsim.pyi) from
the installed klampt with pybind11-stubgen, or checks that the committed
stubs are current.

    python scripts/gen_stubs.py           # rewrite src/klampt/_robotsim.pyi
    python scripts/gen_stubs.py --check   # exit 1 (with a diff) if stale

The METH_FASTCALL methods (cpp/bindings/fast_call.h) are not pybind11
functions: their docstrings open with the typed signature as pybind11 writes
it, and the stub generator is taught to read it (it otherwise takes the
untyped text signature).
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(REPO, "src", "klampt", "_robotsim.pyi")


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
    """The stub text pybind11-stubgen writes for the installed extension."""
    with tempfile.TemporaryDirectory() as out:
        # Run from the output folder so that the repository's src/ does not
        # shadow the installed package.
        subprocess.run([sys.executable, os.path.abspath(__file__), "--stubgen", out], check=True, cwd=out,
                       stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "klampt", "_robotsim.pyi")) as f:
            return f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    parser.add_argument("--stubgen", metavar="DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.stubgen:
        run_stubgen(args.stubgen)
        return 0
    text = generate()
    if not args.check:
        with open(STUBS, "w") as f:
            f.write(text)
        return 0
    with open(STUBS) as f:
        committed = f.read()
    if committed == text:
        return 0
    sys.stdout.writelines(difflib.unified_diff(committed.splitlines(True), text.splitlines(True),
                                               "committed " + os.path.relpath(STUBS, REPO), "generated"))
    print("\nThe stubs are stale: run python scripts/gen_stubs.py and commit the result.")
    return 1


if __name__ == "__main__":
    sys.exit(main())
