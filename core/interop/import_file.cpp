#include "core/interop/import_file.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "core/files/regular_file.h"
#include "core/interop/guidellm_report_reader.h"
#include "core/interop/vllm_result_reader.h"

namespace lb::interop {
namespace {

constexpr size_t kMaxListedKeys = 8;

// One document, or (vLLM --append-result) one document per non-empty line.
bool parse_documents(const std::string& text, const std::string& file_name,
                     std::vector<nlohmann::json>& docs, std::string& error) {
  try {
    docs.push_back(nlohmann::json::parse(text));
    return true;
  } catch (const nlohmann::json::parse_error& whole) {
    docs.clear();
    std::istringstream lines(text);
    std::string line;
    int line_no = 0;
    while (std::getline(lines, line)) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      try {
        docs.push_back(nlohmann::json::parse(line));
      } catch (const nlohmann::json::parse_error&) {
        error = file_name + ": not JSON (" + whole.what() + ")";
        return false;
      }
    }
    if (docs.size() < 2) {
      error = file_name + ": not JSON (" + whole.what() + ")";
      return false;
    }
    return true;
  }
}

std::string key_list(const nlohmann::json& doc) {
  if (!doc.is_object())
    return "it is " + std::string(doc.is_array() ? "an array" : "not an object");
  std::string keys;
  size_t n = 0;
  for (const auto& item : doc.items()) {
    if (n++ == kMaxListedKeys) {
      keys += ", ...";
      break;
    }
    keys += (keys.empty() ? "" : ", ") + item.key();
  }
  return "top-level keys: " + (keys.empty() ? std::string("none") : keys);
}

ImportFormat detect(const std::vector<nlohmann::json>& docs) {
  if (docs.size() == 1 && looks_like_guidellm_report(docs[0])) return ImportFormat::GuideLlm;
  if (!docs.empty() && looks_like_vllm_result(docs[0])) return ImportFormat::Vllm;
  return ImportFormat::Auto;
}

}  // namespace

const char* to_string(ImportFormat format) {
  switch (format) {
    case ImportFormat::Vllm:
      return "vllm";
    case ImportFormat::GuideLlm:
      return "guidellm";
    case ImportFormat::Auto:
      return "auto";
  }
  return "auto";
}

bool parse_import_format(const std::string& text, ImportFormat* out) {
  for (ImportFormat f : {ImportFormat::Auto, ImportFormat::Vllm, ImportFormat::GuideLlm})
    if (text == to_string(f)) {
      *out = f;
      return true;
    }
  return false;
}

ImportReadResult read_import_text(const std::string& text, const std::string& file_name,
                                  ImportFormat format) {
  ImportReadResult out;
  if (text.find_first_not_of(" \t\r\n") == std::string::npos) {
    out.error = file_name + ": the file is empty";
    return out;
  }
  std::vector<nlohmann::json> docs;
  if (!parse_documents(text, file_name, docs, out.error)) return out;
  const ImportFormat found = detect(docs);
  if (format == ImportFormat::Auto) format = found;
  switch (format) {
    case ImportFormat::Vllm:
      return read_vllm_results(docs, file_name);
    case ImportFormat::GuideLlm:
      if (docs.size() != 1) {
        out.error = file_name + ": a GuideLLM report is one JSON document, found " +
                    std::to_string(docs.size());
        return out;
      }
      return read_guidellm_report(docs[0], file_name);
    case ImportFormat::Auto:
      break;
  }
  out.error = file_name +
              ": neither a vLLM bench serve result (completed, duration, mean_ttft_ms) nor a "
              "GuideLLM report (benchmarks); " +
              key_list(docs[0]);
  return out;
}

ImportReadResult read_import_file(const std::string& path, ImportFormat format) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    ImportReadResult out;
    out.error = path + " is a folder; give the result file";
    return out;
  }
  // A result file is a few MiB; /dev/zero or a FIFO given by mistake is refused.
  constexpr size_t kMaxImportBytes = 1024 * files::kMiB;
  std::string error;
  const auto text = files::read_regular_file(path, kMaxImportBytes, &error);
  if (!text) {
    ImportReadResult out;
    out.error = "cannot read " + path + ": " + files::error_reason(error, path);
    return out;
  }
  return read_import_text(*text, path, format);
}

}  // namespace lb::interop
