#pragma once
// A small checkpoint for the screenshot tour's Verify page: two safetensors shards, a config and
// a tokenizer, an inventory pinning them — with one shard changed after pinning and a pickle
// left beside them, so the page has a mismatch and a refuse-list finding to show.
#include <QString>

namespace lb::ui {

// Writes the checkpoint into dir/model and the inventory to dir/inventory.json. Returns the
// inventory path, or an empty string (and *error) when the files cannot be written.
QString write_demo_checkpoint(const QString& dir, QString* error);

}  // namespace lb::ui
