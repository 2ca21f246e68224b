#include "mesh_assimp.h"
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <algorithm>
#include <cctype>
#include <fstream>
#include <iterator>
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

bool endsWithDae(const std::string& path) {
  if (path.size() < 4) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = (char)std::tolower((unsigned char)c);
  return ext == ".dae";
}

// Assimp's COLLADA reader loops forever, appending to memory, on a character
// other than a sign, digit or space inside a primitive's index list (<p>):
// such a file is refused before it is handed over.
void checkColladaIndexLists(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (size_t at = text.find("<p"); at != std::string::npos; at = text.find("<p", at + 2)) {
    const char next = at + 2 < text.size() ? text[at + 2] : '\0';
    if (next != '>' && !std::isspace((unsigned char)next)) continue;  // <param>, <polylist>, ...
    size_t i = text.find('>', at);
    if (i == std::string::npos || text[i - 1] == '/') continue;
    for (++i; i < text.size() && text[i] != '<'; ++i) {
      const unsigned char c = (unsigned char)text[i];
      if (!std::isdigit(c) && !std::isspace(c) && c != '-' && c != '+') {
        const int line = 1 + (int)std::count(text.begin(), text.begin() + (long)i, '\n');
        throw LoadError(fileMessage(path, line, std::string("malformed index list: unexpected '") + (char)c + "'"));
      }
    }
  }
}

}  // namespace

bool assimpReadsExtension(const std::string& extension) {
  Assimp::Importer importer;
  return importer.IsExtensionSupported("." + extension);
}

void loadAssimpMesh(const std::string& path, TriangleMesh& mesh) {
  if (endsWithDae(path)) checkColladaIndexLists(path);
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
