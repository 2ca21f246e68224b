#!/usr/bin/env bash
# Sets up everything klampt needs on a Debian/Ubuntu machine, then runs the
# demo or the test suite:   scripts/dev.sh demo | test [pytest args...]
#
# Installs the system packages that are missing (ODE, a C++ compiler,
# pkg-config, venv; Mesa's EGL for headless rendering, the X libraries of
# Qt windows, a headless Chromium for the web viewer tests, POV-Ray), creates
# .venv with Python 3.11 (or python3), installs the package with its test
# dependencies, and runs the requested target.
set -euo pipefail

target="${1:-}"
case "$target" in
  demo|test) shift ;;
  *) echo "usage: $0 demo|test [args...]" >&2; exit 2 ;;
esac

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"

# System packages, only those missing.
need=()
dpkg -s libode-dev >/dev/null 2>&1 || need+=(libode-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v g++ >/dev/null 2>&1 || need+=(g++)
python=$(command -v python3.11 || command -v python3)
"$python" -c "import venv, ensurepip" >/dev/null 2>&1 || need+=(python3-venv)
# klampt.vis renders offscreen through EGL (Mesa llvmpipe without a GPU).
# OSMesa is the other offscreen context (PYOPENGL_PLATFORM=osmesa), tested as well.
for pkg in libegl1 libegl-mesa0 libgl1-mesa-dri libgbm1 libglvnd0 libgl1 libosmesa6; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# Desktop windows (GLFW) are tested under a virtual X server, with clicks and
# keys sent through its XTest extension.
command -v xvfb-run >/dev/null 2>&1 || need+=(xvfb xauth)
dpkg -s libxtst6 >/dev/null 2>&1 || need+=(libxtst6)
# Qt windows (the xcb platform plugin of PyQt6 and PySide6) load these; without them Qt aborts.
for pkg in libxcb1 libx11-xcb1 libxcb-cursor0 libxcb-glx0 libxcb-icccm4 libxcb-image0 libxcb-keysyms1 \
    libxcb-randr0 libxcb-render0 libxcb-render-util0 libxcb-shape0 libxcb-shm0 libxcb-sync1 libxcb-util1 \
    libxcb-xfixes0 libxcb-xkb1 libxkbcommon0 libxkbcommon-x11-0 libfontconfig1 libglib2.0-0 libdbus-1-3; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# The web viewer (HTML export, Jupyter widget) is tested in a headless browser.
command -v chromium-headless-shell >/dev/null 2>&1 || command -v chromium >/dev/null 2>&1 \
  || need+=(chromium-headless-shell)
# The Rerun viewer (rerun-sdk) draws through Vulkan: Mesa's lavapipe without a GPU.
for pkg in libvulkan1 mesa-vulkan-drivers; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
# klampt.io.povray renders with POV-Ray.
command -v povray >/dev/null 2>&1 || need+=(povray)
# klampt.io.ros talks to ROS 1 (Debian's roscore, rospy, messages and tf2).
ros_pkgs=(ros-core python3-rospy python3-std-msgs python3-geometry-msgs python3-sensor-msgs python3-nav-msgs
  python3-trajectory-msgs python3-shape-msgs python3-tf2-ros)
for pkg in "${ros_pkgs[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}"
fi

# Python environment and the package: the wheel scripts/build_wheel.sh
# builds from source (it carries its native libraries), with the test extras.
[ -x .venv/bin/python ] || "$python" -m venv .venv
# The venv sees the ROS modules of the system Python (and only them: the
# system's numpy and others stay hidden) through a folder of links.
ros_site="$repo/.venv/ros-dist-packages"
mkdir -p "$ros_site"
for mod in rospy rosgraph roslib rospkg genpy genmsg catkin catkin_pkg pyparsing roscpp rosgraph_msgs std_msgs \
    geometry_msgs sensor_msgs nav_msgs trajectory_msgs shape_msgs actionlib actionlib_msgs tf2_py tf2_ros tf2_msgs; do
  ln -sfn "/usr/lib/python3/dist-packages/$mod" "$ros_site/$mod"
done
echo "$ros_site" > "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')/ros_debian.pth"
.venv/bin/python -m pip install -q --upgrade pip
# The tests' build also checks that the C++ compiles without warnings.
if [ "$target" = test ]; then export KLAMPT_WARNINGS_AS_ERRORS=ON; fi
bash scripts/build_wheel.sh .venv/bin/python
wheel="$(ls wheelhouse/klampt-*.whl)"
.venv/bin/python -m pip install -q --force-reinstall --no-deps "$wheel"
.venv/bin/python -m pip install -q "$wheel[test]"

# Run from outside the source tree so the installed package is the one tested.
case "$target" in
  demo) exec .venv/bin/python examples/demo.py "$@" ;;
  test) cd tests && exec ../.venv/bin/python -m pytest -q "$@" ;;
esac
