#include "core/artifacts/safetensors_header.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstring>
#include <tuple>
#include <utility>

#include <nlohmann/json.hpp>

namespace lb::artifacts {
namespace {

using nlohmann::json;

struct DtypeBits {
  std::string_view name;
  unsigned bits;
};

// The safetensors specification's dtypes (sub-byte ones pack; a tensor's bits must fill bytes).
constexpr std::array kDtypes{
    DtypeBits{"BOOL", 8},    DtypeBits{"F4", 4},   DtypeBits{"F6_E2M3", 6}, DtypeBits{"F6_E3M2", 6},
    DtypeBits{"U8", 8},      DtypeBits{"I8", 8},   DtypeBits{"F8_E5M2", 8}, DtypeBits{"F8_E4M3", 8},
    DtypeBits{"F8_E8M0", 8}, DtypeBits{"I16", 16}, DtypeBits{"U16", 16},    DtypeBits{"F16", 16},
    DtypeBits{"BF16", 16},   DtypeBits{"I32", 32}, DtypeBits{"U32", 32},    DtypeBits{"F32", 32},
    DtypeBits{"C64", 64},    DtypeBits{"F64", 64}, DtypeBits{"I64", 64},    DtypeBits{"U64", 64},
};

struct Extent {
  std::uint64_t begin;
  std::uint64_t end;
  std::string name;
};

void add_issue(SafetensorsCheck& out, std::string issue) {
  if (out.issues.size() < kMaxListedHeaderIssues) {
    out.issues.push_back(std::move(issue));
  } else {
    ++out.unlisted_issues;
  }
}

// Element count times bits, in bytes; nullopt on overflow or a bad shape (issue added).
std::optional<std::uint64_t> expected_bytes(const std::string& name, const json& shape,
                                            unsigned bits, SafetensorsCheck& out) {
  if (!shape.is_array()) {
    add_issue(out, "tensor \"" + name + "\": shape is not an array");
    return std::nullopt;
  }
  std::uint64_t elements = 1;
  bool overflow = false;
  bool empty = false;
  for (const auto& dim : shape) {
    if (!dim.is_number_unsigned()) {
      add_issue(out, "tensor \"" + name + "\": shape " + shape.dump() +
                         " holds something other than non-negative integers");
      return std::nullopt;
    }
    const auto d = dim.get<std::uint64_t>();
    if (d == 0) {
      empty = true;
    } else if (elements > UINT64_MAX / d) {
      overflow = true;
    } else {
      elements *= d;
    }
  }
  if (empty) {
    elements = 0, overflow = false;  // a zero dimension empties any other size
  }
  const unsigned __int128 total_bits = static_cast<unsigned __int128>(elements) * bits;
  if (overflow || (total_bits / 8) > UINT64_MAX) {
    add_issue(out, "tensor \"" + name + "\": shape " + shape.dump() + " overflows 64-bit sizes");
    return std::nullopt;
  }
  if (total_bits % 8 != 0) {
    add_issue(out, "tensor \"" + name + "\": " + std::to_string(elements) + " elements of " +
                       std::to_string(bits) + " bits do not fill whole bytes");
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(total_bits / 8);
}

std::optional<Extent> check_tensor(const std::string& name, const json& info,
                                   SafetensorsCheck& out) {
  if (!info.is_object()) {
    add_issue(out, "tensor \"" + name + "\": entry is not an object");
    return std::nullopt;
  }
  const auto dtype = info.find("dtype");
  const auto shape = info.find("shape");
  const auto offsets = info.find("data_offsets");
  if (dtype == info.end() || shape == info.end() || offsets == info.end()) {
    add_issue(out, "tensor \"" + name + "\": needs dtype, shape and data_offsets");
    return std::nullopt;
  }
  const auto bits =
      dtype->is_string() ? safetensors_dtype_bits(dtype->get<std::string>()) : std::nullopt;
  if (!bits) {
    add_issue(out, "tensor \"" + name + "\": unknown dtype " + dtype->dump());
    return std::nullopt;
  }
  if (!offsets->is_array() || offsets->size() != 2 || !(*offsets)[0].is_number_unsigned() ||
      !(*offsets)[1].is_number_unsigned()) {
    add_issue(
        out, "tensor \"" + name + "\": data_offsets must be [begin, end] of non-negative integers");
    return std::nullopt;
  }
  Extent e{(*offsets)[0].get<std::uint64_t>(), (*offsets)[1].get<std::uint64_t>(), name};
  const auto want = expected_bytes(name, *shape, *bits, out);
  if (!want) {
    return std::nullopt;
  }
  if (e.end < e.begin) {
    add_issue(out, "tensor \"" + name + "\": data_offsets end " + std::to_string(e.end) +
                       " before begin " + std::to_string(e.begin));
    return std::nullopt;
  }
  if (e.end - e.begin != *want) {
    add_issue(out, "tensor \"" + name + "\": " + dtype->get<std::string>() + " " + shape->dump() +
                       " needs " + std::to_string(*want) + " bytes but data_offsets span " +
                       std::to_string(e.end - e.begin));
  }
  return e;
}

void check_metadata(const json& metadata, SafetensorsCheck& out) {
  if (!metadata.is_object()) {
    add_issue(out, "__metadata__ is not an object");
    return;
  }
  for (const auto& [key, value] : metadata.items()) {
    if (!value.is_string()) {
      add_issue(out, "__metadata__ \"" + key + "\" is not a string");
    }
  }
}

void check_tiling(std::vector<Extent>& extents, std::uint64_t data_bytes, SafetensorsCheck& out) {
  std::sort(extents.begin(), extents.end(), [](const Extent& a, const Extent& b) {
    return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
  });
  std::uint64_t cursor = 0;
  const Extent* previous = nullptr;
  for (const auto& e : extents) {
    if (e.begin < cursor) {
      add_issue(out, "tensor \"" + e.name + "\" [" + std::to_string(e.begin) + ", " +
                         std::to_string(e.end) + ") overlaps \"" + previous->name + "\"");
    } else if (e.begin > cursor) {
      add_issue(out, "gap of " + std::to_string(e.begin - cursor) + " bytes before tensor \"" +
                         e.name + "\" at data offset " + std::to_string(cursor));
    }
    if (e.end > data_bytes) {
      add_issue(out, "tensor \"" + e.name + "\" ends at data offset " + std::to_string(e.end) +
                         ", past the end of the file's " + std::to_string(data_bytes) +
                         " data bytes (truncated file?)");
    }
    cursor = std::max(cursor, e.end);
    previous = &e;
  }
  if (cursor < data_bytes) {
    add_issue(out, std::to_string(data_bytes - cursor) +
                       " bytes after the last tensor are not covered by any tensor");
  }
}

// Counts the top-level keys as the parser meets them: a duplicate collapses in the object.
std::size_t count_top_level_keys(std::string_view header) {
  std::size_t keys = 0;
  json::parser_callback_t cb = [&keys](int depth, json::parse_event_t event, json&) {
    if (event == json::parse_event_t::key && depth == 1) {
      ++keys;
    }
    return true;
  };
  const json parsed = json::parse(header.begin(), header.end(), cb, false);
  (void)parsed;
  return keys;
}

}  // namespace

std::optional<unsigned> safetensors_dtype_bits(std::string_view dtype) {
  for (const auto& d : kDtypes) {
    if (d.name == dtype) {
      return d.bits;
    }
  }
  return std::nullopt;
}

void check_safetensors_header(std::string_view header, std::uint64_t file_size_bytes,
                              SafetensorsCheck& out) {
  out.header_bytes = header.size();
  out.data_bytes = file_size_bytes - 8 - header.size();
  const json doc = json::parse(header.begin(), header.end(), nullptr, false);
  if (doc.is_discarded()) {
    add_issue(out, "header is not valid UTF-8 JSON");
    return;
  }
  if (!doc.is_object()) {
    add_issue(out, "header is JSON but not an object");
    return;
  }
  if (count_top_level_keys(header) != doc.size()) {
    add_issue(out, "header lists a name twice");
  }
  std::vector<Extent> extents;
  for (const auto& [name, info] : doc.items()) {
    if (name == "__metadata__") {
      check_metadata(info, out);
      continue;
    }
    ++out.tensors;
    if (auto e = check_tensor(name, info, out)) {
      extents.push_back(std::move(*e));
    }
  }
  check_tiling(extents, out.data_bytes, out);
}

SafetensorsCheck check_safetensors_file(const std::filesystem::path& file) {
  SafetensorsCheck out;
  out.path = file.string();
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    add_issue(out, std::string("cannot open: ") + std::strerror(errno));
    return out;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    add_issue(out, S_ISDIR(st.st_mode) ? "is a directory, not a file" : "not a regular file");
    return out;
  }
  const auto size = static_cast<std::uint64_t>(st.st_size);
  unsigned char prefix[8];
  if (size < 8 || ::pread(fd, prefix, 8, 0) != 8) {
    add_issue(out, "truncated: " + std::to_string(size) +
                       " bytes, shorter than the 8-byte header length");
    return out;
  }
  std::uint64_t n = 0;
  for (int i = 7; i >= 0; --i) {
    n = (n << 8) | prefix[i];
  }
  if (n > kMaxSafetensorsHeaderBytes) {
    add_issue(out, "header length " + std::to_string(n) + " exceeds the " +
                       std::to_string(kMaxSafetensorsHeaderBytes) + "-byte limit");
    return out;
  }
  if (n > size - 8) {
    add_issue(out, "header length " + std::to_string(n) + " runs past the end of the " +
                       std::to_string(size) + "-byte file (truncated?)");
    return out;
  }
  std::string header(n, '\0');
  if (::pread(fd, header.data(), n, 8) != static_cast<ssize_t>(n)) {
    add_issue(out, std::string("header read failed: ") + std::strerror(errno));
    return out;
  }
  check_safetensors_header(header, size, out);
  return out;
}

}  // namespace lb::artifacts
