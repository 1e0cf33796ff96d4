#pragma once
// Turns raw samples per lane into shared bins (percent of each lane's samples per bin).
#include <QString>
#include <map>
#include <vector>

#include "widgets/chart/chart_types.h"

namespace lb::widgets {

// `samples` maps a lane name to its raw values (ITL in ms, tokens per event, ...). Lanes are
// returned in the order of `order`; names missing from `order` follow in map order.
BarData bin_histogram(const std::map<QString, std::vector<double>>& samples,
                      const QStringList& order, const HistogramSpec& spec);

}  // namespace lb::widgets
