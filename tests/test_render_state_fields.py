"""klampt._render_state: the typed render state carries exactly what the
binding reports for an appearance (every key, no other), with the values
the appearance was given, and is a copy."""
import dataclasses

import numpy as np

from klampt import Appearance
from klampt._render_state import RenderState, Texture, render_state


def textured_appearance():
    app = Appearance()
    app.setColor(0.2, 0.4, 0.6, 0.8)
    app.setTintColor([1.0, 0.0, 0.0, 1.0], 0.25)
    app.setShininess(20.0)
    app.setPointSize(7.0)
    app.setCreaseAngle(0.5)
    app.setDraw(Appearance.EDGES, True)
    app.setColors(Appearance.FACES, np.array([[1, 0, 0, 1], [0, 1, 0, 1]], dtype=np.float32))
    app.setTexture2D_b('rgb8', np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3))
    app.setTexgen(np.array([[1.0, 0, 0, 0], [0, 2.0, 0, 0]]), True)
    return app


def test_fields_are_the_bindings_keys():
    raw = textured_appearance()._render_state()
    assert {f.name for f in dataclasses.fields(RenderState)} == set(raw)
    assert {f.name for f in dataclasses.fields(Texture)} == set(raw['texture'])


def test_values_follow_the_appearance():
    state = render_state(textured_appearance())
    assert state.color == [np.float32(v) for v in (0.2, 0.4, 0.6, 0.8)]
    assert state.tint_color == [1.0, 0.0, 0.0, 1.0] and state.tint_strength == 0.25
    assert state.shininess == 20.0 and state.point_size == 7.0 and state.crease_angle == 0.5
    assert state.draw_edges and state.draw_faces and state.drawn
    assert state.face_colors.shape == (2, 4) and state.vertex_colors is None
    tex = state.texture
    assert isinstance(tex, Texture) and tex.format == 'rgb8'
    assert tex.texels.shape == (2, 3, 3) and tex.texels[1, 2, 2] == 17
    assert tex.texgen == [[1.0, 0, 0, 0], [0, 2.0, 0, 0]] and tex.texgen_world
    assert tex.texcoords is None


def test_a_plain_appearance_has_no_texture_and_the_state_is_a_copy():
    app = Appearance()
    state = render_state(app)
    assert state.texture is None and state.face_colors is None
    state.color = [0.0, 0.0, 0.0, 1.0]
    assert render_state(app).color != state.color
