#include "widgets/lane_palette.h"

#include <array>

namespace lb::widgets {
namespace {
// Colour-blind-safe (Okabe-Ito order, blue first) and readable on white.
constexpr std::array<QRgb, 8> kColors = {0x0072B2, 0xE69F00, 0x009E73, 0xCC79A7,
                                         0x56B4E9, 0xD55E00, 0x7F7F7F, 0xF0E442};
}  // namespace

QColor LanePalette::colorFor(const QString& lane_id) {
  auto it = colors_.find(lane_id);
  if (it != colors_.end()) return *it;
  const QColor color = QColor::fromRgb(kColors[static_cast<size_t>(next_) % kColors.size()]);
  ++next_;
  colors_.insert(lane_id, color);
  return color;
}

void LanePalette::assign(const QStringList& lane_ids) {
  for (const QString& id : lane_ids) colorFor(id);
}

}  // namespace lb::widgets
