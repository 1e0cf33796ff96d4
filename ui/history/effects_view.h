#pragma once
// The open run's effects at a glance (report::effect_charts): the prefix cache's passes,
// speculative decoding per level and per draft position, TTFT against context length with the
// needle retrieval marked. The same charts as the report, drawn from the same SVG, two per row.
#include <QByteArray>
#include <QScrollArea>
#include <QString>
#include <vector>

class QGridLayout;
class QLabel;

namespace lb::ui {

struct EffectChart {
  QString title;
  QByteArray svg;
};

class EffectsView : public QScrollArea {
  Q_OBJECT
 public:
  explicit EffectsView(QWidget* parent = nullptr);
  void show_charts(const std::vector<EffectChart>& charts);
  int chart_count() const { return count_; }

 private:
  QWidget* canvas_ = nullptr;
  QGridLayout* grid_ = nullptr;
  QLabel* empty_ = nullptr;
  int count_ = 0;
};

}  // namespace lb::ui
