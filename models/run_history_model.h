#pragma once
// The run folders of a workspace, newest first. An incomplete run (stopped or killed) is listed
// like any other, with its status in a column of its own (bold, amber).
#include <QAbstractTableModel>
#include <QDateTime>
#include <QStringList>
#include <vector>

namespace lb::models {

struct RunFolderInfo {
  QString path;  // absolute folder path
  QString name;  // folder name
  QString plan_name;
  QDateTime started;
  QStringList lanes;
  QStringList experiments;
  qint64 requests = 0;  // lines in requests.jsonl
  bool has_review = false;
  // False when the run was stopped or killed before it finished (summary.json missing, without
  // run.finished_at, or marked interrupted): still listed and opened, shown as incomplete.
  bool complete = true;
  bool partial = false;  // merged from shards with some missing (docs/fleet.md)
  QString decision;      // decision.json's decision ("promote", ...), empty when none was saved
  // What could not be read, each naming the file and the field ("plan.json: lanes[0].id is not a
  // string"). A run with problems is listed as damaged, with these as the reason.
  QStringList problems;
};

// Newest start first, keeping the scan order among equal starts: the Runs page's order, which the
// Attach dialog's run list follows.
void sort_newest_first(std::vector<RunFolderInfo>& runs);

class RunHistoryModel : public QAbstractTableModel {
  Q_OBJECT
 public:
  enum Column {
    Started,
    Name,
    Status,
    Lanes,
    Experiments,
    Requests,
    Review,
    Decision,
    ColumnCount
  };
  using QAbstractTableModel::QAbstractTableModel;

  void set_runs(std::vector<RunFolderInfo> runs);  // sorted newest first here
  const RunFolderInfo* run_at(int row) const;

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override;

 private:
  std::vector<RunFolderInfo> runs_;
};

}  // namespace lb::models
