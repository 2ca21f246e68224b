"""Generates the type stubs of the extension (src/klampt/_robotsim.pyi) from
the installed klampt with pybind11-stubgen, or checks that the committed
stubs are current.

    python scripts/gen_stubs.py           # rewrite src/klampt/_robotsim.pyi
    python scripts/gen_stubs.py --check   # exit 1 (with a diff) if stale
"""
import argparse
import difflib
import os
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STUBS = os.path.join(REPO, "src", "klampt", "_robotsim.pyi")


def generate():
    """The stub text pybind11-stubgen writes for the installed extension."""
    with tempfile.TemporaryDirectory() as out:
        # Run from the output folder so that the repository's src/ does not
        # shadow the installed package.
        subprocess.run([sys.executable, "-m", "pybind11_stubgen", "klampt._robotsim", "-o", out,
                        "--exit-code"], check=True, cwd=out, stdout=subprocess.DEVNULL)
        with open(os.path.join(out, "klampt", "_robotsim.pyi")) as f:
            return f.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args()
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
