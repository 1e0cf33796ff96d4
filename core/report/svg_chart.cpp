#include "core/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <vector>

namespace lb::report {
namespace {

constexpr size_t kMaxMarkedPoints = 20;

struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  std::vector<double> ticks;
};

struct Frame {
  double left = 72, top = 64, right = 0, bottom = 0;  // plot area in px
};

std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", v);
  return buf;
}

std::string tick_label(double v, bool log) {
  char buf[32];
  if (log && v >= 1024 && std::fmod(v, 1024) == 0) {
    const double k = v / 1024;
    if (k >= 1024 && std::fmod(k, 1024) == 0)
      std::snprintf(buf, sizeof buf, "%gM", k / 1024);
    else
      std::snprintf(buf, sizeof buf, "%gK", k);
  } else {
    std::snprintf(buf, sizeof buf, "%g", std::abs(v) < 1e-12 ? 0.0 : v);
  }
  return buf;
}

// A bar's value above it: one decimal from 10 up ("9516.6", "100.5"), three significant digits
// below, so a TTFT of 0.0023 s does not read as "0".
std::string bar_label(double v) {
  if (std::abs(v) >= 10) return tick_label(std::round(v * 10) / 10, false);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

// Linear axis over [lo, hi] with 1-2-5 steps, about five ticks, widened to
// whole steps.
Axis linear_axis(double lo, double hi, bool from_zero) {
  if (from_zero && lo > 0) lo = 0;
  if (hi <= lo) hi = lo + (lo == 0 ? 1 : std::abs(lo) * 0.1);
  const double raw = (hi - lo) / 5;
  const double mag = std::pow(10, std::floor(std::log10(raw)));
  double step = mag;
  for (double f : {1.0, 2.0, 5.0, 10.0})
    if (f * mag >= raw) {
      step = f * mag;
      break;
    }
  Axis a;
  a.lo = std::floor(lo / step) * step;
  a.hi = std::ceil(hi / step) * step;
  for (double t = a.lo; t <= a.hi + step / 2; t += step) a.ticks.push_back(t);
  return a;
}

// Log2 axis: context lengths double, so powers of two (labelled 4K, 32K, ...)
// read naturally.
Axis log_axis(double lo, double hi) {
  Axis a;
  a.log = true;
  const double e_lo = std::floor(std::log2(std::max(lo, 1.0)));
  double e_hi = std::ceil(std::log2(std::max(hi, 1.0)));
  if (e_hi <= e_lo) e_hi = e_lo + 1;
  const double stride = std::max(1.0, std::ceil((e_hi - e_lo) / 8));
  a.lo = std::pow(2, e_lo);
  a.hi = std::pow(2, e_hi);
  for (double e = e_lo; e <= e_hi; e += stride) a.ticks.push_back(std::pow(2, e));
  return a;
}

double fraction(const Axis& a, double v) {
  if (a.log)
    return (std::log2(std::max(v, 1e-9)) - std::log2(a.lo)) / (std::log2(a.hi) - std::log2(a.lo));
  return (v - a.lo) / (a.hi - a.lo);
}

void bounds(const ChartSpec& c, double& x_lo, double& x_hi, double& y_lo, double& y_hi) {
  x_lo = y_lo = std::numeric_limits<double>::max();
  x_hi = y_hi = std::numeric_limits<double>::lowest();
  for (const auto& s : c.series) {
    for (const auto& [x, y] : s.points) {
      x_lo = std::min(x_lo, x), x_hi = std::max(x_hi, x);
      y_lo = std::min(y_lo, y), y_hi = std::max(y_hi, y);
    }
    for (const auto& [lo, hi] : s.intervals)
      if (!std::isnan(lo) && !std::isnan(hi)) y_lo = std::min(y_lo, lo), y_hi = std::max(y_hi, hi);
  }
  if (x_lo > x_hi) x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
}

void write_axes(std::ostream& out, const Frame& f, const Axis& x, const Axis& y) {
  out << "<g stroke=\"#d0d0d0\" stroke-width=\"1\">\n";
  for (double t : y.ticks) {
    const double py = f.bottom - fraction(y, t) * (f.bottom - f.top);
    out << "<line x1=\"" << num(f.left) << "\" y1=\"" << num(py) << "\" x2=\"" << num(f.right)
        << "\" y2=\"" << num(py) << "\"/>\n";
  }
  out << "</g>\n<g stroke=\"#333333\" stroke-width=\"1\">\n<line x1=\"" << num(f.left) << "\" y1=\""
      << num(f.bottom) << "\" x2=\"" << num(f.right) << "\" y2=\"" << num(f.bottom)
      << "\"/>\n<line x1=\"" << num(f.left) << "\" y1=\"" << num(f.top) << "\" x2=\"" << num(f.left)
      << "\" y2=\"" << num(f.bottom)
      << "\"/>\n</g>\n<g font-family=\"sans-serif\" font-size=\"11\" "
         "fill=\"#333333\">\n";
  for (double t : x.ticks) {
    const double px = f.left + fraction(x, t) * (f.right - f.left);
    out << "<text x=\"" << num(px) << "\" y=\"" << num(f.bottom + 16)
        << "\" text-anchor=\"middle\">" << xml_escape(tick_label(t, x.log)) << "</text>\n";
  }
  for (double t : y.ticks) {
    const double py = f.bottom - fraction(y, t) * (f.bottom - f.top);
    out << "<text x=\"" << num(f.left - 6) << "\" y=\"" << num(py + 4) << "\" text-anchor=\"end\">"
        << xml_escape(tick_label(t, false)) << "</text>\n";
  }
  out << "</g>\n";
}

void write_titles(std::ostream& out, const ChartSpec& c, const Frame& f, SvgSize size) {
  out << "<g font-family=\"sans-serif\" fill=\"#111111\">\n<text x=\"" << size.width / 2
      << "\" y=\"22\" font-size=\"15\" font-weight=\"bold\" "
         "text-anchor=\"middle\">"
      << xml_escape(c.title) << "</text>\n<text x=\"" << num((f.left + f.right) / 2) << "\" y=\""
      << size.height - 8 << "\" font-size=\"12\" text-anchor=\"middle\">" << xml_escape(c.x_title)
      << (c.log_x ? " (log scale)" : "") << "</text>\n<text x=\"16\" y=\""
      << num((f.top + f.bottom) / 2)
      << "\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 16 "
      << num((f.top + f.bottom) / 2) << ")\">" << xml_escape(c.y_title) << "</text>\n</g>\n";
}

// Where each series' legend entry goes: (x, row), a row wrapping at the plot's right edge so
// that long names (a sweep's "lane[parameter=value]") stay whole.
std::vector<std::pair<double, int>> legend_layout(const ChartSpec& c, const Frame& f) {
  std::vector<std::pair<double, int>> out;
  double x = f.left;
  int row = 0;
  for (const auto& s : c.series) {
    const double width = 30 + 7.0 * static_cast<double>(s.name.size());
    if (x > f.left && x + width - 12 > f.right) {
      x = f.left;
      ++row;
    }
    out.emplace_back(x, row);
    x += width;
  }
  return out;
}

// The legend rows beyond the first.
int extra_legend_rows(const ChartSpec& c, const Frame& f) {
  const auto layout = legend_layout(c, f);
  return layout.empty() ? 0 : layout.back().second;
}

constexpr double kLegendRowPx = 16;

void write_legend(std::ostream& out, const ChartSpec& c, const Frame& f) {
  const auto layout = legend_layout(c, f);
  out << "<g font-family=\"sans-serif\" font-size=\"12\" fill=\"#111111\">\n";
  for (size_t i = 0; i < c.series.size(); ++i) {
    const auto [x, row] = layout[i];
    const double y = 34 + kLegendRowPx * row;
    out << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"14\" height=\"10\" fill=\""
        << xml_escape(c.series[i].color) << "\"/>\n<text x=\"" << num(x + 18) << "\" y=\""
        << num(y + 9) << "\">" << xml_escape(c.series[i].name) << "</text>\n";
  }
  if (!c.note.empty())
    out << "<text x=\"" << num(f.left) << "\" y=\""
        << num(58 + kLegendRowPx * extra_legend_rows(c, f))
        << "\" font-size=\"11\" fill=\"#555555\">" << xml_escape(c.note) << "</text>\n";
  out << "</g>\n";
}

// A cross over a point whose outcome failed (a needle that was not retrieved).
void write_fail_mark(std::ostream& out, double px, double py) {
  constexpr double r = 5;
  out << "<g stroke-linecap=\"round\"><path d=\"M" << num(px - r) << " " << num(py - r) << " L"
      << num(px + r) << " " << num(py + r) << " M" << num(px - r) << " " << num(py + r) << " L"
      << num(px + r) << " " << num(py - r)
      << "\" stroke=\"#ffffff\" stroke-width=\"5\"/><path d=\"M" << num(px - r) << " "
      << num(py - r) << " L" << num(px + r) << " " << num(py + r) << " M" << num(px - r) << " "
      << num(py + r) << " L" << num(px + r) << " " << num(py - r)
      << "\" stroke=\"#111111\" stroke-width=\"2\"/></g>\n";
}

bool has_interval(const ChartSeries& s, size_t k) {
  return k < s.intervals.size() && !std::isnan(s.intervals[k].first) &&
         !std::isnan(s.intervals[k].second);
}

// A 95 % interval as an error bar: a vertical stroke from lo to hi with caps, centred on px.
void write_error_bar(std::ostream& out, double px, double py_lo, double py_hi, double cap) {
  out << "<path class=\"error-bar\" d=\"M" << num(px) << " " << num(py_lo) << " L" << num(px) << " "
      << num(py_hi) << " M" << num(px - cap) << " " << num(py_lo) << " L" << num(px + cap) << " "
      << num(py_lo) << " M" << num(px - cap) << " " << num(py_hi) << " L" << num(px + cap) << " "
      << num(py_hi) << "\"/>\n";
}

// Along a line, consecutive points with intervals also get a translucent band between them.
void write_band(std::ostream& out, const ChartSeries& s, const std::vector<double>& px,
                const std::vector<double>& lo, const std::vector<double>& hi) {
  size_t k = 0;
  while (k < px.size()) {
    if (!has_interval(s, k)) {
      ++k;
      continue;
    }
    size_t end = k;
    while (end + 1 < px.size() && has_interval(s, end + 1)) ++end;
    if (end > k) {
      std::string d = "M" + num(px[k]) + " " + num(hi[k]);
      for (size_t j = k + 1; j <= end; ++j) d += " L" + num(px[j]) + " " + num(hi[j]);
      for (size_t j = end + 1; j-- > k;) d += " L" + num(px[j]) + " " + num(lo[j]);
      out << "<path class=\"error-band\" d=\"" << d << " Z\" fill=\"" << xml_escape(s.color)
          << "\" fill-opacity=\"0.15\" stroke=\"none\"/>\n";
    }
    k = end + 1;
  }
}

// Grouped bars: a group per category, a bar per series in legend order, the value above it.
void write_bars(std::ostream& out, const ChartSpec& c, const Frame& f, const Axis& y) {
  const auto groups = static_cast<double>(c.categories.size());
  const double group_w = (f.right - f.left) / groups;
  const double bar_w = group_w * 0.8 / static_cast<double>(std::max<size_t>(1, c.series.size()));
  out << "<g font-family=\"sans-serif\" font-size=\"11\" fill=\"#333333\">\n";
  for (size_t g = 0; g < c.categories.size(); ++g)
    out << "<text x=\"" << num(f.left + group_w * (static_cast<double>(g) + 0.5)) << "\" y=\""
        << num(f.bottom + 16) << "\" text-anchor=\"middle\">" << xml_escape(c.categories[g])
        << "</text>\n";
  out << "</g>\n";
  for (size_t i = 0; i < c.series.size(); ++i) {
    const ChartSeries& s = c.series[i];
    out << "<g fill=\"" << xml_escape(s.color) << "\">\n";
    for (size_t k = 0; k < s.points.size(); ++k) {
      const auto& [vx, vy] = s.points[k];
      const double px = f.left + group_w * (vx + 0.1) + bar_w * static_cast<double>(i);
      const double py = f.bottom - fraction(y, vy) * (f.bottom - f.top);
      out << "<rect x=\"" << num(px) << "\" y=\"" << num(py) << "\" width=\"" << num(bar_w - 2)
          << "\" height=\"" << num(std::max(0.0, f.bottom - py)) << "\"/>\n";
      double label_y = py - 3;
      if (has_interval(s, k)) {
        const double lo = f.bottom - fraction(y, s.intervals[k].first) * (f.bottom - f.top);
        const double hi = f.bottom - fraction(y, s.intervals[k].second) * (f.bottom - f.top);
        label_y = std::min(label_y, hi - 3);  // the value above its error bar, never over it
        out << "<g stroke=\"#111111\" stroke-width=\"1.2\" fill=\"none\">\n";
        write_error_bar(out, px + (bar_w - 2) / 2, lo, hi, std::min(5.0, bar_w / 4));
        out << "</g>\n";
      }
      out << "<text x=\"" << num(px + (bar_w - 2) / 2) << "\" y=\"" << num(label_y)
          << "\" font-family=\"sans-serif\" font-size=\"10\" fill=\"#333333\" "
             "text-anchor=\"middle\">"
          << xml_escape(bar_label(vy)) << "</text>\n";
    }
    out << "</g>\n";
  }
}

void write_series(std::ostream& out, const ChartSeries& s, const Frame& f, const Axis& x,
                  const Axis& y) {
  std::string points;
  std::ostringstream markers;
  std::ostringstream failed;
  std::ostringstream bars;
  std::vector<double> pxs, lo, hi;
  for (size_t k = 0; k < s.points.size(); ++k) {
    const auto& [vx, vy] = s.points[k];
    const double px = f.left + fraction(x, vx) * (f.right - f.left);
    const double py = f.bottom - fraction(y, vy) * (f.bottom - f.top);
    points += num(px) + "," + num(py) + " ";
    pxs.push_back(px);
    lo.push_back(has_interval(s, k)
                     ? f.bottom - fraction(y, s.intervals[k].first) * (f.bottom - f.top)
                     : py);
    hi.push_back(has_interval(s, k)
                     ? f.bottom - fraction(y, s.intervals[k].second) * (f.bottom - f.top)
                     : py);
    if (has_interval(s, k)) write_error_bar(bars, px, lo.back(), hi.back(), 4);
    const PointMark mark = k < s.marks.size() ? s.marks[k] : PointMark::None;
    if (mark == PointMark::Fail) {
      write_fail_mark(failed, px, py);
      continue;
    }
    // Markers show where the measurements are; on a dense curve they would only hide it.
    if (s.points.size() <= kMaxMarkedPoints || mark == PointMark::Pass)
      markers << "<circle cx=\"" << num(px) << "\" cy=\"" << num(py) << "\" r=\""
              << (mark == PointMark::Pass ? 4 : 3) << "\"/>\n";
  }
  const std::string color = xml_escape(s.color);
  out << "<g>\n";
  if (!s.intervals.empty()) {
    write_band(out, s, pxs, lo, hi);
    out << "<g stroke=\"" << color << "\" stroke-width=\"1.2\" fill=\"none\">\n"
        << bars.str() << "</g>\n";
  }
  out << "<polyline fill=\"none\" stroke=\"" << color << "\" stroke-width=\"2\" points=\"" << points
      << "\"/>\n<g fill=\"" << color << "\">\n"
      << markers.str() << "</g>\n"
      << failed.str() << "</g>\n";
}

}  // namespace

std::string xml_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += ch;
    }
  }
  return out;
}

std::string render_svg_chart(const ChartSpec& chart, SvgSize size) {
  double x_lo, x_hi, y_lo, y_hi;
  bounds(chart, x_lo, x_hi, y_lo, y_hi);
  const bool bar_chart = !chart.categories.empty();
  const Axis x = chart.log_x ? log_axis(x_lo, x_hi) : linear_axis(x_lo, x_hi, false);
  const Axis y = linear_axis(y_lo, bar_chart ? y_hi * 1.08 : y_hi, true);  // room for labels
  Frame f;
  if (!chart.note.empty()) f.top += 12;
  f.right = size.width - 24;
  f.top += kLegendRowPx * extra_legend_rows(chart, f);
  f.bottom = size.height - 44;
  std::ostringstream out;
  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.2\" "
         "baseProfile=\"tiny\" width=\""
      << size.width << "\" height=\"" << size.height << "\" viewBox=\"0 0 " << size.width << " "
      << size.height << "\">\n<title>" << xml_escape(chart.title)
      << "</title>\n<rect x=\"0\" y=\"0\" width=\"" << size.width << "\" height=\"" << size.height
      << "\" fill=\"#ffffff\"/>\n";
  write_titles(out, chart, f, size);
  write_legend(out, chart, f);
  if (bar_chart) {
    Axis no_x;  // the categories label the x axis
    no_x.ticks.clear();
    write_axes(out, f, no_x, y);
    write_bars(out, chart, f, y);
  } else {
    write_axes(out, f, x, y);
    for (const auto& s : chart.series) write_series(out, s, f, x, y);
  }
  out << "</svg>\n";
  return out.str();
}

}  // namespace lb::report
