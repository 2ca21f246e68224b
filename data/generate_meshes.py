#!/usr/bin/env python3
"""Generate the triangle meshes (OFF format) used by the robots, objects,
terrains and worlds in this data folder.

Pure Python, no dependencies, deterministic: running it twice produces
byte-identical files.  Usage::

    python data/generate_meshes.py            # writes data/meshes/*.off
    python data/generate_meshes.py OUTDIR     # writes OUTDIR/*.off

All units are metres.  Every mesh is a closed, consistently oriented
(counter-clockwise seen from outside, i.e. outward normals) triangle mesh, so
volume-based mass properties can be computed from it.  Meshes made of several
disjoint pieces (table, gripper palm) are closed piecewise.
"""

import math
import os
import sys

SEGMENTS = 24  # angular resolution of cylinders, spheres and capsules


# ---------------------------------------------------------------------------
# Mesh container and basic operations
# ---------------------------------------------------------------------------

class Mesh:
    def __init__(self, verts=None, tris=None):
        self.verts = list(verts or [])
        self.tris = list(tris or [])

    def merge(self, other):
        off = len(self.verts)
        self.verts.extend(other.verts)
        self.tris.extend((a + off, b + off, c + off) for (a, b, c) in other.tris)
        return self

    def translated(self, t):
        return Mesh([(x + t[0], y + t[1], z + t[2]) for (x, y, z) in self.verts],
                    self.tris)

    def mapped(self, f):
        """Apply a proper rotation / axis permutation f(x,y,z)->(x',y',z').
        f must preserve orientation (determinant +1) to keep normals outward."""
        return Mesh([f(*v) for v in self.verts], self.tris)


def _fmt(x):
    # fixed-precision formatting; avoid "-0"
    s = "%.6f" % x
    if s.startswith("-") and float(s) == 0.0:
        s = s[1:]
    s = s.rstrip("0").rstrip(".") if "." in s else s
    return s if s not in ("", "-") else "0"


def write_off(mesh, path):
    lines = ["OFF", "%d %d 0" % (len(mesh.verts), len(mesh.tris))]
    for v in mesh.verts:
        lines.append(" ".join(_fmt(c) for c in v))
    for t in mesh.tris:
        lines.append("3 %d %d %d" % t)
    with open(path, "w", newline="\n") as f:
        f.write("\n".join(lines) + "\n")


# ---------------------------------------------------------------------------
# Primitive generators
# ---------------------------------------------------------------------------

def box(xmin, ymin, zmin, xmax, ymax, zmax):
    """Axis-aligned box given by its min and max corners."""
    v = [(x, y, z) for x in (xmin, xmax) for y in (ymin, ymax) for z in (zmin, zmax)]
    # vertex index = 4*ix + 2*iy + iz
    quads = [
        (0, 1, 3, 2),  # -x
        (4, 6, 7, 5),  # +x
        (0, 4, 5, 1),  # -y
        (2, 3, 7, 6),  # +y
        (0, 2, 6, 4),  # -z
        (1, 5, 7, 3),  # +z
    ]
    tris = []
    for a, b, c, d in quads:
        tris.append((a, b, c))
        tris.append((a, c, d))
    return Mesh(v, tris)


def centered_box(sx, sy, sz, center=(0.0, 0.0, 0.0)):
    cx, cy, cz = center
    return box(cx - sx / 2, cy - sy / 2, cz - sz / 2, cx + sx / 2, cy + sy / 2, cz + sz / 2)


def cylinder(radius, z0, z1, segments=SEGMENTS):
    """Closed cylinder along +z from z0 to z1 (z1 > z0), axis through x=y=0."""
    verts = []
    for z in (z0, z1):
        for i in range(segments):
            a = 2.0 * math.pi * i / segments
            verts.append((radius * math.cos(a), radius * math.sin(a), z))
    cb = len(verts)
    verts.append((0.0, 0.0, z0))
    ct = len(verts)
    verts.append((0.0, 0.0, z1))
    tris = []
    n = segments
    for i in range(n):
        j = (i + 1) % n
        b0, b1, t0, t1 = i, j, n + i, n + j
        tris.append((b0, b1, t1))
        tris.append((b0, t1, t0))
        tris.append((cb, b1, b0))  # bottom cap, normal -z
        tris.append((ct, t0, t1))  # top cap, normal +z
    return Mesh(verts, tris)


def _revolve(profile, segments=SEGMENTS):
    """Surface of revolution about z.  profile is a list of (r, z) points from
    the bottom pole (r == 0) to the top pole (r == 0), z non-decreasing."""
    assert profile[0][0] == 0.0 and profile[-1][0] == 0.0
    verts = [(0.0, 0.0, profile[0][1])]
    rings = profile[1:-1]
    for r, z in rings:
        for i in range(segments):
            a = 2.0 * math.pi * i / segments
            verts.append((r * math.cos(a), r * math.sin(a), z))
    top = len(verts)
    verts.append((0.0, 0.0, profile[-1][1]))
    n = segments
    tris = []
    # bottom fan
    for i in range(n):
        j = (i + 1) % n
        tris.append((0, 1 + j, 1 + i))
    # bands
    for k in range(len(rings) - 1):
        lo = 1 + k * n
        hi = 1 + (k + 1) * n
        for i in range(n):
            j = (i + 1) % n
            tris.append((lo + i, lo + j, hi + j))
            tris.append((lo + i, hi + j, hi + i))
    # top fan
    last = 1 + (len(rings) - 1) * n
    for i in range(n):
        j = (i + 1) % n
        tris.append((top, last + i, last + j))
    return Mesh(verts, tris)


def uv_sphere(radius, center=(0.0, 0.0, 0.0), stacks=12, segments=SEGMENTS):
    profile = []
    for k in range(stacks + 1):
        phi = math.pi * k / stacks  # 0 at bottom pole
        profile.append((radius * math.sin(phi) if 0 < k < stacks else 0.0,
                        -radius * math.cos(phi)))
    return _revolve(profile, segments).translated(center)


def capsule(radius, length, hemi_stacks=6, segments=SEGMENTS):
    """Capsule along +z: a cylinder from z=0 to z=length capped with two
    hemispheres centred at z=0 and z=length (total extent -r .. length+r)."""
    profile = [(0.0, -radius)]
    for k in range(1, hemi_stacks + 1):
        phi = 0.5 * math.pi * k / hemi_stacks
        profile.append((radius * math.sin(phi), -radius * math.cos(phi)))
    for k in range(0, hemi_stacks):
        phi = 0.5 * math.pi * k / hemi_stacks
        profile.append((radius * math.cos(phi), length + radius * math.sin(phi)))
    profile.append((0.0, length + radius))
    return _revolve(profile, segments)


# orientation-preserving axis map (cyclic permutation of the axes)
def z_to_x(x, y, z):
    """Rotate so that the +z axis of a mesh points along +x (cyclic perm)."""
    return (z, x, y)


# ---------------------------------------------------------------------------
# The data set
# ---------------------------------------------------------------------------

def table_mesh(top_x=0.8, top_y=1.0, height=0.7, top_thick=0.04, leg=0.05, inset=0.05):
    """Table centred on x=y=0 standing on z=0; top surface at z=height."""
    m = box(-top_x / 2, -top_y / 2, height - top_thick, top_x / 2, top_y / 2, height)
    lx = top_x / 2 - inset - leg / 2
    ly = top_y / 2 - inset - leg / 2
    for sx in (-1, 1):
        for sy in (-1, 1):
            m.merge(centered_box(leg, leg, height - top_thick,
                                 (sx * lx, sy * ly, (height - top_thick) / 2)))
    return m


def gripper_palm_mesh():
    """Palm of the 2-finger gripper: a mounting disk (z 0..0.02) plus a
    rectangular housing 0.06 x 0.14 x 0.04 (z 0.02..0.06)."""
    m = cylinder(0.035, 0.0, 0.02)
    m.merge(box(-0.03, -0.07, 0.02, 0.03, 0.07, 0.06))
    return m


def gripper_finger_mesh():
    """Finger: a 0.02 x 0.012 bar from z=0 to z=0.055 topped by a slightly
    larger 0.024 x 0.014 tip pad from z=0.055 to z=0.075 (two closed boxes,
    symmetric about the finger's x-z plane)."""
    m = box(-0.01, -0.006, 0.0, 0.01, 0.006, 0.055)
    m.merge(box(-0.012, -0.007, 0.055, 0.012, 0.007, 0.075))
    return m


def build_all():
    meshes = {}
    # --- unit primitives (fit in a 1 m cube centred at the origin) ---
    meshes["box_unit"] = centered_box(1.0, 1.0, 1.0)
    meshes["cylinder_unit"] = cylinder(0.5, -0.5, 0.5)
    meshes["sphere_unit"] = uv_sphere(0.5)
    meshes["capsule_unit"] = capsule(0.25, 0.5).translated((0, 0, -0.25))
    # --- planar 3R arm link: capsule along +x, joint at x=0, next joint at 0.5
    meshes["planar_link"] = capsule(0.03, 0.5).mapped(z_to_x)
    # --- arm6 links (frames: link origin at its joint, zero config straight up)
    meshes["arm6_base"] = cylinder(0.11, 0.0, 0.2)
    meshes["arm6_shoulder"] = cylinder(0.08, 0.0, 0.15)
    meshes["arm6_upper_arm"] = capsule(0.06, 0.45)
    meshes["arm6_forearm"] = capsule(0.05, 0.40)
    meshes["arm6_wrist_roll"] = cylinder(0.045, 0.0, 0.08)
    # wrist_pitch frame is rotated so that its joint axis is the local z axis
    meshes["arm6_wrist_pitch"] = cylinder(0.04, -0.045, 0.045)
    meshes["arm6_flange"] = cylinder(0.035, -0.03, 0.02)
    # --- gripper
    meshes["gripper_palm"] = gripper_palm_mesh()
    meshes["gripper_finger"] = gripper_finger_mesh()
    # --- floating body: 0.4 x 0.3 x 0.2 box centred at its frame
    meshes["body_box"] = centered_box(0.4, 0.3, 0.2)
    # --- terrains
    meshes["ground_slab"] = box(-5.0, -5.0, -0.1, 5.0, 5.0, 0.0)
    meshes["table"] = table_mesh()
    return meshes


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = argv[1] if len(argv) > 1 else os.path.join(here, "meshes")
    os.makedirs(outdir, exist_ok=True)
    meshes = build_all()
    for name in sorted(meshes):
        path = os.path.join(outdir, name + ".off")
        write_off(meshes[name], path)
        print("wrote %s (%d verts, %d tris)" % (path, len(meshes[name].verts), len(meshes[name].tris)))


if __name__ == "__main__":
    main(sys.argv)
