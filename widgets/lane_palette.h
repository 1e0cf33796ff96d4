#pragma once
// One colour per lane, used by every chart, table and legend of a window. A lane keeps the colour
// it was first given, so "fp8" is the same orange in the live chart, the stats table and an export.
// Owned by the window and shared by pointer; not a global.
#include <QColor>
#include <QHash>
#include <QString>

namespace lb::widgets {

class LanePalette {
 public:
  // Colour for a lane id; assigns the next palette colour on first use.
  QColor colorFor(const QString& lane_id);
  // Assigns colours in this order (the order lanes appear in the workspace), keeping existing ones.
  void assign(const QStringList& lane_ids);
  bool has(const QString& lane_id) const { return colors_.contains(lane_id); }

 private:
  QHash<QString, QColor> colors_;
  int next_ = 0;
};

}  // namespace lb::widgets
