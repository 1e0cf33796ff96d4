#include "models/review_pair.h"

#include <QCoreApplication>

namespace lb::models {

QStringList verdict_keys() {
  return {"identical", "benign_drift", "material_difference", "blocker"};
}

QString verdict_label(const QString& key) {
  if (key == "identical") return QCoreApplication::translate("Review", "Identical");
  if (key == "benign_drift") return QCoreApplication::translate("Review", "Benign drift");
  if (key == "material_difference")
    return QCoreApplication::translate("Review", "Material difference");
  if (key == "blocker") return QCoreApplication::translate("Review", "Blocker");
  return QCoreApplication::translate("Review", "Unreviewed");
}

}  // namespace lb::models
