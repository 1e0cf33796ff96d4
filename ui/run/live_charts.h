#pragma once
// The Run page's charts: aggregate output tok/s over time, TTFT per request over time, ITL
// distribution, tokens per event, and (once a context sweep reports) decode rate and TTFT versus
// context length. Each is a ChartPanel, so each coalesces its own redraws to <= 30 Hz.
#include <QWidget>
#include <memory>
#include <set>
#include <vector>

class QGridLayout;

namespace lb::widgets {
class ChartPanel;
class LanePalette;
}  // namespace lb::widgets

namespace lb::ui {

class LiveRunData;

class LiveCharts : public QWidget {
  Q_OBJECT
 public:
  LiveCharts(std::shared_ptr<widgets::LanePalette> palette, QWidget* parent = nullptr);

  void clear();
  // Hands every chart the new data of the changed lanes (the panels coalesce the redraws).
  void update_from(const LiveRunData& data, const std::set<QString>& changed, double now_s);
  std::vector<widgets::ChartPanel*> panels() const;
  widgets::ChartPanel* output_rate() const { return output_rate_; }
  widgets::ChartPanel* ttft() const { return ttft_; }
  widgets::ChartPanel* itl() const { return itl_; }
  widgets::ChartPanel* tokens_per_event() const { return tokens_per_event_; }
  widgets::ChartPanel* decode_vs_context() const { return decode_ctx_; }
  widgets::ChartPanel* ttft_vs_context() const { return ttft_ctx_; }
  // The panel under the keyboard focus or the mouse, else the first (for File > Export).
  widgets::ChartPanel* current_panel() const;

 private:
  void show_context_charts(bool on);

  widgets::ChartPanel* output_rate_ = nullptr;
  widgets::ChartPanel* ttft_ = nullptr;
  widgets::ChartPanel* itl_ = nullptr;
  widgets::ChartPanel* tokens_per_event_ = nullptr;
  widgets::ChartPanel* decode_ctx_ = nullptr;
  widgets::ChartPanel* ttft_ctx_ = nullptr;
  QGridLayout* grid_ = nullptr;
};

}  // namespace lb::ui
