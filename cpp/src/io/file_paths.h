// Internal: path and file helpers shared by the file readers and writers.
#pragma once
#include <string>

namespace klampt {

/// Klamp't's resolution of a file named inside another file: absolute paths
/// and URLs as they are, otherwise relative to `baseDir` if that file exists,
/// else relative to the working directory.
std::string resolveFileReference(const std::string& baseDir, const std::string& file);
/// The directory part of a path ("" for a bare file name).
std::string directoryOf(const std::string& path);
/// The file name without directory and extension.
std::string fileStem(const std::string& path);
/// Lower-case extension without the dot.
std::string fileExtension(const std::string& path);
/// The file's bytes; false if it cannot be read.
bool readTextFile(const std::string& path, std::string& out);

}  // namespace klampt
