#pragma once
// A lane's colour as the small square its rows show (Qt::DecorationRole). It is an icon that
// paints itself: a QColor handed to a view instead makes the view paint a new pixmap for every
// cell it draws and file each in Qt's global pixmap cache under a new key, so a table redrawn at
// every drain of a long run filled that cache.
#include <QColor>
#include <QIcon>

namespace lb::models {

QIcon lane_swatch(const QColor& color);

}  // namespace lb::models
