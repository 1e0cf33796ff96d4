#include "core/plan/builtin_multimodal_set.h"

#include <memory>

#include "core/media/known_answer_items.h"

namespace lb::plan {
namespace {

FactCheck to_check(const media::ItemCheck& c) {
  FactCheck check;
  switch (c.kind) {
    case media::ItemCheck::Kind::Contains:
      check.type = CheckType::MustContain;
      check.text = c.text;
      check.ignore_case = true;
      break;
    case media::ItemCheck::Kind::NotContains:
      check.type = CheckType::MustNotContain;
      check.text = c.text;
      check.ignore_case = true;
      break;
    case media::ItemCheck::Kind::Word:
      check.type = CheckType::Regex;
      check.text = "\\b" + c.text + "\\b";
      check.ignore_case = true;
      break;
    case media::ItemCheck::Kind::Number:
      check.type = CheckType::Numeric;
      check.number = c.number;
      break;
  }
  return check;
}

MediaRef to_ref(media::ItemMedia m) {
  MediaRef ref;
  ref.kind = m.video ? MediaKind::Video : MediaKind::Image;
  ref.mime = m.mime;
  ref.bytes = std::make_shared<const std::string>(std::move(m.bytes));
  ref.source = "builtin:" + std::string(kMultimodalSetName) + "/" + m.name;
  ref.width_px = m.width_px;
  ref.height_px = m.height_px;
  ref.frames = m.video ? m.frames : 0;
  return ref;
}

}  // namespace

PromptSet multimodal_prompt_set() {
  // Encoding takes a moment; the media bytes are immutable and shared by every copy.
  static const PromptSet kSet = [] {
    PromptSet set;
    set.name = "builtin:" + std::string(kMultimodalSetName);
    for (auto& item : media::multimodal_items()) {
      PromptSpec spec;
      spec.id = item.id;
      spec.category = item.category;
      spec.prompt = item.question;
      spec.max_tokens = 64;
      for (const auto& c : item.checks) spec.checks.push_back(to_check(c));
      for (auto& m : item.media) spec.media.push_back(to_ref(std::move(m)));
      set.prompts.push_back(std::move(spec));
    }
    return set;
  }();
  return kSet;
}

}  // namespace lb::plan
