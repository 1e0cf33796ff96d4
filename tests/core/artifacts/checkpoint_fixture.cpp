#include "checkpoint_fixture.h"

#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/artifacts/sha256.h"

namespace lb::artifacts::testing {
namespace fs = std::filesystem;
namespace {

void put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) {
    out += static_cast<char>((v >> (8 * i)) & 0xff);
  }
}

std::uint32_t crc32(const std::string& data) {
  std::uint32_t crc = 0xffffffffu;
  for (unsigned char c : data) {
    crc ^= c;
    for (int k = 0; k < 8; ++k) {
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
    }
  }
  return ~crc;
}

std::string git_blob_sha1(const std::string& content) {
  const std::string blob =
      "blob " + std::to_string(content.size()) + std::string(1, '\0') + content;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  EVP_Digest(blob.data(), blob.size(), digest, &size, EVP_sha1(), nullptr);
  std::string hex;
  char buf[3];
  for (unsigned i = 0; i < size; ++i) {
    std::snprintf(buf, sizeof buf, "%02x", digest[i]);
    hex += buf;
  }
  return hex;
}

}  // namespace

std::string safetensors_bytes(const std::vector<TensorSpec>& tensors,
                              const std::string& metadata_json) {
  nlohmann::ordered_json header = nlohmann::ordered_json::object();
  if (!metadata_json.empty()) {
    header["__metadata__"] = nlohmann::ordered_json::parse(metadata_json);
  }
  std::string data;
  for (const auto& t : tensors) {
    std::uint64_t elements = 1;
    for (auto d : t.shape) {
      elements *= d;
    }
    const std::uint64_t bytes = elements * t.bits_per_element / 8;
    const std::uint64_t begin = data.size();
    for (std::uint64_t i = 0; i < bytes; ++i) {
      data += static_cast<char>((begin + i * 7) & 0xff);
    }
    header[t.name] = {
        {"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {begin, data.size()}}};
  }
  std::string text = header.dump();
  while (text.size() % 8 != 0) {
    text += ' ';
  }
  return raw_safetensors(text.size(), text, data);
}

std::string raw_safetensors(std::uint64_t declared_header_bytes, const std::string& header,
                            const std::string& data) {
  std::string out;
  put_le(out, declared_header_bytes, 8);
  return out + header + data;
}

std::string zip_bytes(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out;
  std::string directory;
  for (const auto& [name, content] : members) {
    const std::uint64_t offset = out.size();
    const std::uint32_t crc = crc32(content);
    put_le(out, 0x04034b50, 4);
    put_le(out, 20, 2), put_le(out, 0, 2), put_le(out, 0, 2), put_le(out, 0, 2), put_le(out, 0, 2);
    put_le(out, crc, 4), put_le(out, content.size(), 4), put_le(out, content.size(), 4);
    put_le(out, name.size(), 2), put_le(out, 0, 2);
    out += name + content;
    put_le(directory, 0x02014b50, 4);
    put_le(directory, 20, 2), put_le(directory, 20, 2), put_le(directory, 0, 2);
    put_le(directory, 0, 2), put_le(directory, 0, 2), put_le(directory, 0, 2);
    put_le(directory, crc, 4), put_le(directory, content.size(), 4);
    put_le(directory, content.size(), 4), put_le(directory, name.size(), 2);
    put_le(directory, 0, 2), put_le(directory, 0, 2), put_le(directory, 0, 2);
    put_le(directory, 0, 2), put_le(directory, 0, 4), put_le(directory, offset, 4);
    directory += name;
  }
  const std::uint64_t directory_offset = out.size();
  out += directory;
  put_le(out, 0x06054b50, 4);
  put_le(out, 0, 2), put_le(out, 0, 2), put_le(out, members.size(), 2),
      put_le(out, members.size(), 2);
  put_le(out, directory.size(), 4), put_le(out, directory_offset, 4), put_le(out, 0, 2);
  return out;
}

void write_file(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) {
    throw std::runtime_error("cannot write " + path.string());
  }
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string add_hf_file(const fs::path& repo_dir, const std::string& revision,
                        const std::string& name, const std::string& content, bool lfs) {
  const std::string digest = lfs ? sha256_hex(content) : git_blob_sha1(content);
  write_file(repo_dir / "blobs" / digest, content);
  const fs::path link = repo_dir / "snapshots" / revision / name;
  fs::create_directories(link.parent_path());
  fs::path target = "../..";  // snapshots/<rev>/ -> repo
  const fs::path subdirs = fs::path(name).parent_path();
  for (auto it = subdirs.begin(); it != subdirs.end(); ++it) {
    target /= "..";
  }
  fs::create_symlink(target / "blobs" / digest, link);
  return digest;
}

}  // namespace lb::artifacts::testing
