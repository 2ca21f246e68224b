// How an element is drawn, kept as data: colors, per-element colors, tint,
// specular highlights, draw flags, textures and texture coordinates. Drawing
// itself lives in klampt.vis.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace klampt {

using Color = std::array<float, 4>;

struct Appearance {
  /// Features as the reference numbers them (Appearance.ALL ... SPECULAR).
  enum Feature { ALL = 0, VERTICES = 1, EDGES = 2, FACES = 3, EMISSIVE = 4, SPECULAR = 5 };

  bool drawn = true;
  bool drawVertices = false, drawEdges = false, drawFaces = true;
  Color color{0.5f, 0.5f, 0.5f, 1.0f};  // the object (face) color
  Color vertexColor{1.0f, 1.0f, 1.0f, 1.0f};
  Color edgeColor{1.0f, 1.0f, 1.0f, 1.0f};
  Color emissiveColor{0.0f, 0.0f, 0.0f, 1.0f};
  Color specularColor{0.1f, 0.1f, 0.1f, 1.0f};
  float shininess = 0.0f;
  Color tintColor{0.0f, 0.0f, 0.0f, 1.0f};
  float tintStrength = 0.0f;
  /// Per-vertex and per-face colors (empty: the feature color is used).
  std::vector<Color> vertexColors, faceColors;
  float pointSize = 3.0f;
  float creaseAngle = 0.0f;
  float silhouetteRadius = 0.0f;
  Color silhouetteColor{0.0f, 0.0f, 0.0f, 1.0f};

  /// A texture: "" (none), or "l8", "rgb8", "bgr8", "rgba8", "bgra8" bytes,
  /// `channels` bytes per texel, height 1 for 1D textures.
  std::string textureFormat;
  int textureWidth = 0, textureHeight = 0, textureChannels = 0;
  std::vector<std::uint8_t> textureData;
  bool textureWrap = true;
  /// Per-vertex texture coordinates, texcoordDim (1 or 2) floats each.
  int texcoordDim = 0;
  std::vector<double> texcoords;
  /// Texture generation planes (up to 4 rows of 4 coefficients).
  std::vector<std::array<double, 4>> texgen;
  bool texgenWorld = false;
};

/// Bytes per texel of a texture format name; throws std::invalid_argument for
/// an unknown name. "" gives 0 (texturing off).
int textureFormatChannels(const std::string& format);

/// Stores a width x height texture of `channels` bytes per texel (height 1 for
/// 1D), rows given top first if topdown, else bottom first; stored top first.
/// Format "" clears the texture. Throws std::invalid_argument if channels do
/// not match the format.
void setTexture(Appearance& app, const std::string& format, const std::uint8_t* texels, int width, int height,
                int channels, bool topdown);

}  // namespace klampt
