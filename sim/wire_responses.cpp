#include "wire_responses.h"

namespace lb::sim {

using ojson = nlohmann::ordered_json;

ResponsesEncoder::ResponsesEncoder(WireContext context, const OutputScript* script)
    : c_(std::move(context)), script_(script) {}

std::string ResponsesEncoder::event(const std::string& type, ojson body) {
  body["sequence_number"] = seq_++;
  body["type"] = type;
  return "event: " + type + "\ndata: " + body.dump() + "\n\n";
}

ojson ResponsesEncoder::item_json(size_t index, bool done) const {
  const OutputItem& it = items_[index];
  ojson j;
  const char* status = done ? "completed" : "in_progress";
  if (it.kind == Item::Reasoning) {
    j["id"] = it.id;
    j["summary"] = ojson::array();
    j["type"] = "reasoning";
    j["content"] =
        done ? ojson::array({{{"text", it.text}, {"type", "reasoning_text"}}}) : ojson::array();
    j["status"] = status;
  } else if (it.kind == Item::Message) {
    j["id"] = it.id;
    j["content"] = done ? ojson::array({{{"annotations", ojson::array()},
                                         {"text", it.text},
                                         {"type", "output_text"},
                                         {"logprobs", ojson::array()}}})
                        : ojson::array();
    j["role"] = "assistant";
    j["status"] = status;
    j["type"] = "message";
  } else {
    const PlannedToolCall& call = script_->tool_calls.at(static_cast<size_t>(it.tool_index));
    j["arguments"] = done ? it.text : "";
    j["call_id"] = call.id;
    j["name"] = call.name;
    j["type"] = "function_call";
    j["id"] = it.id;
    j["status"] = status;
  }
  return j;
}

ojson ResponsesEncoder::response_object(const char* status, const UsageSoFar* usage) const {
  ojson r;
  r["id"] = c_.id;
  r["created_at"] = c_.created;
  r["model"] = c_.model;
  r["object"] = "response";
  r["status"] = status;
  ojson output = ojson::array();
  if (usage) {
    for (size_t i = 0; i < items_.size(); ++i) output.push_back(item_json(i, true));
  }
  r["output"] = output;
  if (usage) {
    ojson u;
    u["input_tokens"] = c_.prompt_tokens;
    u["input_tokens_details"] = {{"cached_tokens", c_.cached_tokens}};
    u["output_tokens"] = usage->completion_tokens;
    u["output_tokens_details"] = {{"reasoning_tokens", usage->reasoning_tokens}};
    u["total_tokens"] = c_.prompt_tokens + usage->completion_tokens;
    r["usage"] = u;
  } else {
    r["usage"] = nullptr;
  }
  return r;
}

std::vector<std::string> ResponsesEncoder::start() {
  return {event("response.created", {{"response", response_object("in_progress", nullptr)}}),
          event("response.in_progress", {{"response", response_object("in_progress", nullptr)}})};
}

void ResponsesEncoder::open_item(Item kind, int tool_index, std::vector<std::string>& out) {
  OutputItem it;
  it.kind = kind;
  it.tool_index = tool_index;
  const std::string n = std::to_string(items_.size());
  it.id = (kind == Item::Reasoning ? "rs_"
           : kind == Item::Message ? "msg_"
                                   : "fc_") +
          c_.id.substr(c_.id.find('_') + 1) + n;
  items_.push_back(it);
  open_ = true;
  const size_t index = items_.size() - 1;
  ojson body;
  body["item"] = item_json(index, false);
  body["output_index"] = index;
  out.push_back(event("response.output_item.added", body));
  ojson part;
  part["content_index"] = 0;
  part["item_id"] = it.id;
  part["output_index"] = index;
  if (kind == Item::Reasoning) {
    part["part"] = {{"text", ""}, {"type", "reasoning_text"}};
    out.push_back(event("response.reasoning_part.added", part));
  } else if (kind == Item::Message) {
    part["part"] = {{"annotations", ojson::array()},
                    {"text", ""},
                    {"type", "output_text"},
                    {"logprobs", ojson::array()}};
    out.push_back(event("response.content_part.added", part));
  }
}

void ResponsesEncoder::close_item(std::vector<std::string>& out) {
  if (!open_) return;
  open_ = false;
  const size_t index = items_.size() - 1;
  const OutputItem& it = items_.back();
  ojson base;
  base["content_index"] = 0;
  base["item_id"] = it.id;
  if (it.kind == Item::Reasoning) {
    ojson done = base;
    done["output_index"] = index;
    done["text"] = it.text;
    out.push_back(event("response.reasoning_text.done", done));
    ojson part = base;
    part["output_index"] = index;
    part["part"] = {{"text", it.text}, {"type", "reasoning_text"}};
    out.push_back(event("response.reasoning_part.done", part));
  } else if (it.kind == Item::Message) {
    ojson done = base;
    done["logprobs"] = ojson::array();
    done["output_index"] = index;
    done["text"] = it.text;
    out.push_back(event("response.output_text.done", done));
    ojson part = base;
    part["output_index"] = index;
    part["part"] = {{"annotations", ojson::array()},
                    {"text", it.text},
                    {"type", "output_text"},
                    {"logprobs", ojson::array()}};
    out.push_back(event("response.content_part.done", part));
  } else {
    ojson done;
    done["arguments"] = it.text;
    done["item_id"] = it.id;
    done["output_index"] = index;
    out.push_back(event("response.function_call_arguments.done", done));
  }
  ojson item;
  item["item"] = item_json(index, true);
  item["output_index"] = index;
  out.push_back(event("response.output_item.done", item));
}

void ResponsesEncoder::append_text(const std::string& text, std::vector<std::string>& out) {
  OutputItem& it = items_.back();
  it.text += text;
  const size_t index = items_.size() - 1;
  ojson body;
  if (it.kind == Item::Function) {
    body["delta"] = text;
    body["item_id"] = it.id;
    body["output_index"] = index;
    out.push_back(event("response.function_call_arguments.delta", body));
    return;
  }
  body["content_index"] = 0;
  body["delta"] = text;
  body["item_id"] = it.id;
  if (it.kind == Item::Message) body["logprobs"] = ojson::array();
  body["output_index"] = index;
  out.push_back(event(
      it.kind == Item::Reasoning ? "response.reasoning_text.delta" : "response.output_text.delta",
      body));
}

std::vector<std::string> ResponsesEncoder::tokens(int64_t begin, int64_t end) {
  std::vector<std::string> out;
  std::string pending;
  for (int64_t i = begin; i < end && i < script_->size(); ++i) {
    const ScriptToken& t = script_->tokens[static_cast<size_t>(i)];
    Item kind = t.channel == Channel::Reasoning ? Item::Reasoning
                : t.channel == Channel::Content ? Item::Message
                                                : Item::Function;
    const bool same = open_ && items_.back().kind == kind &&
                      (kind != Item::Function || items_.back().tool_index == t.tool_index);
    if (!same) {
      if (!pending.empty()) append_text(pending, out);
      pending.clear();
      close_item(out);
      open_item(kind, t.tool_index, out);
    }
    if (t.channel != Channel::ToolHeader) pending += t.text;
  }
  if (!pending.empty()) append_text(pending, out);
  return out;
}

std::vector<std::string> ResponsesEncoder::finish(const UsageSoFar& usage) {
  std::vector<std::string> out;
  close_item(out);
  out.push_back(event("response.completed", {{"response", response_object("completed", &usage)}}));
  return out;
}

std::string ResponsesEncoder::full_response(const UsageSoFar& usage) {
  tokens(0, script_->size());
  std::vector<std::string> ignored;
  close_item(ignored);
  return response_object("completed", &usage).dump();
}

}  // namespace lb::sim
