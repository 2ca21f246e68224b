// klampt.vis web viewer: draws the scene JSON of klampt.vis (a three.js
// Object JSON subset plus "extras", "camera", "background", "lights" and
// "checker"; see klampt/vis/_web/serialize.py) with plain WebGL, lit as the
// OpenGL renderer lights it, and animates it with {node name: column-major matrix} updates.
// No third-party code; works offline. Defines globalThis.KlamptViewer.
(function () {
  "use strict";

  // ---- 4x4 column-major matrices
  function identity() { return [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]; }
  function mul(a, b) {
    var o = new Array(16);
    for (var c = 0; c < 4; c++)
      for (var r = 0; r < 4; r++) {
        var s = 0;
        for (var k = 0; k < 4; k++) s += a[k * 4 + r] * b[c * 4 + k];
        o[c * 4 + r] = s;
      }
    return o;
  }
  function sub(a, b) { return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]; }
  function add(a, b) { return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]; }
  function scale(a, s) { return [a[0] * s, a[1] * s, a[2] * s]; }
  function dot(a, b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
  function cross(a, b) { return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]; }
  function norm(a) { return Math.sqrt(dot(a, a)); }
  function unit(a) { var n = norm(a); return n > 0 ? scale(a, 1 / n) : a; }
  function rotate(v, axis, angle) {  // Rodrigues
    var k = unit(axis), c = Math.cos(angle), s = Math.sin(angle);
    return add(add(scale(v, c), scale(cross(k, v), s)), scale(k, dot(k, v) * (1 - c)));
  }
  // camera looking from eye to target: the world-to-camera matrix
  function lookAt(eye, target, up) {
    var z = unit(sub(eye, target)), x = unit(cross(up, z)), y = cross(z, x);
    return [x[0], y[0], z[0], 0, x[1], y[1], z[1], 0, x[2], y[2], z[2], 0,
            -dot(x, eye), -dot(y, eye), -dot(z, eye), 1];
  }
  // horizontal field of view, as klampt.vis GLViewport
  function perspective(fovDeg, aspect, n, f) {
    var sx = 1 / Math.tan(fovDeg * Math.PI / 360), sy = sx * aspect;
    return [sx, 0, 0, 0, 0, sy, 0, 0, 0, 0, (f + n) / (n - f), -1, 0, 0, 2 * f * n / (n - f), 0];
  }
  function transformPoint(m, p) {
    var w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];
    return [(m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12]) / w,
            (m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13]) / w,
            (m[2] * p[0] + m[6] * p[1] + m[10] * p[2] + m[14]) / w];
  }
  // inverse of the y-up root: three.js scenes are y-up, klampt's are z-up
  var ROOT_INVERSE = [1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1];

  var VERTEX = [
    "attribute vec3 position; attribute vec3 normal; attribute vec3 vertexColor;",
    "uniform mat4 model, view, projection; uniform float pointSize;",
    "varying vec3 vNormal; varying vec3 vEye; varying vec2 vLocal; varying vec3 vColor;",
    "void main() {",
    "  vColor = vertexColor;",
    "  mat4 mv = view * model;",
    "  vec4 eye = mv * vec4(position, 1.0);",
    "  vNormal = mat3(mv[0].xyz, mv[1].xyz, mv[2].xyz) * normal;",
    "  vEye = eye.xyz;",
    "  vLocal = position.xy;",
    "  gl_Position = projection * eye;",
    "  gl_PointSize = pointSize;",
    "}"].join("\n");
  // OpenGL's fixed pipeline with the scene's lights (directional, in eye
  // coordinates, viewer at infinity), both sides lit, then the terrains'
  // checkerboard modulating the result as a texture does.
  var MAX_LIGHTS = 4;
  var FRAGMENT = [
    "#ifdef GL_FRAGMENT_PRECISION_HIGH",
    "precision highp float;",
    "#else",
    "precision mediump float;",
    "#endif",
    "varying vec3 vNormal; varying vec3 vEye; varying vec2 vLocal; varying vec3 vColor;",
    "uniform vec4 uColor; uniform float lit; uniform float useVertexColor;",
    "uniform vec3 specular, emissive; uniform float shininess;",
    "uniform float ambient; uniform int numLights;",
    "uniform vec3 lightDir[" + MAX_LIGHTS + "];",
    "uniform float lightDiffuse[" + MAX_LIGHTS + "], lightSpecular[" + MAX_LIGHTS + "];",
    "uniform float checker, checkerSize; uniform vec2 checkerLevels;",
    "void main() {",
    "  vec4 color = useVertexColor > 0.5 ? vec4(vColor, uColor.a) : uColor;",
    "  if (lit < 0.5) { gl_FragColor = color; return; }",
    "  vec3 n = normalize(vNormal);",
    "  if (dot(n, -vEye) < 0.0) n = -n;",
    "  vec3 c = emissive + ambient * color.rgb;",
    "  for (int i = 0; i < " + MAX_LIGHTS + "; i++) {",
    "    if (i >= numLights) break;",
    "    float d = dot(n, lightDir[i]);",
    "    if (d <= 0.0) continue;",
    "    c += d * lightDiffuse[i] * color.rgb;",
    "    if (shininess > 0.0) {",
    "      float h = max(dot(n, normalize(lightDir[i] + vec3(0.0, 0.0, 1.0))), 0.0);",
    "      c += pow(h, shininess) * lightSpecular[i] * specular;",
    "    }",
    "  }",
    "  c = min(c, vec3(1.0));",
    "  if (checker > 0.5) {",
    "    vec2 cell = floor(vLocal / checkerSize);",
    "    c *= mod(cell.x + cell.y, 2.0) < 0.5 ? checkerLevels.x : checkerLevels.y;",
    "  }",
    "  gl_FragColor = vec4(c, color.a);",
    "}"].join("\n");
  // Scenes without a "lights" field: a light at the eye.
  var HEADLIGHT = {ambient: 0.3, lights: [{direction: [0, 0, 1], frame: "camera", diffuse: 0.7, specular: 0}]};

  function compile(gl, type, source) {
    var s = gl.createShader(type);
    gl.shaderSource(s, source);
    gl.compileShader(s);
    if (!gl.getShaderParameter(s, gl.COMPILE_STATUS)) throw new Error(gl.getShaderInfoLog(s));
    return s;
  }

  function colorOf(hex, opacity) {
    return [((hex >> 16) & 255) / 255, ((hex >> 8) & 255) / 255, (hex & 255) / 255,
            opacity === undefined ? 1 : opacity];
  }

  function KlamptViewer(container, data, options) {
    options = options || {};
    this.container = container;
    var w = options.width || 640, h = options.height || 480;
    container.style.position = "relative";
    container.style.width = w + "px";
    container.style.height = h + "px";
    this.canvas = document.createElement("canvas");
    this.canvas.width = w;
    this.canvas.height = h;
    this.overlay = document.createElement("canvas");
    this.overlay.width = w;
    this.overlay.height = h;
    this.overlay.style.position = "absolute";
    this.overlay.style.left = "0px";
    this.overlay.style.top = "0px";
    this.overlay.style.pointerEvents = "none";
    container.appendChild(this.canvas);
    container.appendChild(this.overlay);
    var gl = this.canvas.getContext("webgl", {antialias: true, preserveDrawingBuffer: true});
    if (!gl) throw new Error("klampt viewer: WebGL is not available");
    this.gl = gl;
    var prog = gl.createProgram();
    gl.attachShader(prog, compile(gl, gl.VERTEX_SHADER, VERTEX));
    gl.attachShader(prog, compile(gl, gl.FRAGMENT_SHADER, FRAGMENT));
    gl.linkProgram(prog);
    this.program = prog;
    this.loc = {};
    var names = ["model", "view", "projection", "pointSize", "uColor", "lit", "useVertexColor", "specular", "emissive", "shininess",
                 "ambient", "numLights", "lightDir", "lightDiffuse", "lightSpecular", "checker", "checkerSize",
                 "checkerLevels"];
    for (var i = 0; i < names.length; i++) this.loc[names[i]] = gl.getUniformLocation(prog, names[i]);
    this.attrPosition = gl.getAttribLocation(prog, "position");
    this.attrNormal = gl.getAttribLocation(prog, "normal");
    this.attrColor = gl.getAttribLocation(prog, "vertexColor");
    this.onCamera = options.onCamera || null;
    this._installControls();
    this.setScene(data);
  }

  KlamptViewer.prototype.setScene = function (data) {
    var gl = this.gl;
    this.data = data || {};
    var scene = this.data;
    this.geometries = {};
    this.materials = {};
    var i;
    for (i = 0; i < (scene.geometries || []).length; i++) {
      var g = scene.geometries[i];
      this.geometries[g.uuid] = this._buffers(g.data);
    }
    for (i = 0; i < (scene.materials || []).length; i++) this.materials[scene.materials[i].uuid] = scene.materials[i];
    this.nodes = {};
    this.root = scene.object || {children: []};
    this._index(this.root);
    this.extras = scene.extras || [];
    this.extraBuffers = [];
    for (i = 0; i < this.extras.length; i++) {
      var e = this.extras[i];
      if (e.type === "points" || e.type === "lines") {
        var flat = [];
        for (var k = 0; k < e.points.length; k++) flat.push(e.points[k][0], e.points[k][1], e.points[k][2]);
        var b = gl.createBuffer();
        gl.bindBuffer(gl.ARRAY_BUFFER, b);
        gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(flat), gl.STATIC_DRAW);
        this.extraBuffers.push({extra: e, buffer: b, count: e.points.length});
      }
    }
    this.background = scene.background || [0.8, 0.8, 0.9, 1];
    this.lights = scene.lights || HEADLIGHT;
    var checker = scene.checker || {nodes: [], size: 0.5, levels: [1, 1]};
    this.checker = {size: checker.size, levels: checker.levels, nodes: {}};
    for (i = 0; i < checker.nodes.length; i++) this.checker.nodes[checker.nodes[i]] = true;
    if (scene.camera) this.setCamera(scene.camera); else if (!this.camera) this.resetCamera();
    this.render();
  };

  KlamptViewer.prototype._index = function (node) {
    if (node.name !== undefined) this.nodes[node.name] = node;
    var ch = node.children || [];
    for (var i = 0; i < ch.length; i++) this._index(ch[i]);
  };

  // Flat-shaded buffers: triangles unshared so face normals are exact.
  KlamptViewer.prototype._buffers = function (data) {
    var gl = this.gl;
    var attrs = data.attributes || {};
    var pos = attrs.position ? attrs.position.array : (data.position ? data.position.array : []);
    var index = data.index ? data.index.array : null;
    if (!index) {  // a point cloud
      var pb = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, pb);
      gl.bufferData(gl.ARRAY_BUFFER, new Float32Array(pos), gl.STATIC_DRAW);
      return {points: true, position: pb, count: pos.length / 3};
    }
    var n = index.length, P = new Float32Array(n * 3), N = new Float32Array(n * 3);
    var col = attrs.color ? attrs.color.array : null, C = col ? new Float32Array(n * 3) : null;
    if (C) for (var v = 0; v < n; v++) for (var q = 0; q < 3; q++) C[v * 3 + q] = col[index[v] * 3 + q];
    for (var t = 0; t + 2 < n; t += 3) {
      var a = index[t] * 3, b = index[t + 1] * 3, c = index[t + 2] * 3;
      var pa = [pos[a], pos[a + 1], pos[a + 2]], pb2 = [pos[b], pos[b + 1], pos[b + 2]], pc = [pos[c], pos[c + 1], pos[c + 2]];
      var nn = unit(cross(sub(pb2, pa), sub(pc, pa)));
      var corners = [pa, pb2, pc];
      for (var k = 0; k < 3; k++)
        for (var j = 0; j < 3; j++) {
          P[(t + k) * 3 + j] = corners[k][j];
          N[(t + k) * 3 + j] = nn[j];
        }
    }
    var bp = gl.createBuffer(), bn = gl.createBuffer();
    gl.bindBuffer(gl.ARRAY_BUFFER, bp);
    gl.bufferData(gl.ARRAY_BUFFER, P, gl.STATIC_DRAW);
    gl.bindBuffer(gl.ARRAY_BUFFER, bn);
    gl.bufferData(gl.ARRAY_BUFFER, N, gl.STATIC_DRAW);
    var bc = null;
    if (C) {  // per-vertex colours (a heightmap's own), one per corner
      bc = gl.createBuffer();
      gl.bindBuffer(gl.ARRAY_BUFFER, bc);
      gl.bufferData(gl.ARRAY_BUFFER, C, gl.STATIC_DRAW);
    }
    return {points: false, position: bp, normal: bn, color: bc, count: n};
  };

  KlamptViewer.prototype.setTransforms = function (transforms) {
    for (var name in transforms) {
      var node = this.nodes[name];
      if (node) node.matrix = transforms[name];
    }
    this.render();
  };

  KlamptViewer.prototype.setCamera = function (cam) {
    this.camera = {position: cam.position.slice(), target: cam.target.slice(), up: cam.up.slice(),
                   fov: cam.fov || 30, near: cam.near || 0.2, far: cam.far || 100};
    this.render();
  };

  KlamptViewer.prototype.getCamera = function () {
    var c = this.camera;
    return {position: c.position.slice(), target: c.target.slice(), up: c.up.slice(), fov: c.fov,
            near: c.near, far: c.far};
  };

  // klampt.vis's default: 6 from the origin along -y, looking along +y, z up
  KlamptViewer.prototype.resetCamera = function () {
    this.camera = {position: [0, -6, 0], target: [0, 0, 0], up: [0, 0, 1], fov: 30, near: 0.2, far: 100};
  };

  KlamptViewer.prototype._drawNode = function (node, parent, transparentPass) {
    if (node.visible === false) return;
    var m = node.matrix ? mul(parent, node.matrix) : parent;
    if ((node.type === "Mesh" || node.type === "Points") && node.geometry) {
      var buf = this.geometries[node.geometry], mat = this.materials[node.material] || {};
      if (buf) {
        var color = colorOf(mat.color === undefined ? 0x808080 : mat.color, mat.transparent ? mat.opacity : 1);
        if ((color[3] < 1) === transparentPass) {
          var gl = this.gl;
          gl.uniform3fv(this.loc.specular, new Float32Array(colorOf(mat.specular || 0).slice(0, 3)));
          gl.uniform3fv(this.loc.emissive, new Float32Array(colorOf(mat.emissive || 0).slice(0, 3)));
          gl.uniform1f(this.loc.shininess, Math.min(128, mat.shininess || 0));
          gl.uniform1f(this.loc.checker, this.checker.nodes[node.name] ? 1 : 0);
          this._drawBuffers(buf, m, color, !buf.points, buf.points ? 3 : 0);
        }
      }
    }
    var ch = node.children || [];
    for (var i = 0; i < ch.length; i++) this._drawNode(ch[i], m, transparentPass);
  };

  KlamptViewer.prototype._drawBuffers = function (buf, model, color, lit, pointSize) {
    var gl = this.gl;
    gl.uniformMatrix4fv(this.loc.model, false, new Float32Array(model));
    gl.uniform4fv(this.loc.uColor, new Float32Array(color));
    gl.uniform1f(this.loc.lit, lit ? 1 : 0);
    gl.uniform1f(this.loc.pointSize, pointSize || 1);
    gl.bindBuffer(gl.ARRAY_BUFFER, buf.position);
    gl.enableVertexAttribArray(this.attrPosition);
    gl.vertexAttribPointer(this.attrPosition, 3, gl.FLOAT, false, 0, 0);
    if (buf.normal && this.attrNormal >= 0) {
      gl.bindBuffer(gl.ARRAY_BUFFER, buf.normal);
      gl.enableVertexAttribArray(this.attrNormal);
      gl.vertexAttribPointer(this.attrNormal, 3, gl.FLOAT, false, 0, 0);
    } else if (this.attrNormal >= 0) {
      gl.disableVertexAttribArray(this.attrNormal);
      gl.vertexAttrib3f(this.attrNormal, 0, 0, 1);
    }
    if (buf.color && this.attrColor >= 0) {
      gl.bindBuffer(gl.ARRAY_BUFFER, buf.color);
      gl.enableVertexAttribArray(this.attrColor);
      gl.vertexAttribPointer(this.attrColor, 3, gl.FLOAT, false, 0, 0);
    } else if (this.attrColor >= 0) {
      gl.disableVertexAttribArray(this.attrColor);
      gl.vertexAttrib3f(this.attrColor, 1, 1, 1);
    }
    gl.uniform1f(this.loc.useVertexColor, buf.color ? 1 : 0);
    gl.drawArrays(buf.points ? gl.POINTS : gl.TRIANGLES, 0, buf.count);
  };

  KlamptViewer.prototype._matrices = function () {
    var c = this.camera, w = this.canvas.width, h = this.canvas.height;
    var view = mul(lookAt(c.position, c.target, c.up), ROOT_INVERSE);
    var far = Math.max(c.far, 1.05 * norm(sub(c.position, c.target)));
    return {view: view, projection: perspective(c.fov, w / h, c.near, far),
            zupView: lookAt(c.position, c.target, c.up)};
  };

  // The lights' directions in eye coordinates: camera-frame ones as given,
  // world ones (z-up) turned by the view.
  KlamptViewer.prototype._setLights = function (zupView) {
    var gl = this.gl, L = this.lights.lights || [], n = Math.min(L.length, MAX_LIGHTS);
    var dirs = new Float32Array(3 * MAX_LIGHTS), diffuse = new Float32Array(MAX_LIGHTS),
        spec = new Float32Array(MAX_LIGHTS), v = zupView;
    for (var i = 0; i < n; i++) {
      var d = L[i].direction;
      if (L[i].frame !== "camera")
        d = [v[0] * d[0] + v[4] * d[1] + v[8] * d[2], v[1] * d[0] + v[5] * d[1] + v[9] * d[2],
             v[2] * d[0] + v[6] * d[1] + v[10] * d[2]];
      d = unit(d);
      dirs[3 * i] = d[0]; dirs[3 * i + 1] = d[1]; dirs[3 * i + 2] = d[2];
      diffuse[i] = L[i].diffuse || 0;
      spec[i] = L[i].specular || 0;
    }
    gl.uniform1f(this.loc.ambient, this.lights.ambient || 0);
    gl.uniform1i(this.loc.numLights, n);
    gl.uniform3fv(this.loc.lightDir, dirs);
    gl.uniform1fv(this.loc.lightDiffuse, diffuse);
    gl.uniform1fv(this.loc.lightSpecular, spec);
    gl.uniform1f(this.loc.checkerSize, this.checker.size);
    gl.uniform2fv(this.loc.checkerLevels, new Float32Array(this.checker.levels));
  };

  KlamptViewer.prototype.render = function () {
    if (!this.camera) return;
    var gl = this.gl, bg = this.background;
    gl.viewport(0, 0, this.canvas.width, this.canvas.height);
    gl.clearColor(bg[0], bg[1], bg[2], 1);
    gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
    gl.enable(gl.DEPTH_TEST);
    gl.useProgram(this.program);
    var M = this._matrices();
    gl.uniformMatrix4fv(this.loc.view, false, new Float32Array(M.view));
    gl.uniformMatrix4fv(this.loc.projection, false, new Float32Array(M.projection));
    this._setLights(M.zupView);
    gl.disable(gl.BLEND);
    this._drawNode(this.root, identity(), false);
    // extras are in z-up world coordinates
    gl.uniformMatrix4fv(this.loc.view, false, new Float32Array(M.zupView));
    for (var i = 0; i < this.extraBuffers.length; i++) {
      var x = this.extraBuffers[i], e = x.extra;
      var buf = {points: e.type === "points", position: x.buffer, count: x.count};
      if (e.type === "lines") {
        var gl2 = this.gl;
        gl2.uniformMatrix4fv(this.loc.model, false, new Float32Array(identity()));
        gl2.uniform4fv(this.loc.uColor, new Float32Array(e.color));
        gl2.uniform1f(this.loc.lit, 0);
        gl2.uniform1f(this.loc.useVertexColor, 0);
        if (this.attrColor >= 0) gl2.disableVertexAttribArray(this.attrColor);
        gl2.bindBuffer(gl2.ARRAY_BUFFER, x.buffer);
        gl2.enableVertexAttribArray(this.attrPosition);
        gl2.vertexAttribPointer(this.attrPosition, 3, gl2.FLOAT, false, 0, 0);
        if (this.attrNormal >= 0) gl2.disableVertexAttribArray(this.attrNormal);
        gl2.drawArrays(e.strip ? gl2.LINE_STRIP : gl2.LINES, 0, x.count);
      } else {
        this._drawBuffers(buf, identity(), e.color, false, e.size || 5);
      }
    }
    gl.uniformMatrix4fv(this.loc.view, false, new Float32Array(M.view));
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
    gl.depthMask(false);
    this._drawNode(this.root, identity(), true);
    gl.depthMask(true);
    gl.disable(gl.BLEND);
    this._drawText(M);
  };

  KlamptViewer.prototype._drawText = function (M) {
    var ctx = this.overlay.getContext("2d"), w = this.overlay.width, h = this.overlay.height;
    ctx.clearRect(0, 0, w, h);
    var consoleY = 20, pv = mul(M.projection, M.zupView);
    for (var i = 0; i < this.extras.length; i++) {
      var e = this.extras[i];
      if (e.type !== "text") continue;
      var size = e.size || 12, c = e.color || [0, 0, 0, 1], x, y;
      ctx.font = size + "px sans-serif";
      ctx.textBaseline = "top";
      ctx.fillStyle = "rgba(" + Math.round(c[0] * 255) + "," + Math.round(c[1] * 255) + "," +
                      Math.round(c[2] * 255) + "," + (c.length > 3 ? c[3] : 1) + ")";
      if (!e.position) {
        x = 20; y = consoleY; consoleY += 1.5 * size;
      } else if (e.position.length === 2) {
        x = e.position[0] < 0 ? w + e.position[0] : e.position[0];
        y = e.position[1] < 0 ? h + e.position[1] : e.position[1];
      } else {
        var p = transformPoint(pv, e.position);
        if (p[2] < -1 || p[2] > 1) continue;
        x = (p[0] * 0.5 + 0.5) * w + 2;
        y = (0.5 - p[1] * 0.5) * h + 2;
      }
      ctx.fillText(e.text, x, y);
    }
  };

  // Drag rotates about the target, Ctrl / right drag pans, Shift drag and the wheel zoom.
  KlamptViewer.prototype._installControls = function () {
    var self = this, last = null;
    this.canvas.addEventListener("contextmenu", function (ev) { ev.preventDefault(); });
    this.canvas.addEventListener("mousedown", function (ev) { last = [ev.clientX, ev.clientY, ev.button]; });
    window.addEventListener("mouseup", function () {
      if (last && self.onCamera) self.onCamera(self.getCamera());
      last = null;
    });
    window.addEventListener("mousemove", function (ev) {
      if (!last) return;
      var dx = ev.clientX - last[0], dy = ev.clientY - last[1];
      last[0] = ev.clientX; last[1] = ev.clientY;
      var c = self.camera, back = sub(c.position, c.target), dist = norm(back);
      var right = unit(cross(c.up, back)), up = unit(cross(back, right));
      if (ev.ctrlKey || last[2] === 2) {
        var s = 2 * Math.tan(c.fov * Math.PI / 360) * dist / self.canvas.width;
        var delta = add(scale(right, -dx * s), scale(up, dy * s));
        c.position = add(c.position, delta);
        c.target = add(c.target, delta);
      } else if (ev.shiftKey) {
        c.position = add(c.target, scale(back, Math.exp(dy * 0.01)));
      } else {
        back = rotate(back, [0, 0, 1], -dx * 0.01);
        right = unit(cross([0, 0, 1], back));
        var turned = rotate(back, right, -dy * 0.01);
        if (norm(cross(turned, [0, 0, 1])) > 1e-3 * dist) back = turned;
        c.position = add(c.target, back);
        c.up = unit(cross(back, unit(cross([0, 0, 1], back))));
      }
      self.render();
    });
    this.canvas.addEventListener("wheel", function (ev) {
      ev.preventDefault();
      var c = self.camera;
      c.position = add(c.target, scale(sub(c.position, c.target), Math.pow(1.1, ev.deltaY > 0 ? 1 : -1)));
      self.render();
      if (self.onCamera) self.onCamera(self.getCamera());
    }, {passive: false});
  };

  // Plays recorded frames [{transforms: {...}}] every dt seconds, looping.
  KlamptViewer.prototype.play = function (frames, dt) {
    var self = this, k = 0;
    if (!frames || !frames.length) return;
    function step() {
      self.setTransforms(frames[k].transforms || {});
      k = (k + 1) % frames.length;
      self._timer = setTimeout(step, Math.max(1, dt * 1000));
    }
    step();
  };

  globalThis.KlamptViewer = KlamptViewer;
})();
