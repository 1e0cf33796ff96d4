#include "core/artifacts/zip_directory.h"

#include <algorithm>
#include <cstdint>
#include <fstream>

namespace lb::artifacts {
namespace {

constexpr std::uint32_t kLocalHeader = 0x04034b50;
constexpr std::uint32_t kCentralHeader = 0x02014b50;
constexpr std::uint32_t kEndOfDirectory = 0x06054b50;
constexpr std::uint32_t kZip64Locator = 0x07064b50;
constexpr std::uint32_t kZip64End = 0x06064b50;
constexpr std::uint64_t kMaxDirectoryBytes = std::uint64_t{64} << 20;

std::uint64_t le(const std::string& b, std::size_t at, int bytes) {
  std::uint64_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) {
    v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  }
  return v;
}

bool read_at(std::ifstream& in, std::uint64_t offset, std::size_t size, std::string& out) {
  out.assign(size, '\0');
  in.clear();
  in.seekg(static_cast<std::streamoff>(offset));
  in.read(out.data(), static_cast<std::streamsize>(size));
  return static_cast<std::size_t>(in.gcount()) == size;
}

struct DirectoryLocation {
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

// Finds the end-of-central-directory record in the file's last 64 KiB + 22 bytes.
bool locate_directory(std::ifstream& in, std::uint64_t file_size, DirectoryLocation& loc,
                      std::string& error) {
  const std::uint64_t tail = std::min<std::uint64_t>(file_size, 65535 + 22);
  std::string buf;
  if (!read_at(in, file_size - tail, tail, buf)) {
    return (error = "cannot read the tail"), false;
  }
  std::size_t eocd = std::string::npos;
  for (std::size_t i = buf.size() >= 22 ? buf.size() - 22 + 1 : 0; i-- > 0;) {
    if (le(buf, i, 4) == kEndOfDirectory) {
      eocd = i;
      break;
    }
  }
  if (eocd == std::string::npos) {
    return (error = "no end-of-central-directory record"), false;
  }
  loc.size = le(buf, eocd + 12, 4);
  loc.offset = le(buf, eocd + 16, 4);
  if (loc.offset == 0xffffffffu || loc.size == 0xffffffffu) {
    const std::uint64_t eocd_pos = file_size - tail + eocd;
    std::string locator;
    if (eocd_pos < 20 || !read_at(in, eocd_pos - 20, 20, locator) ||
        le(locator, 0, 4) != kZip64Locator) {
      return (error = "zip64 locator missing"), false;
    }
    std::string end64;
    if (!read_at(in, le(locator, 8, 8), 56, end64) || le(end64, 0, 4) != kZip64End) {
      return (error = "zip64 end record unreadable"), false;
    }
    loc.size = le(end64, 40, 8);
    loc.offset = le(end64, 48, 8);
  }
  if (loc.size > kMaxDirectoryBytes || loc.offset > file_size ||
      loc.size > file_size - loc.offset) {
    return (error = "central directory lies outside the file"), false;
  }
  return true;
}

void read_first_local_name(std::ifstream& in, ZipListing& out) {
  std::string header;
  if (!read_at(in, 0, 30, header) || le(header, 0, 4) != kLocalHeader) {
    return;
  }
  std::string name;
  if (read_at(in, 30, le(header, 26, 2), name)) {
    out.names.push_back(name);
  }
}

}  // namespace

ZipListing list_zip_entries(const std::filesystem::path& path) {
  ZipListing out;
  std::ifstream in(path, std::ios::binary);
  std::error_code ec;
  const std::uint64_t file_size = std::filesystem::file_size(path, ec);
  if (!in || ec) {
    out.error = "cannot open";
    return out;
  }
  DirectoryLocation loc;
  std::string dir;
  if (!locate_directory(in, file_size, loc, out.error) || !read_at(in, loc.offset, loc.size, dir)) {
    if (out.error.empty()) {
      out.error = "cannot read the central directory";
    }
    read_first_local_name(in, out);  // a damaged archive may still announce data.pkl up front
    return out;
  }
  std::size_t at = 0;
  while (at + 46 <= dir.size() && out.names.size() < kMaxZipEntriesListed) {
    if (le(dir, at, 4) != kCentralHeader) {
      out.error = "corrupt central directory entry";
      break;
    }
    const std::size_t name_len = le(dir, at + 28, 2);
    const std::size_t extra_len = le(dir, at + 30, 2);
    const std::size_t comment_len = le(dir, at + 32, 2);
    if (at + 46 + name_len > dir.size()) {
      out.error = "truncated central directory";
      break;
    }
    out.names.push_back(dir.substr(at + 46, name_len));
    at += 46 + name_len + extra_len + comment_len;
  }
  return out;
}

}  // namespace lb::artifacts
