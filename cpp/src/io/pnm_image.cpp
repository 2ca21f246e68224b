// Netpbm image files (see pnm_image.h).
#include "pnm_image.h"
#include <cctype>
#include <fstream>
#include <iterator>
#include "file_paths.h"
#include "klampt/io/load_error.h"

namespace klampt {

namespace {

constexpr long long kMaxPixels = 1LL << 28;

struct Reader {
  const std::string& path;
  const std::string& bytes;
  size_t i = 0;

  [[noreturn]] void fail(const std::string& what) const { throw LoadError(fileMessage(path, 0, what)); }
  /// Skips whitespace and '#' comments of the header and text samples.
  void space() {
    while (i < bytes.size()) {
      if (std::isspace((unsigned char)bytes[i])) {
        ++i;
      } else if (bytes[i] == '#') {
        while (i < bytes.size() && bytes[i] != '\n') ++i;
      } else {
        break;
      }
    }
  }
  long number() {
    space();
    if (i >= bytes.size() || !std::isdigit((unsigned char)bytes[i])) fail("malformed image: expected a number");
    long v = 0;
    while (i < bytes.size() && std::isdigit((unsigned char)bytes[i])) {
      v = v * 10 + (bytes[i++] - '0');
      if (v > (1L << 30)) fail("malformed image: number too large");
    }
    return v;
  }
};

}  // namespace

PnmImage readPnm(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LoadError(fileMessage(path, 0, "cannot open image file"));
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Reader r{path, bytes};
  if (bytes.size() < 2 || bytes[0] != 'P' || std::string("2356").find(bytes[1]) == std::string::npos)
    r.fail("not a PGM/PPM image (P2, P3, P5 or P6)");
  const char kind = bytes[1];
  r.i = 2;
  PnmImage img;
  img.channels = (kind == '3' || kind == '6') ? 3 : 1;
  img.w = (int)r.number();
  img.h = (int)r.number();
  img.maxValue = (int)r.number();
  if (img.maxValue < 1 || img.maxValue > 65535) r.fail("image maximum value must be 1 to 65535");
  if ((long long)img.w * img.h > kMaxPixels) r.fail("image too large");
  const size_t n = (size_t)img.w * img.h * img.channels;
  img.data.resize(n);
  if (kind == '2' || kind == '3') {
    for (size_t k = 0; k < n; ++k) {
      const long v = r.number();
      if (v > img.maxValue) r.fail("image sample above the maximum value");
      img.data[k] = (std::uint16_t)v;
    }
    return img;
  }
  ++r.i;  // the single whitespace character before binary samples
  const size_t bytesPer = img.maxValue > 255 ? 2 : 1;
  if (bytes.size() < r.i + n * bytesPer) r.fail("image file is truncated");
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data() + r.i);
  for (size_t k = 0; k < n; ++k)
    img.data[k] = bytesPer == 2 ? (std::uint16_t)((p[2 * k] << 8) | p[2 * k + 1]) : (std::uint16_t)p[k];
  return img;
}

void writePnm(const PnmImage& image, const std::string& path) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw LoadError(fileMessage(path, 0, "cannot open image file for writing"));
  out << (image.channels == 3 ? "P6" : "P5") << '\n' << image.w << ' ' << image.h << '\n' << image.maxValue << '\n';
  std::string samples;
  samples.reserve(image.data.size() * 2);
  for (std::uint16_t v : image.data) {
    if (image.maxValue > 255) samples += (char)(v >> 8);
    samples += (char)(v & 0xFF);
  }
  out.write(samples.data(), (std::streamsize)samples.size());
  if (!out) throw LoadError(fileMessage(path, 0, "error while writing the image"));
}

}  // namespace klampt
