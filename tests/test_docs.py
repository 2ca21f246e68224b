"""The user guide in docs/ builds with Sphinx, warnings as errors, from the docstrings."""
import pathlib
import subprocess
import sys

import pytest

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs"


@pytest.fixture(scope="module")
def built_docs(tmp_path_factory):
    pytest.importorskip("sphinx", reason="sphinx is in the test extra")
    out = tmp_path_factory.mktemp("html")
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                          str(DOCS), str(out)], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    return out


def test_guide_pages_are_built(built_docs):
    for page in ("index", "install", "quickstart", "migrating", "threading", "differences"):
        assert (built_docs / f"{page}.html").is_file(), page


def test_module_pages_carry_the_docstrings(built_docs):
    math_page = (built_docs / "api" / "math.html").read_text()
    assert 'id="klampt.math.so3.rotation_vector"' in math_page
    robotsim_page = (built_docs / "api" / "robotsim.html").read_text()
    assert 'id="klampt.robotsim.RobotModel.getConfig"' in robotsim_page
