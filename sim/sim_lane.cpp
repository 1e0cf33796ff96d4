#include "sim_lane.h"

#include <stdexcept>

namespace lb::sim {

LaneStart start_lane(SimConfig config, uint16_t port) {
  LaneStart out;
  auto server = std::make_unique<Server>(std::move(config));
  try {
    server->start(port);
  } catch (const std::exception& e) {
    out.error = e.what();
    return out;
  }
  out.base_url = server->base_url();
  out.handle = LaneHandle(std::move(server));
  return out;
}

LaneStart start_lane(std::string_view spec, uint16_t port) {
  if (spec.rfind("sim:", 0) == 0) spec.remove_prefix(4);
  auto parsed = parse_lane_spec(spec);
  if (auto* err = std::get_if<std::string>(&parsed)) {
    LaneStart out;
    out.error = *err;
    return out;
  }
  return start_lane(std::get<SimConfig>(std::move(parsed)), port);
}

}  // namespace lb::sim
