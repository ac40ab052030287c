// Small 3-D vector used everywhere in core. Coordinates are metres, Z is up
// (as in CryEngine): x/y span the ground plane, z is height.
#pragma once

#include <algorithm>

#include <cmath>

namespace npc {

struct Vec3 {
  float x = 0.f;
  float y = 0.f;
  float z = 0.f;

  friend Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
  friend Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
  friend Vec3 operator*(Vec3 a, float s) { return {a.x * s, a.y * s, a.z * s}; }
  friend bool operator==(Vec3 a, Vec3 b) = default;
};

inline float dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline float lengthSq(Vec3 v) { return dot(v, v); }
inline float length(Vec3 v) { return std::sqrt(lengthSq(v)); }
inline float distanceSq(Vec3 a, Vec3 b) { return lengthSq(a - b); }
inline bool isFinite(Vec3 v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// Axis-aligned box, [min, max] inclusive.
struct Aabb {
  Vec3 min;
  Vec3 max;

  bool contains(Vec3 p) const {
    return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y && p.z >= min.z &&
           p.z <= max.z;
  }
  bool isValid() const {
    return isFinite(min) && isFinite(max) && min.x <= max.x && min.y <= max.y && min.z <= max.z;
  }
  // Does a sphere reach the box (a sound or a radius signal reaching a place)?
  bool touchesSphere(Vec3 c, float r) const {
    const float dx = std::max({min.x - c.x, 0.f, c.x - max.x});
    const float dy = std::max({min.y - c.y, 0.f, c.y - max.y});
    const float dz = std::max({min.z - c.z, 0.f, c.z - max.z});
    return dx * dx + dy * dy + dz * dz <= r * r;
  }
};

}  // namespace npc
