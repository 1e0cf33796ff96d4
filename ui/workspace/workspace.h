#pragma once
// A workspace is a folder a user owns: lanes.json (the lanes, in the plan file's lane format),
// plans/ (plan files), runs/ (one run folder per run), workspace.json (its id). No secrets are
// stored: a lane names the environment variable that holds its key, or refers to its item in the
// OS keyring, which is bound to the workspace's id.
#include <QString>
#include <vector>

#include "core/plan/plan.h"

namespace lb::ui {

class Workspace {
 public:
  // Opens (creating folders if needed) the workspace at dir; lanes.json is read if present.
  // Returns false and fills *error when the folder cannot be used.
  bool open(const QString& dir, QString* error);
  // Writes a demo workspace (simulator lanes) into dir unless it already has lanes.json, and its
  // qualification plan (plans/demo-qualification.json) unless that is there.
  static bool create_demo(const QString& dir, QString* error);
  static QString default_dir();  // AppDataLocation/workspaces/default

  QString dir() const { return dir_; }
  QString id() const { return id_; }  // kept in workspace.json; keys its keyring items
  QString name() const;
  QString runs_dir() const;
  QString plans_dir() const;
  bool is_open() const { return !dir_.isEmpty(); }

  const std::vector<plan::Lane>& lanes() const { return lanes_; }
  bool set_lanes(std::vector<plan::Lane> lanes, QString* error);  // saves lanes.json at once

  // A new, unused run folder path under runs/ named after the time and the plan.
  QString new_run_dir(const QString& label) const;

 private:
  QString dir_;
  QString id_;
  std::vector<plan::Lane> lanes_;
};

// The demo lanes: sim:bf16, sim:fp8, sim:fp8-mtp3 at a time scale that makes the built-in
// regression take about half a minute.
std::vector<plan::Lane> demo_lanes();

}  // namespace lb::ui
