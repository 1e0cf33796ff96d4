#include "ui/tour/demo_checkpoint.h"

#include <QDir>
#include <QFile>
#include <nlohmann/json.hpp>
#include <string>

#include "core/artifacts/sha256.h"

namespace lb::ui {
namespace {

// A valid safetensors file: 8-byte little-endian header length, the JSON header padded with
// spaces to a multiple of 8, then the tensor's bytes.
std::string safetensors(const std::string& name, int elements, char fill) {
  const nlohmann::json header = {
      {name, {{"dtype", "BF16"}, {"shape", {elements}}, {"data_offsets", {0, 2 * elements}}}}};
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  std::string out(8, '\0');
  for (int i = 0; i < 8; ++i) out[i] = static_cast<char>((text.size() >> (8 * i)) & 0xff);
  return out + text + std::string(static_cast<size_t>(2 * elements), fill);
}

bool write(const QString& path, const std::string& bytes, QString* error) {
  QDir().mkpath(QFileInfo(path).path());
  QFile file(path);
  if (file.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
      file.write(bytes.data(), static_cast<qint64>(bytes.size())) ==
          static_cast<qint64>(bytes.size()))
    return true;
  *error = QObject::tr("cannot write %1: %2").arg(path, file.errorString());
  return false;
}

}  // namespace

QString write_demo_checkpoint(const QString& dir, QString* error) {
  const QDir root(dir);
  const std::vector<std::pair<QString, std::string>> files = {
      {"model-00001-of-00002.safetensors", safetensors("embed.weight", 4096, 'a')},
      {"model-00002-of-00002.safetensors", safetensors("lm_head.weight", 2048, 'b')},
      {"config.json", R"({"architectures": ["Qwen3ForCausalLM"], "torch_dtype": "bfloat16"})"},
      {"tokenizer.json", R"({"model": {"type": "BPE", "vocab": {"a": 0}}})"}};
  nlohmann::json inventory = nlohmann::json::object();
  for (const auto& [name, bytes] : files) {
    inventory[name.toStdString()] = artifacts::sha256_hex(bytes);
    if (!write(root.filePath("model/" + name), bytes, error)) return {};
  }
  // Changed after it was pinned, and a pickle a loader would find.
  if (!write(root.filePath("model/model-00002-of-00002.safetensors"),
             safetensors("lm_head.weight", 2048, 'c'), error) ||
      !write(root.filePath("model/pytorch_model.bin"), std::string("\x80\x04\x95", 3) + "demo",
             error) ||
      !write(root.filePath("inventory.json"), inventory.dump(2), error))
    return {};
  return root.filePath("inventory.json");
}

}  // namespace lb::ui
