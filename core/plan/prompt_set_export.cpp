#include "core/plan/prompt_set_export.h"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "core/media/known_answer_items.h"
#include "core/plan/builtin_multimodal_set.h"

namespace lb::plan {
namespace {

namespace fs = std::filesystem;
using nlohmann::ordered_json;

std::string export_extension_of(const std::string& mime) {
  static const std::map<std::string, std::string> known = {
      {"image/png", ".png"},       {"image/jpeg", ".jpg"},  {"video/mp4", ".mp4"},
      {"video/quicktime", ".mov"}, {"video/webm", ".webm"}, {"video/x-matroska", ".mkv"},
      {"video/x-msvideo", ".avi"}, {"video/avi", ".avi"}};
  const auto it = known.find(mime);
  return it == known.end() ? ".bin" : it->second;
}

// "builtin:multimodal-30/shapes-0" -> "shapes-0", "imgs/a b.png" -> "a_b".
std::string export_stem_of(const std::string& source) {
  std::string name = source.substr(source.find_last_of("/\\:") + 1);
  if (const size_t dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.resize(dot);
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') c = '_';
  return name.empty() ? "medium" : name;
}

bool export_write_bytes(const fs::path& path, const std::string& bytes, std::string* error) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (out) return true;
  *error = "cannot write " + path.string();
  return false;
}

// Ground truth of the built-in generated media, by name (empty for any other set).
std::map<std::string, media::ItemMedia> export_builtin_truth(const PromptSet& set) {
  std::map<std::string, media::ItemMedia> out;
  if (set.name != "builtin:" + std::string(kMultimodalSetName)) return out;
  for (auto& item : media::multimodal_items())
    for (auto& m : item.media) {
      m.bytes.clear();
      out.emplace(m.name, std::move(m));
    }
  return out;
}

ordered_json export_manifest_entry(const MediaRef& m, const std::string& file,
                                   const media::ItemMedia* truth) {
  ordered_json e = {{"file", file},
                    {"kind", std::string(media_kind_name(m.kind))},
                    {"mime", m.mime},
                    {"bytes", m.bytes->size()},
                    {"width_px", m.width_px},
                    {"height_px", m.height_px},
                    {"frames", m.kind == MediaKind::Video ? m.frames : 1}};
  if (truth && truth->fps > 0) e["fps"] = truth->fps;
  if (truth && truth->last_square) {
    const media::SquareTruth& sq = *truth->last_square;
    e["last_square"] = {{"colour", sq.colour},
                        {"rgb", {sq.rgb.r, sq.rgb.g, sq.rgb.b}},
                        {"left_px", sq.left_px},
                        {"top_px", sq.top_px},
                        {"side_px", sq.side_px}};
  }
  return e;
}

}  // namespace

std::string media_file_name(const MediaRef& m,
                            const std::map<std::string, const std::string*>& taken) {
  const std::string stem = export_stem_of(m.source);
  const std::string ext = export_extension_of(m.mime);
  std::string file = stem + ext;
  for (int n = 2; m.bytes && taken.count(file) && *taken.at(file) != *m.bytes; ++n)
    file = stem + "-" + std::to_string(n) + ext;
  return file;
}

PromptSetExport export_prompt_set(const PromptSet& set, const std::string& dir) {
  PromptSetExport out;
  const fs::path root(dir);
  std::error_code ec;
  fs::create_directories(root / "media", ec);
  if (ec) {
    out.error = "cannot create " + (root / "media").string() + ": " + ec.message();
    return out;
  }
  const auto truth = export_builtin_truth(set);
  std::map<std::string, const std::string*> written;        // file -> bytes it holds
  std::map<std::string, const std::string*> written_names;  // the same, without "media/"
  ordered_json manifest = ordered_json::array();
  std::string jsonl;
  for (const PromptSpec& p : set.prompts) {
    ordered_json line = {{"id", p.id}};
    if (!p.category.empty()) line["category"] = p.category;
    if (p.messages.empty()) {
      line["prompt"] = p.prompt;
    } else {
      line["messages"] = ordered_json::array();
      for (const auto& m : p.messages)
        line["messages"].push_back({{"role", m.role}, {"content", m.content}});
    }
    line["max_tokens"] = p.max_tokens;
    if (!p.checks.empty()) {
      line["checks"] = ordered_json::array();
      for (const auto& c : p.checks) line["checks"].push_back(ordered_json(check_to_json(c)));
    }
    if (!p.media.empty()) line["media"] = ordered_json::array();
    for (const MediaRef& m : p.media) {
      const std::string kind(media_kind_name(m.kind));
      if (!m.bytes) {
        line["media"].push_back({{kind + "_url", m.url}});
        continue;
      }
      const std::string stem = export_stem_of(m.source);
      const std::string file = "media/" + media_file_name(m, written_names);
      written_names[file.substr(6)] = m.bytes.get();
      if (!written.count(file)) {
        if (!export_write_bytes(root / file, *m.bytes, &out.error)) return out;
        written[file] = m.bytes.get();
        const auto t = truth.find(stem);
        manifest.push_back(export_manifest_entry(m, file, t == truth.end() ? nullptr : &t->second));
        ++out.media_files;
      }
      line["media"].push_back({{kind, file}});
    }
    jsonl += line.dump() + "\n";
  }
  out.jsonl_path = (root / "prompts.jsonl").string();
  out.manifest_path = (root / "media.json").string();
  if (!export_write_bytes(out.jsonl_path, jsonl, &out.error)) return out;
  const ordered_json doc = {{"prompt_set", set.name}, {"media", manifest}};
  export_write_bytes(out.manifest_path, doc.dump(2) + "\n", &out.error);
  return out;
}

}  // namespace lb::plan
