#include "core/plan/environment.h"

extern char** environ;

namespace lb::plan {

Environment Environment::of_process() {
  Variables variables;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string_view entry(*e);
    const size_t eq = entry.find('=');
    if (eq != std::string_view::npos)
      variables.emplace(std::string(entry.substr(0, eq)), std::string(entry.substr(eq + 1)));
  }
  return Environment(std::move(variables));
}

std::optional<std::string> Environment::get(std::string_view name) const {
  const auto it = variables_.find(name);
  if (it == variables_.end()) return std::nullopt;
  return it->second;
}

Environment Environment::with(std::string name, std::string value) const {
  Environment copy = *this;
  copy.variables_[std::move(name)] = std::move(value);
  return copy;
}

Environment Environment::allowing_key(std::string name, std::string host) const {
  Environment copy = *this;
  copy.allowed_keys_.emplace(std::move(name), std::move(host));
  return copy;
}

bool Environment::allows_key(std::string_view name, std::string_view host) const {
  const std::string n(name);
  return allowed_keys_.count({n, "*"}) > 0 || allowed_keys_.count({n, std::string(host)}) > 0;
}

}  // namespace lb::plan
