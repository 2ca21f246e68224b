#include "mesh_assimp.h"
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>
#include "klampt/io/load_error.h"
#include "mesh_text_formats.h"

namespace klampt {

namespace {

Eigen::Matrix4d toEigen(const aiMatrix4x4& m) {
  Eigen::Matrix4d T;
  T << m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4;
  return T;
}

// Appends the meshes of `node` and its descendants, in world coordinates.
void collectMeshes(const aiScene* scene, const aiNode* node, const Eigen::Matrix4d& parent,
                   std::vector<double>& vertices, std::vector<int>& triangles) {
  Eigen::Matrix4d T = parent * toEigen(node->mTransformation);
  for (unsigned int i = 0; i < node->mNumMeshes; ++i) {
    if (node->mMeshes[i] >= scene->mNumMeshes) continue;
    const aiMesh* m = scene->mMeshes[node->mMeshes[i]];
    int offset = (int)(vertices.size() / 3);
    for (unsigned int v = 0; v < m->mNumVertices; ++v) {
      const aiVector3D& p = m->mVertices[v];
      Eigen::Vector4d q = T * Eigen::Vector4d(p.x, p.y, p.z, 1.0);
      vertices.insert(vertices.end(), {q[0], q[1], q[2]});
    }
    for (unsigned int f = 0; f < m->mNumFaces; ++f) {
      const aiFace& face = m->mFaces[f];
      if (face.mNumIndices != 3) continue;  // points and lines left by triangulation
      for (int k = 0; k < 3; ++k) triangles.push_back(offset + (int)face.mIndices[k]);
    }
  }
  for (unsigned int c = 0; c < node->mNumChildren; ++c)
    collectMeshes(scene, node->mChildren[c], T, vertices, triangles);
}

bool hasExtension(const std::string& path, const char* extension) {
  const std::string wanted(extension);
  if (path.size() < wanted.size()) return false;
  std::string ext = path.substr(path.size() - wanted.size());
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  return ext == wanted;
}

std::string readWholeFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// The 1-based line of text on which position `at` lies.
int lineAt(const std::string& text, size_t at) {
  return 1 + (int)std::count(text.begin(), text.begin() + (long)std::min(at, text.size()), '\n');
}

// The largest count a PLY list's count type holds (0 for a type that is not an integer).
unsigned long long plyCountLimit(const std::string& type) {
  if (type == "uchar" || type == "uint8") return 255;
  if (type == "char" || type == "int8") return 127;
  if (type == "ushort" || type == "uint16") return 65535;
  if (type == "short" || type == "int16") return 32767;
  if (type == "uint" || type == "uint32" || type == "int" || type == "int32") return 2147483647;
  return 0;
}

// Assimp's ASCII PLY reader trusts the numbers of a list: a face index of
// 2147483648 made it allocate 0.8 GB, and -2147483648 2.3 GB, for a 300-byte
// file with two index lists per face, and a file ending inside a face 200 MB.
// The body is walked as Assimp reads it, a token at a time across lines, and a
// file is refused where a list's count is not an integer its count type
// holds, a face's vertex index is not one of the vertices, or the values end
// before the elements the header announces.
void checkPlyLists(const std::string& path, const std::string& text, size_t headerEnd) {
  struct Property {
    bool list;
    unsigned long long limit;
    std::string name;
  };
  struct Element {
    std::string name;
    unsigned long long count;
    std::vector<Property> properties;
  };
  std::vector<Element> elements;
  bool ascii = false;
  std::istringstream header(text.substr(0, headerEnd));
  std::string line;
  while (std::getline(header, line)) {
    std::istringstream words(line);
    std::string keyword, a, b, c, d;
    words >> keyword >> a >> b >> c >> d;
    if (keyword == "format") ascii = a == "ascii";
    if (keyword == "element") elements.push_back({a, std::strtoull(b.c_str(), nullptr, 10), {}});
    if (keyword == "property" && !elements.empty())
      elements.back().properties.push_back(a == "list" ? Property{true, plyCountLimit(b), d} : Property{false, 0, b});
  }
  if (!ascii) return;
  unsigned long long vertices = 0;
  for (const Element& e : elements)
    if (e.name == "vertex") vertices = e.count;
  size_t at = std::min(text.size(), text.find('\n', headerEnd) + 1);
  std::string token;
  auto next = [&] {  // the next whitespace-separated token, false at the end
    while (at < text.size() && std::isspace((unsigned char)text[at])) ++at;
    const size_t begin = at;
    while (at < text.size() && !std::isspace((unsigned char)text[at])) ++at;
    token = text.substr(begin, at - begin);
    return at > begin;
  };
  auto refuse = [&](const std::string& message) {
    throw LoadError(fileMessage(path, lineAt(text, at), message));
  };
  auto integer = [&](unsigned long long& n) {
    if (token.size() > 19 || token.find_first_not_of("0123456789") != std::string::npos) return false;
    n = std::stoull(token);
    return true;
  };
  for (const Element& e : elements)
    for (unsigned long long row = 0; row < e.count; ++row)
      for (const Property& p : e.properties) {
        if (!next()) refuse("the values end before the " + std::to_string(e.count) + " '" + e.name + "' items");
        if (!p.list) continue;
        unsigned long long n = 0;
        if (!integer(n) || n > p.limit)
          refuse("list '" + p.name + "' has the count '" + token + "', which its count type cannot hold");
        const bool indices = e.name == "face" && (p.name == "vertex_indices" || p.name == "vertex_index");
        for (unsigned long long k = 0; k < n; ++k) {
          unsigned long long index = 0;
          if (!next()) refuse("the values end inside list '" + p.name + "'");
          if (indices && (!integer(index) || index >= vertices))
            refuse("face index '" + token + "' is not one of the " + std::to_string(vertices) + " vertices");
        }
      }
}

// Assimp's PLY reader allocates and loops over every element a header
// announces (99999999999 faces took minutes and all memory): an element
// count larger than the file's size in bytes, which no encoding can hold, is
// refused before the file is handed over; so are list counts out of range.
void checkPlyElementCounts(const std::string& path) {
  const std::string text = readWholeFile(path);
  const size_t end = text.find("end_header");
  std::istringstream header(text.substr(0, end == std::string::npos ? text.size() : end));
  std::string line;
  for (int number = 1; std::getline(header, line); ++number) {
    std::istringstream words(line);
    std::string keyword, name, count;
    if (!(words >> keyword >> name >> count) || keyword != "element") continue;
    if (count.find_first_not_of("0123456789") != std::string::npos || count.size() > 19 ||
        std::stoull(count) > text.size())
      throw LoadError(fileMessage(path, number, "element '" + name + "' announces " + count +
                                                   " items, more than the file can hold"));
  }
  if (end != std::string::npos) checkPlyLists(path, text, end);
}

// The whitespace Assimp's COLLADA reader skips between numbers: std::isspace
// also accepts vertical tab and form feed, on which Assimp stops advancing.
bool isColladaSpace(unsigned char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Assimp's COLLADA reader loops forever, appending to memory, on a character
// other than a sign, digit or space inside a primitive's index list (<p>):
// such a file is refused before it is handed over. A vertical tab in place of
// one space of a 20 KB file took 14 GB.
void checkColladaIndexLists(const std::string& path, const std::string& text) {
  for (size_t at = text.find("<p"); at != std::string::npos; at = text.find("<p", at + 2)) {
    const char next = at + 2 < text.size() ? text[at + 2] : '\0';
    if (next != '>' && !std::isspace((unsigned char)next)) continue;  // <param>, <polylist>, ...
    size_t i = text.find('>', at);
    if (i == std::string::npos || text[i - 1] == '/') continue;
    for (++i; i < text.size() && text[i] != '<'; ++i) {
      const unsigned char c = (unsigned char)text[i];
      if (!std::isdigit(c) && !isColladaSpace(c) && c != '-' && c != '+') {
        char shown[16];
        if (std::isprint(c)) std::snprintf(shown, sizeof shown, "'%c'", (char)c);
        else std::snprintf(shown, sizeof shown, "byte 0x%02x", (unsigned)c);
        throw LoadError(fileMessage(path, lineAt(text, i), std::string("malformed index list: unexpected ") + shown));
      }
    }
  }
}

// The value of attribute `name` in the XML tag `tag` ("" if absent).
std::string attributeOf(const std::string& tag, const std::string& name) {
  for (size_t at = tag.find(name); at != std::string::npos; at = tag.find(name, at + 1)) {
    if (at == 0 || !std::isspace((unsigned char)tag[at - 1])) continue;  // "offset" inside another name
    size_t i = at + name.size();
    while (i < tag.size() && std::isspace((unsigned char)tag[i])) ++i;
    if (i >= tag.size() || tag[i] != '=') continue;
    ++i;
    while (i < tag.size() && std::isspace((unsigned char)tag[i])) ++i;
    if (i >= tag.size() || (tag[i] != '"' && tag[i] != '\'')) return "";
    const size_t end = tag.find(tag[i], i + 1);
    return end == std::string::npos ? "" : tag.substr(i + 1, end - i - 1);
  }
  return "";
}

// Assimp's COLLADA reader reads an accessor's values at the offsets of its
// <param> children, within one stride: an accessor with more params than its
// stride sent it reading past its array (a segmentation fault, found by the
// fuzzer on an accessor of stride 3 with 1,378 params). Such a file is refused.
void checkColladaAccessors(const std::string& path, const std::string& text) {
  for (size_t at = text.find("<accessor"); at != std::string::npos; at = text.find("<accessor", at + 9)) {
    const size_t tagEnd = text.find('>', at);
    if (tagEnd == std::string::npos) return;
    const std::string tag = text.substr(at, tagEnd - at);
    const std::string strideText = attributeOf(tag, "stride");
    const unsigned long long stride = strideText.empty() ? 1 : std::strtoull(strideText.c_str(), nullptr, 10);
    if (text[tagEnd - 1] == '/') continue;
    const size_t close = text.find("</accessor", tagEnd);
    unsigned long long params = 0;
    for (size_t p = text.find("<param", tagEnd); p != std::string::npos && p < close; p = text.find("<param", p + 6))
      ++params;
    if (params > stride)
      throw LoadError(fileMessage(path, lineAt(text, at),
                                  "accessor has " + std::to_string(params) + " params, more than its stride " +
                                      std::to_string(stride)));
  }
}

// Assimp's COLLADA reader adds a copy of every vertex for each input of a
// primitive: a 5 MB file whose triangles repeated one NORMAL input 688 times
// took 6.3 GB. A primitive whose inputs repeat a semantic and set (which
// adds nothing) or number more than any file needs is refused.
constexpr int kMaxColladaInputs = 32;

void checkColladaInputs(const std::string& path, const std::string& text) {
  for (const char* name : {"triangles", "polylist", "polygons", "lines", "linestrips", "trifans", "tristrips"}) {
    const std::string open = std::string("<") + name, close = std::string("</") + name;
    for (size_t at = text.find(open); at != std::string::npos; at = text.find(open, at + open.size())) {
      const char next = at + open.size() < text.size() ? text[at + open.size()] : '\0';
      if (next != '>' && !std::isspace((unsigned char)next)) continue;  // <lines> is not <linestrips>
      const size_t end = text.find(close, at);
      if (end == std::string::npos) return;  // unclosed: Assimp refuses the XML
      const int line = lineAt(text, at);
      const std::string where = std::string("<") + name + "> ";
      std::vector<std::string> seen;
      for (size_t i = text.find("<input", at); i != std::string::npos && i < end; i = text.find("<input", i + 6)) {
        const size_t tagEnd = std::min(text.find('>', i), end);
        const std::string tag = text.substr(i, tagEnd - i);
        const std::string set = attributeOf(tag, "set");
        const std::string key = attributeOf(tag, "semantic") + (set.empty() ? "" : " (set " + set + ")");
        if (std::find(seen.begin(), seen.end(), key) != seen.end())
          throw LoadError(fileMessage(path, line, where + "repeats its input " + key));
        seen.push_back(key);
        if ((int)seen.size() > kMaxColladaInputs)
          throw LoadError(fileMessage(path, line, where + "has more than " + std::to_string(kMaxColladaInputs) +
                                                      " inputs"));
      }
      at = end;
    }
  }
}

}  // namespace

bool assimpReadsExtension(const std::string& extension) {
  Assimp::Importer importer;
  return importer.IsExtensionSupported("." + extension);
}

void loadAssimpMesh(const std::string& path, TriangleMesh& mesh) {
  if (hasExtension(path, ".dae")) {
    const std::string text = readWholeFile(path);
    checkColladaIndexLists(path, text);
    checkColladaAccessors(path, text);
    checkColladaInputs(path, text);
  }
  if (hasExtension(path, ".ply")) checkPlyElementCounts(path);
  Assimp::Importer importer;
  // Keep COLLADA coordinates as written in the file (Klamp't does not flip Y/Z).
  importer.SetPropertyBool(AI_CONFIG_IMPORT_COLLADA_IGNORE_UP_DIRECTION, true);
  // The same post-processing as Klamp't, so vertex and triangle counts agree, after a check of the imported data:
  // a face index past the vertices crashed the vertex joining.
  const aiScene* scene = importer.ReadFile(
      path, aiProcess_ValidateDataStructure | aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
  if (!scene) throw LoadError(fileMessage(path, 0, std::string("cannot read mesh: ") + importer.GetErrorString()));
  if (scene->mNumMeshes == 0 || !scene->mRootNode) throw LoadError(fileMessage(path, 0, "file contains no mesh"));
  std::vector<double> vertices;
  std::vector<int> triangles;
  collectMeshes(scene, scene->mRootNode, Eigen::Matrix4d::Identity(), vertices, triangles);
  setMesh(mesh, vertices, triangles);
}

}  // namespace klampt
