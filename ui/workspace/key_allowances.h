#pragma once
// The API-key variables the user allowed a workspace's lanes to send, each to one host. A plan
// (or a lane) can come from anyone and its key goes to its base_url, so a variable is sent only
// once the user said yes for that host; the answer is remembered in the user's own settings,
// keyed by the workspace's folder, never in the folder itself (which may come from elsewhere).
#include <QString>
#include <string>

#include "core/plan/environment.h"
#include "core/plan/plan.h"

class QWidget;

namespace lb::ui {

class KeyAllowances {
 public:
  explicit KeyAllowances(QString workspace_dir);

  bool allows(const std::string& variable, const std::string& host) const;
  void allow(const std::string& variable, const std::string& host);

  // Asks about every lane of `plan` whose variable is not yet allowed for its host (keyring
  // lanes need no answer). False with *error when the user said no to one.
  bool confirm(QWidget* parent, const plan::Plan& plan, QString* error);

  // This process's environment with every remembered allowance of the workspace.
  plan::Environment environment() const;

 private:
  QString group() const;
  QString workspace_dir_;
};

}  // namespace lb::ui
