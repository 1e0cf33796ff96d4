#pragma once
// Custom roles shared by LaneBench's models, so views and delegates ask for them by name.
#include <Qt>

namespace lb::models {

enum ItemRole : int {
  ProvenanceRole = Qt::UserRole + 1,  // QString "measured" / "server" / "estimated" / ""
  SortRole,                           // raw number or key for sorting
  LaneIdRole,                         // QString lane id of the row
  TriageRole,                         // QString "identical" / "similar" / "divergent" / ...
  VerdictRole,                        // QString verdict key, "" when unreviewed
  CategoryRole,                       // QString prompt category
  PromptIndexRole,                    // int index of the prompt in its set
  GateStatusRole,                     // QString "pass" / "fail" / "unsupported" / "not run"
  CauseRole,                          // QString token-evidence cause ("near_tie", ...), "" if none
};

}  // namespace lb::models
