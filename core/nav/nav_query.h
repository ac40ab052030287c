// NavQuery: the questions the simulation asks a NavMesh — nearest point on the mesh, is B
// reachable from A and by how long a path, what does a straight walk hit (raycast) — in
// world coordinates (Z up), through a dtNavMeshQuery.
//
// Bounded work: a path search expands at most NavQueryLimits::max_nodes polygons and keeps
// at most max_path_polys of corridor; hitting either ends the query as kSearchLimit (never
// an unbounded search, never a partial path taken as a full one). Points are snapped to the
// mesh within snap_extents (half sizes, metres: horizontal, vertical); a point with no
// polygon within them is kOffMesh. Every polygon is walkable (flag 1, all areas).
// Thread: tick thread (queries reuse the node pool: not const, not thread-safe).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

#include "world/vec3.h"

class dtNavMeshQuery;
class dtQueryFilter;

namespace npc::nav {

class NavMesh;

enum class NavResult : uint8_t {
  kOk,
  kOffMesh,       // a point has no navmesh polygon within the snap extents
  kUnreachable,   // both points are on the mesh, but no path joins them
  kSearchLimit,   // the search ran out of nodes or corridor length before an answer
  kNoMesh,        // the query has no mesh
};
std::string_view toString(NavResult r);

struct NavQueryLimits {
  int max_nodes = 2048;           // [16, 65535] polygons a path search may open (clamped)
  int max_path_polys = 256;       // corridor length
  float snap_horizontal_m = 2.f;  // half extent on the ground plane
  float snap_vertical_m = 4.f;    // half extent in height
};

struct NavPoint {
  Vec3 position;       // on the mesh
  uint32_t poly = 0;   // Detour polygon ref (0 = none)
};

struct NavPath {
  NavResult result = NavResult::kNoMesh;
  float length_m = 0.f;  // along the straight path (string-pulled corridor); 0 unless kOk
  NavPoint start, end;   // the snapped endpoints (when on the mesh)
  int corridor_polys = 0;
};

struct NavRaycast {
  NavResult result = NavResult::kNoMesh;
  bool hit = false;       // a mesh edge (wall) stops the walk before `to`
  float fraction = 1.f;   // of the segment walked before the wall; 1 when clear
  Vec3 hit_normal;        // the wall's normal (ground plane) when hit
};

class NavQuery {
 public:
  explicit NavQuery(const NavMesh& mesh, const NavQueryLimits& limits = {});
  ~NavQuery();
  NavQuery(const NavQuery&) = delete;
  NavQuery& operator=(const NavQuery&) = delete;

  const NavMesh& mesh() const { return *mesh_; }
  const NavQueryLimits& limits() const { return limits_; }

  // Nearest point on the mesh to p (kOk or kOffMesh).
  NavResult nearestPoint(Vec3 p, NavPoint& out);
  // Path from `from` to `to` (both snapped first); length only when kOk.
  NavPath path(Vec3 from, Vec3 to);
  // The corners of the last path() that was kOk, from its start to its end (world
  // coordinates), at most out.size() of them; returns how many were written; none once a
  // later path() was not kOk. For drawing the path (GetAgent, the debug page).
  size_t lastCorners(std::span<Vec3> out) const;
  bool reachable(Vec3 from, Vec3 to) { return path(from, to).result == NavResult::kOk; }
  // Walks the mesh surface straight from `from` towards `to` (heights ignored).
  NavRaycast raycast(Vec3 from, Vec3 to);

  // The same path search a slice at a time, for walks too long for one call (PathQueue).
  // beginPath snaps both points and opens the search: kOk when it is open, else the answer
  // (kOffMesh). advancePath opens at most `max_iterations` more polygons, adds how many it
  // opened to `done` and says whether the search has ended; finishPath gives the answer as
  // path() would have. Detour keeps the open search in the node pool, so nothing else may
  // be asked of this NavQuery until finishPath; iterations split over any number of
  // advancePath calls give the same search as one call with their sum.
  NavResult beginPath(Vec3 from, Vec3 to);
  bool advancePath(int max_iterations, int& done);
  NavPath finishPath();

 private:
  // The answer for a corridor Detour found (status s, count polygons): its classification
  // and, when whole, the string-pulled length.
  void measureCorridor(uint32_t status, int count, NavPath& out);

  const NavMesh* mesh_;
  NavQueryLimits limits_;
  std::unique_ptr<dtNavMeshQuery, void (*)(dtNavMeshQuery*)> query_;
  std::unique_ptr<dtQueryFilter> filter_;
  std::unique_ptr<uint32_t[]> corridor_;
  std::unique_ptr<float[]> straight_;  // 3 floats per corner
  int corners_ = 0;                     // in straight_, of the last path(); 0 unless kOk
  NavPath open_;                        // the sliced search's endpoints, between begin and finish
};

}  // namespace npc::nav
