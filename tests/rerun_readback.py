"""Reading back what was logged to Rerun: a recording is saved to an .rrd
file and loaded with Rerun's own reader (``rerun.chunk.RrdReader``), so the
tests see what a viewer would load. Colours come back as packed 0xRRGGBBAA
integers, matrices as 9 column-major floats."""
import os

import numpy as np
import pytest


def require_rerun():
    """The ``rerun`` module; skips without it, except in CI, where a missing
    rerun-sdk (a ``test`` extra) is a failure."""
    try:
        import rerun
    except ImportError as e:
        if os.environ.get("CI"):
            pytest.fail("rerun-sdk is not installed (it is in the test extra): %s" % e)
        pytest.skip("rerun-sdk is not installed")
    return rerun


def packed(rgba):
    """The 0xRRGGBBAA integer Rerun stores for an RGBA colour in [0, 1]."""
    c = [int(round(255 * float(v))) for v in rgba]
    return (c[0] << 24) | (c[1] << 16) | (c[2] << 8) | c[3]


def _cell(column, row):
    """A component value, or None where the row did not log it."""
    value = column[row]
    return value.as_py() if value.is_valid else None


class Recording:
    """What an .rrd file holds: ``static[entity][component]`` (the last
    static value) and ``rows[entity]``, the temporal rows in logging order,
    each ``{'frame': int or None, component: value}``."""

    def __init__(self, path):
        from rerun.chunk import RrdReader
        self.static = {}
        self.rows = {}
        records = []
        for chunk in RrdReader(path).stream():
            batch = chunk.to_record_batch()
            names = batch.schema.names
            components = [n for n in names if ':' in n]
            ids = batch.column('rerun.controls.RowId').to_pylist()
            for r in range(batch.num_rows):
                values = {n: _cell(batch.column(n), r) for n in components}
                values = {n: v for n, v in values.items() if v is not None}
                frame = _cell(batch.column('frame'), r) if 'frame' in names else None
                records.append((ids[r], chunk.entity_path, chunk.is_static, frame, values))
        for _, entity, static, frame, values in sorted(records, key=lambda x: x[0]):
            if static:
                self.static.setdefault(entity, {}).update(values)
            else:
                self.rows.setdefault(entity, []).append(dict(values, frame=frame))

    def entities(self):
        """Every entity path that holds data."""
        return set(self.static) | set(self.rows)

    def latest(self, entity, component, frame=None):
        """The last temporal value of a component (at or before ``frame``
        when given), else its static value, else None."""
        found = None
        for row in self.rows.get(entity, []):
            if component in row and (frame is None or row['frame'] is None or row['frame'] <= frame):
                found = row[component]
        if found is None:
            found = self.static.get(entity, {}).get(component)
        return found

    def transform(self, entity, frame=None):
        """(R, t) of the entity's last Transform3D, R as a Klamp't so3 list."""
        R = self.latest(entity, 'Transform3D:mat3x3', frame)
        t = self.latest(entity, 'Transform3D:translation', frame)
        assert R is not None and t is not None, "no transform logged at %s" % entity
        return [float(v) for v in R[0]], [float(v) for v in t[0]]

    def mesh(self, entity):
        """(vertices n x 3, triangles m x 3) of the entity's Mesh3D."""
        s = self.static[entity]
        return (np.asarray(s['Mesh3D:vertex_positions'], dtype=float).reshape(-1, 3),
                np.asarray(s['Mesh3D:triangle_indices'], dtype=np.int64).reshape(-1, 3))


def blueprint(path):
    """{entity: {component: last value}} of the blueprint an .rrd file holds
    ({} without one)."""
    from rerun.chunk import RrdReader
    reader = RrdReader(path)
    out = {}
    for store in reader.blueprints():
        for chunk in reader.stream(store=store):
            batch = chunk.to_record_batch()
            for n in batch.schema.names:
                if ':' in n:
                    for r in range(batch.num_rows):
                        value = _cell(batch.column(n), r)
                        if value is not None:
                            out.setdefault(chunk.entity_path, {})[n] = value
    return out


def record(tmp_path, log, name='rec'):
    """Runs ``log(recording)`` on a new RecordingStream saved to an .rrd
    file under tmp_path and returns the Recording read back."""
    import rerun as rr
    path = str(tmp_path / ('%s.rrd' % name))
    rec = rr.RecordingStream('klampt_test')
    rec.save(path)
    log(rec)
    rec.flush()
    rec.disconnect()
    return Recording(path)


def world_points(recording, entity):
    """The entity's mesh vertices moved by its transform (rows n x 3)."""
    R, t = recording.transform(entity)
    M = np.array(R, dtype=float).reshape(3, 3).T
    v, _ = recording.mesh(entity)
    return v @ M.T + np.asarray(t)
