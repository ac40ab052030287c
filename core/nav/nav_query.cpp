#include "nav/nav_query.h"

#include <DetourNavMesh.h>
#include <DetourNavMeshQuery.h>

#include <algorithm>
#include <cmath>

#include "nav/nav_coords.h"
#include "nav/nav_mesh.h"

namespace npc::nav {
namespace {

void freeQuery(dtNavMeshQuery* q) { dtFreeNavMeshQuery(q); }

}  // namespace

std::string_view toString(NavResult r) {
  switch (r) {
    case NavResult::kOk: return "ok";
    case NavResult::kOffMesh: return "off_mesh";
    case NavResult::kUnreachable: return "unreachable";
    case NavResult::kSearchLimit: return "search_limit";
    case NavResult::kNoMesh: return "no_mesh";
  }
  return "?";
}

NavQuery::NavQuery(const NavMesh& mesh, const NavQueryLimits& limits)
    : mesh_(&mesh),
      limits_(limits),
      query_(nullptr, freeQuery),
      filter_(std::make_unique<dtQueryFilter>()) {
  limits_.max_nodes = std::clamp(limits_.max_nodes, 16, 65535);  // Detour hashes max_nodes / 4 buckets
  limits_.max_path_polys = std::max(limits_.max_path_polys, 1);
  corridor_ = std::make_unique<uint32_t[]>(static_cast<size_t>(limits_.max_path_polys));
  straight_ = std::make_unique<float[]>(static_cast<size_t>(limits_.max_path_polys) * 3);
  if (!mesh.detour() || mesh.empty()) return;
  query_.reset(dtAllocNavMeshQuery());
  if (query_ && dtStatusFailed(query_->init(mesh.detour(), limits_.max_nodes))) query_.reset();
}

NavQuery::~NavQuery() = default;

NavResult NavQuery::nearestPoint(Vec3 p, NavPoint& out) {
  out = {};
  if (!query_) return NavResult::kNoMesh;
  if (!isFinite(p)) return NavResult::kOffMesh;
  float center[3], nearest[3];
  toRecast(p, center);
  const float extents[3] = {limits_.snap_horizontal_m, limits_.snap_vertical_m,
                            limits_.snap_horizontal_m};
  dtPolyRef ref = 0;
  if (dtStatusFailed(query_->findNearestPoly(center, extents, filter_.get(), &ref, nearest)) ||
      ref == 0)
    return NavResult::kOffMesh;
  out.position = fromRecast(nearest);
  out.poly = ref;
  return NavResult::kOk;
}

size_t NavQuery::lastCorners(std::span<Vec3> out) const {
  const size_t n = std::min(out.size(), static_cast<size_t>(corners_));
  for (size_t i = 0; i < n; ++i) out[i] = fromRecast(&straight_[i * 3]);
  return n;
}

NavPath NavQuery::path(Vec3 from, Vec3 to) {
  NavPath out;
  corners_ = 0;
  if (!query_) return out;
  out.result = nearestPoint(from, out.start);
  if (out.result == NavResult::kOk) out.result = nearestPoint(to, out.end);
  if (out.result != NavResult::kOk) return out;
  float a[3], b[3];
  toRecast(out.start.position, a);
  toRecast(out.end.position, b);
  int count = 0;
  const dtStatus s = query_->findPath(out.start.poly, out.end.poly, a, b, filter_.get(),
                                      corridor_.get(), &count, limits_.max_path_polys);
  measureCorridor(s, count, out);
  return out;
}

void NavQuery::measureCorridor(uint32_t status, int count, NavPath& out) {
  const dtStatus s = status;
  out.corridor_polys = count;
  if (dtStatusFailed(s) || count == 0) {
    out.result = NavResult::kUnreachable;
    return;
  }
  if (corridor_[static_cast<size_t>(count - 1)] != out.end.poly) {
    // A partial corridor: either the goal is cut off, or a limit stopped the search.
    out.result = (s & (DT_OUT_OF_NODES | DT_BUFFER_TOO_SMALL)) ? NavResult::kSearchLimit
                                                               : NavResult::kUnreachable;
    return;
  }
  if (s & DT_BUFFER_TOO_SMALL) {
    out.result = NavResult::kSearchLimit;
    return;
  }
  float a[3], b[3];
  toRecast(out.start.position, a);
  toRecast(out.end.position, b);
  int corners = 0;
  const dtStatus ss = query_->findStraightPath(a, b, corridor_.get(), count, straight_.get(),
                                               nullptr, nullptr, &corners, limits_.max_path_polys);
  if (dtStatusFailed(ss) || corners == 0) {
    out.result = NavResult::kSearchLimit;
    return;
  }
  float length = 0.f;
  for (int i = 1; i < corners; ++i) {
    const float* p = &straight_[static_cast<size_t>(i - 1) * 3];
    const float* q = &straight_[static_cast<size_t>(i) * 3];
    length += std::sqrt((q[0] - p[0]) * (q[0] - p[0]) + (q[1] - p[1]) * (q[1] - p[1]) +
                        (q[2] - p[2]) * (q[2] - p[2]));
  }
  // A corner list cut short by the buffer ends early: the remaining stretch is straight.
  const float* last = &straight_[static_cast<size_t>(corners - 1) * 3];
  length += std::sqrt((b[0] - last[0]) * (b[0] - last[0]) + (b[1] - last[1]) * (b[1] - last[1]) +
                      (b[2] - last[2]) * (b[2] - last[2]));
  out.length_m = length;
  corners_ = corners;
}

NavResult NavQuery::beginPath(Vec3 from, Vec3 to) {
  open_ = {};
  corners_ = 0;
  if (!query_) return NavResult::kNoMesh;
  open_.result = nearestPoint(from, open_.start);
  if (open_.result == NavResult::kOk) open_.result = nearestPoint(to, open_.end);
  if (open_.result != NavResult::kOk) return open_.result;
  float a[3], b[3];
  toRecast(open_.start.position, a);
  toRecast(open_.end.position, b);
  if (dtStatusFailed(query_->initSlicedFindPath(open_.start.poly, open_.end.poly, a, b, filter_.get())))
    open_.result = NavResult::kUnreachable;
  return open_.result;
}

bool NavQuery::advancePath(int max_iterations, int& done) {
  if (!query_ || open_.result != NavResult::kOk) return true;
  int opened = 0;
  const dtStatus s = query_->updateSlicedFindPath(std::max(max_iterations, 0), &opened);
  done += opened;
  return !dtStatusInProgress(s);
}

NavPath NavQuery::finishPath() {
  NavPath out = open_;
  open_ = {};
  if (!query_ || out.result != NavResult::kOk) return out;
  int count = 0;
  const dtStatus s = query_->finalizeSlicedFindPath(corridor_.get(), &count, limits_.max_path_polys);
  measureCorridor(s, count, out);
  return out;
}

NavRaycast NavQuery::raycast(Vec3 from, Vec3 to) {
  NavRaycast out;
  if (!query_) return out;
  NavPoint start;
  out.result = nearestPoint(from, start);
  if (out.result != NavResult::kOk || !isFinite(to)) {
    out.result = NavResult::kOffMesh;
    return out;
  }
  float a[3], b[3], normal[3] = {0, 0, 0};
  toRecast(start.position, a);
  toRecast(to, b);
  float t = 0.f;
  int count = 0;
  if (dtStatusFailed(query_->raycast(start.poly, a, b, filter_.get(), &t, normal, corridor_.get(),
                                     &count, limits_.max_path_polys))) {
    out.result = NavResult::kSearchLimit;
    return out;
  }
  out.hit = t <= 1.f;  // Detour: FLT_MAX when the ray reaches `to`
  out.fraction = out.hit ? t : 1.f;
  out.hit_normal = out.hit ? fromRecast(normal) : Vec3{};
  return out;
}

}  // namespace npc::nav
