#pragma once
// The charts of a stored run, read-only: the Run page's six charts (the two context-length
// charts only when the run has a context sweep) drawn from StoredRunSeries, so a reopened run
// looks as it did live. Each chart keeps its context menu for PNG/SVG/PDF export.
#include <QWidget>
#include <memory>
#include <vector>

class QCheckBox;

namespace lb::widgets {
class ChartPanel;
class LanePalette;
}  // namespace lb::widgets

namespace lb::ui {

struct StoredRunSeries;

class StoredCharts : public QWidget {
  Q_OBJECT
 public:
  StoredCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent = nullptr);

  void show_run(const StoredRunSeries& series);
  void clear();
  // As on the Run page: time since each lane started (the default), or since the run started.
  QCheckBox* lane_time_box() const { return lane_time_; }
  std::vector<widgets::ChartPanel*> panels() const;
  widgets::ChartPanel* ttft() const { return ttft_; }
  widgets::ChartPanel* output_rate() const { return output_rate_; }
  widgets::ChartPanel* itl() const { return itl_; }
  widgets::ChartPanel* tokens_per_event() const { return tokens_per_event_; }
  widgets::ChartPanel* decode_vs_context() const { return decode_ctx_; }
  widgets::ChartPanel* ttft_vs_context() const { return ttft_ctx_; }

 private:
  std::shared_ptr<widgets::LanePalette> palette_;
  widgets::ChartPanel* output_rate_ = nullptr;
  widgets::ChartPanel* ttft_ = nullptr;
  widgets::ChartPanel* itl_ = nullptr;
  widgets::ChartPanel* tokens_per_event_ = nullptr;
  widgets::ChartPanel* decode_ctx_ = nullptr;
  widgets::ChartPanel* ttft_ctx_ = nullptr;
  QString ttft_title_;  // the TTFT chart's own title, before any "1 in N shown"
  QCheckBox* lane_time_ = nullptr;
  std::unique_ptr<StoredRunSeries> shown_;  // redrawn when the time axis changes
};

}  // namespace lb::ui
