"""The stubs type the main API precisely: mypy checks a user-style script
(tests/data/typed_user_script.py) whose assert_type calls fail when a stub
says typing.Any or a bare list where the API returns something definite, or
rejects an argument a user passes (a list, a numpy array). The script also
runs, so what it asserts is what the library does."""
import os
import subprocess
import sys

from conftest import PROJECT_DATA, REPO

SCRIPT = os.path.join(REPO, "tests", "data", "typed_user_script.py")
WORLD = os.path.join(PROJECT_DATA, "worlds", "arm_table.xml")


def test_user_script_type_checks(tmp_path):
    # The package is read from src/ (its .py files, the committed _robotsim.pyi
    # and py.typed), as a user's mypy reads an installed klampt.
    env = dict(os.environ, MYPYPATH=os.path.join(REPO, "src"))
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--follow-imports=silent", "--no-incremental", "--cache-dir",
         str(tmp_path / "cache"), "--python-version", "3.11", SCRIPT],
        capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Success" in result.stdout


def test_user_script_runs(tmp_path):
    result = subprocess.run([sys.executable, SCRIPT, WORLD], capture_output=True, text=True, cwd=str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("ok ")


def test_stubs_of_the_extension_say_no_typing_any():
    # Every binding names what it takes and returns (typed_args.h,
    # plan_bindings.h): a py::object parameter or return shows up here.
    for stub in ("_robotsim.pyi", os.path.join("plan", "motionplanning.pyi")):
        with open(os.path.join(REPO, "src", "klampt", stub)) as f:
            lines = [line.strip() for line in f if "typing.Any" in line]
        assert lines == [], (stub, lines)
