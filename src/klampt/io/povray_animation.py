"""Renders the frames that :func:`klampt.io.povray.render_to_animation`
wrote (``<folder>/0.pov``, ``1.pov``, ...) to PNG images with POV-Ray, then
joins them into a video, ``<folder>/vid.AVI`` (needs OpenCV: ``pip install
opencv-python-headless``)::

    properties = {}
    for t in times:
        ...  # move the robot
        povray.render_to_animation(properties, 'frames')
        povray.to_povray(vis, world, properties)
    povray_animation.render_animation('frames', dur=0.1)
"""
import json
import multiprocessing
import os
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor


def _frame_commands(folder):
    """{scene file: povray command} of the folder's frames: the commands
    recorded in cmd.dat (the last one per frame), else plain ``povray
    <frame>.pov`` for each numbered scene file."""
    cmds = {}
    record = os.path.join(folder, 'cmd.dat')
    if os.path.exists(record):
        with open(record) as f:
            for line in f:
                if line.strip():
                    cmd = json.loads(line)
                    cmds[os.path.basename(cmd[1])] = cmd
    else:
        for f in os.listdir(folder):
            if re.fullmatch(r'[0-9]+\.pov', f):
                cmds[f] = ['povray', f]
    return dict(sorted(cmds.items(), key=lambda kv: int(kv[0][:-4]) if kv[0][:-4].isdigit() else -1))


def _to_png(cmd, scene):
    """The command rendering ``scene`` (a name in the working folder) to
    ``<scene>.png``."""
    cmd = [c for c in cmd if not (c.startswith('+O') or c.startswith('Output_File_Type'))]
    cmd[1] = scene
    return cmd + ['Output_File_Type=N', '+O%s.png' % scene[:-4]]


def worker(cmd, cwd=None):
    """Runs one povray command (a list of arguments) in ``cwd``, its output
    discarded.

    Raises:
        IOError: if POV-Ray is missing or fails (with its messages).
    """
    try:
        process = subprocess.run(cmd, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE)
    except FileNotFoundError as e:
        raise IOError("POV-Ray is not installed: the '%s' program was not found (apt-get install povray)"
                      % cmd[0]) from e
    if process.returncode:
        raise IOError("POVRay rendering of %s failed with the following error: %s"
                      % (cmd[1], process.stderr.decode('utf-8', 'replace')))


def render_animation(folder, dur=1., parallel=True):
    """Renders every frame of ``folder`` that has no PNG yet
    (``<n>.pov`` to ``<n>.png``, with the size and quality given when the
    frame was written), then, unless it exists, writes the video
    ``folder/vid.AVI`` (DIVX), each frame lasting ``dur`` seconds.

    Args:
        folder (str): the folder :func:`klampt.io.povray.render_to_animation`
            filled.
        dur (float): seconds per frame.
        parallel (bool): render frames in parallel, on half the CPUs.

    Raises:
        FileNotFoundError: if the folder does not exist.
        ValueError: if it holds no frames, or ``dur`` <= 0.
        IOError: if POV-Ray fails on a frame.
        ImportError: if OpenCV, which writes the video, is not installed
            (the frames are rendered first).
    """
    if not os.path.isdir(folder):
        raise FileNotFoundError("render_animation: no folder %s" % folder)
    if not dur > 0:
        raise ValueError("render_animation: dur must be > 0, got %r" % (dur,))
    cmds = _frame_commands(folder)
    if not cmds:
        raise ValueError("render_animation: %s holds no frames (0.pov, 1.pov, ...)" % folder)
    frames, todo = [], []
    for scene, cmd in cmds.items():
        frame = os.path.join(folder, scene[:-4] + '.png')
        if not os.path.exists(frame):
            todo.append(_to_png(cmd, scene))
        frames.append(frame)
    if parallel and len(todo) > 1:
        with ThreadPoolExecutor(max(1, multiprocessing.cpu_count() // 2)) as pool:
            list(pool.map(lambda cmd: worker(cmd, folder), todo))
    else:
        for cmd in todo:
            worker(cmd, folder)

    video = os.path.join(folder, 'vid.AVI')
    if os.path.exists(video):
        return
    try:
        import cv2
    except ImportError as e:
        raise ImportError("render_animation writes the video with OpenCV: pip install opencv-python-headless "
                          "(the frames are in %s)" % folder) from e
    height, width = cv2.imread(frames[0]).shape[:2]
    out = cv2.VideoWriter(video, cv2.VideoWriter_fourcc(*'DIVX'), 1.0 / dur, (width, height))
    try:
        for f in frames:
            out.write(cv2.imread(f))
    finally:
        out.release()
