// A plan's "sweep" and "objective" (plan/sweep_spec.h, docs/plan-file.md "Sweeps").
#include <algorithm>
#include <cctype>

#include "core/plan/plan_validation.h"

namespace lb::plan::detail {
namespace {

using nlohmann::json;

bool is_parameter_name(const std::string& name) {
  if (name.empty() || !std::islower(static_cast<unsigned char>(name[0]))) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) ||
           std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

// The figures of a phase summary an objective can name.
const std::vector<std::string>& objective_figures() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out = {"output_throughput",       "total_token_throughput",
                                    "request_throughput",      "request_goodput",
                                    "max_output_tokens_per_s", "failed"};
    for (const char* stat : {"mean", "median", "p50", "p90", "p95", "p99"})
      for (const char* stem : {"ttft", "tpot", "itl", "e2el"})
        out.push_back(std::string(stat) + "_" + stem + "_ms");
    return out;
  }();
  return names;
}

bool check_figure(ObjectReader& r, const std::string& key, const std::string& figure) {
  const auto& known = objective_figures();
  if (std::find(known.begin(), known.end(), figure) != known.end()) return true;
  r.error(key, "'" + figure + "' is not a figure of a phase summary" + did_you_mean(figure, known));
  return false;
}

SweepAxis read_axis(const json& value, const std::string& path, const Plan& plan,
                    ErrorList& errors) {
  SweepAxis axis;
  ObjectReader r(value, path, errors);
  if (!r.is_object()) return axis;
  if (r.string("lane", axis.lane, true)) {
    const Lane* lane = plan.lane(axis.lane);
    if (lane == nullptr)
      r.error("lane", "names no lane of the plan ('" + axis.lane + "')");
    else if (!lane->launch)
      r.error("lane", "'" + axis.lane +
                          "' has no launch block: only a lane LaneBench starts "
                          "can be swept");
  }
  if (r.string("parameter", axis.parameter, true) && !is_parameter_name(axis.parameter))
    r.error("parameter", "'" + axis.parameter +
                             "' must be a lower-case flag name with underscores, e.g. "
                             "max_num_batched_tokens");
  if (const json* values = r.member("values", json::value_t::array, true)) {
    if (values->empty()) r.error("values", "must list at least one value");
    for (size_t i = 0; i < values->size(); ++i) {
      const json& v = (*values)[i];
      if (!(v.is_number() || v.is_string() || v.is_boolean()) || (v.is_string() && v.empty()))
        errors.add(index_path(key_path(path, "values"), i),
                   "must be a number, a non-empty string or a boolean");
      else if (std::find(axis.values.begin(), axis.values.end(), v) != axis.values.end())
        errors.add(index_path(key_path(path, "values"), i), "repeats " + v.dump());
      else
        axis.values.push_back(v);
    }
  }
  r.allow("mode");  // read with the sweep
  r.finish();
  return axis;
}

void read_objective(ObjectReader& top, Objective& out, ErrorList& errors) {
  const json* v = top.member("objective", json::value_t::object);
  if (v == nullptr) return;
  ObjectReader r(*v, "objective", errors);
  const bool max = r.has("maximize"), min = r.has("minimize");
  if (max && min) r.error_here("names both maximize and minimize");
  if (max && r.string("maximize", out.figure)) check_figure(r, "maximize", out.figure);
  if (min && r.string("minimize", out.figure)) {
    out.maximize = false;
    check_figure(r, "minimize", out.figure);
  }
  if (const json* bounds = r.member("subject_to", json::value_t::object)) {
    ObjectReader b(*bounds, "objective.subject_to", errors);
    for (const auto& [figure, bound] : bounds->items()) {
      double value = 0;
      if (check_figure(b, figure, figure) && b.number(figure, value, -1e300, 1e300, false))
        out.at_most.emplace_back(figure, value);
      b.allow(figure);
    }
  }
  r.string("experiment", out.experiment);
  r.string("phase", out.phase);
  r.finish();
}

}  // namespace

void read_sweep(const json& top_value, ObjectReader& top, Plan& plan, ErrorList& errors) {
  read_objective(top, plan.objective, errors);
  top.allow("sweep");
  const auto it = top_value.find("sweep");
  if (it == top_value.end()) return;
  const json* axes = &*it;
  std::string axes_path = "sweep";
  if (it->is_object() && (it->contains("axes") || it->contains("mode"))) {
    ObjectReader r(*it, "sweep", errors);
    if (r.string("mode", plan.sweep.mode) && plan.sweep.mode != "one_at_a_time" &&
        plan.sweep.mode != "grid")
      r.error("mode", "must be \"one_at_a_time\" or \"grid\" (got \"" + plan.sweep.mode + "\")");
    axes = r.member("axes", json::value_t::array, !it->contains("lane"));
    axes_path = "sweep.axes";
    if (it->contains("lane")) {  // one axis with its mode
      for (const char* k : {"lane", "parameter", "values"}) r.allow(k);
      axes = &*it;
      axes_path = "sweep";
    }
    r.finish();
    if (axes == nullptr) return;
  }
  if (axes->is_object()) {
    plan.sweep.axes.push_back(read_axis(*axes, axes_path, plan, errors));
  } else if (axes->is_array()) {
    if (axes->empty()) errors.add(axes_path, "must list at least one axis");
    for (size_t i = 0; i < axes->size(); ++i)
      plan.sweep.axes.push_back(read_axis((*axes)[i], index_path(axes_path, i), plan, errors));
  } else {
    errors.add("sweep",
               "must be an axis {lane, parameter, values}, a list of axes, or "
               "{\"mode\": ..., \"axes\": [...]}");
    return;
  }
  for (size_t i = 0; i < plan.sweep.axes.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      if (plan.sweep.axes[i].lane == plan.sweep.axes[j].lane &&
          plan.sweep.axes[i].parameter == plan.sweep.axes[j].parameter)
        errors.add(
            axes->is_array() ? index_path(axes_path, i) : axes_path,
            "sweeps " + plan.sweep.axes[i].lane + " " + plan.sweep.axes[i].parameter + " twice");
}

}  // namespace lb::plan::detail
