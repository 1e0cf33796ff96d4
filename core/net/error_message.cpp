#include "core/net/error_message.h"

namespace lb::net {

namespace {

std::string scalar_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return std::to_string(v.get<int64_t>());
  return {};
}

std::string with_detail(std::string message, const nlohmann::json& holder, const char* key) {
  const auto it = holder.find(key);
  if (it == holder.end()) return message;
  const std::string detail = scalar_text(*it);
  if (detail.empty() || detail == message) return message;
  return message + " (" + detail + ")";
}

std::string message_from_object(const nlohmann::json& e) {
  std::string message;
  if (const auto m = e.find("message"); m != e.end() && m->is_string()) {
    message = m->get<std::string>();
  }
  if (message.empty()) message = "error without a message: " + e.dump();
  return with_detail(std::move(message), e, "type");
}

}  // namespace

std::optional<std::string> error_message_of(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  const auto err = j.find("error");
  if (err != j.end()) {
    if (err->is_object()) return message_from_object(*err);
    if (err->is_string() && !err->get_ref<const std::string&>().empty()) {
      return with_detail(err->get<std::string>(), j, "error_type");
    }
  }
  if (const auto obj = j.find("object"); obj != j.end() && obj->is_string() && *obj == "error") {
    return message_from_object(j);
  }
  return std::nullopt;
}

std::string error_message_from_body(std::string_view body) {
  const auto parsed = nlohmann::json::parse(body.begin(), body.end(), nullptr, false);
  if (!parsed.is_discarded()) {
    if (auto message = error_message_of(parsed)) return *message;
  }
  const size_t b = body.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  std::string_view text = body.substr(b, 300);
  const size_t e = text.find_last_not_of(" \t\r\n");
  return std::string(text.substr(0, e + 1));
}

}  // namespace lb::net
