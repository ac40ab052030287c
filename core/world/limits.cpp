#include "world/limits.h"

#include <cmath>
#include <cstdio>

namespace npc {

std::string WorldBounds::outside(Vec3 p) const {
  if (contains(p)) return {};
  // Negated comparisons so that NaN is outside too.
  auto ground = [&](const char* axis, float v) -> std::string {
    if (!(std::fabs(v) <= half_extent_m)) {
      return std::string(axis) + " " + formatNumber(v) + " is outside the world bounds (+-" +
             formatNumber(half_extent_m) + " m)";
    }
    return {};
  };
  if (std::string s = ground("x", p.x); !s.empty()) return s;
  if (std::string s = ground("y", p.y); !s.empty()) return s;
  if (!(p.z >= min_z_m && p.z <= max_z_m)) {
    return "z " + formatNumber(p.z) + " is outside the world bounds (" + formatNumber(min_z_m) +
           ".." + formatNumber(max_z_m) + " m)";
  }
  return {};
}

std::string formatNumber(double value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", value);
  return buf;
}

std::string aboveMaximum(double value, double max, const char* unit) {
  if (!(value > max)) return {};
  return "must be at most " + formatNumber(max) + (*unit ? " " : "") + unit + " (got " +
         formatNumber(value) + ")";
}

}  // namespace npc
