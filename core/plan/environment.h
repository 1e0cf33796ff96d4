#pragma once
// The environment variables a run may read: a lane's API key, a simulator lane's key, and what
// a managed server inherits. A value, not the process's live environment: a program takes it with
// Environment::of_process(), tests fill their own. setenv/unsetenv are not thread-safe (they may
// move `environ` while another thread walks it), so LaneBench never changes its own environment
// once it has started, and takes what it reads from a value like this one.
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>

namespace lb::plan {

class Environment {
 public:
  using Variables = std::map<std::string, std::string, std::less<>>;

  Environment() = default;
  explicit Environment(Variables variables) : variables_(std::move(variables)) {}

  // A copy of this process's environment as it is now (only reads `environ`).
  static Environment of_process();

  // The variable's value; nullopt when it is not set.
  std::optional<std::string> get(std::string_view name) const;
  const Variables& variables() const { return variables_; }
  // A copy with `name` set to `value`.
  Environment with(std::string name, std::string value) const;

  // Which variables a lane may send as its API key, and to which host (keyring_host()'s form;
  // "*" for any). A plan comes from anyone and the key goes to its base_url, so no variable is
  // sent that the user did not allow (lanebench-cli run --allow-env NAME; the workbench asks and
  // remembers per workspace, host and variable), whatever its name.
  Environment allowing_key(std::string name, std::string host = "*") const;
  bool allows_key(std::string_view name, std::string_view host) const;

 private:
  Variables variables_;
  std::set<std::pair<std::string, std::string>, std::less<>> allowed_keys_;  // (name, host)
};

}  // namespace lb::plan
