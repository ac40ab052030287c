#include "nav/nav_build_config.h"

#include <cmath>
#include <sstream>

namespace npc::nav {
namespace {

void check(std::vector<std::string>& out, const std::string& prefix, const char* field,
           double value, double lo, double hi) {
  if (std::isfinite(value) && value >= lo && value <= hi) return;
  std::ostringstream s;
  s << prefix << field << ": must be in [" << lo << ", " << hi << "] (got " << value << ")";
  out.push_back(s.str());
}

}  // namespace

std::vector<std::string> NavBuildConfig::validate(const std::string& prefix) const {
  std::vector<std::string> out;
  check(out, prefix, "agent_radius_m", agent_radius_m, 0, 5);
  check(out, prefix, "agent_height_m", agent_height_m, 0.1, 20);
  check(out, prefix, "agent_climb_m", agent_climb_m, 0, 5);
  check(out, prefix, "max_slope_deg", max_slope_deg, 0, 89);
  check(out, prefix, "cell_size_m", cell_size_m, 0.05, 2);
  check(out, prefix, "cell_height_m", cell_height_m, 0.05, 2);
  check(out, prefix, "tile_size_cells", tile_size_cells, 16, 1024);
  check(out, prefix, "max_edge_length_m", max_edge_length_m, 0, 1000);
  check(out, prefix, "min_region_area_m2", min_region_area_m2, 0, 10000);
  check(out, prefix, "max_tiles", max_tiles, 1, 16384);
  check(out, prefix, "max_obstacles", max_obstacles, 1, 65535);
  check(out, prefix, "max_obstacle_tiles", max_obstacle_tiles, 1, 4096);
  return out;
}

}  // namespace npc::nav
