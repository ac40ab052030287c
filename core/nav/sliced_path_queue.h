// SlicedPathQueue: path searches too long for one query (NavQuery::path stopped at its node
// limit: search_limit) run a slice at a time over later ticks, with a larger node pool of
// their own and a per-tick budget of Detour iterations (polygons opened). Callers request,
// the tick calls update(), answers come out in the order they were requested.
//
// One search is open at a time, the oldest request, so the queue's whole state is the list
// of requests and how many iterations the open one has had: that is what a snapshot keeps,
// and restore() opens the head again and replays its iterations in one slice, which Detour
// makes the same search (tests/core/nav/sliced_path_queue_test.cpp). A change of the mesh
// (a rebuilt tile) restarts the open search, since the polygons it has opened may be gone;
// the simulation changes the mesh before it updates the queue in a tick, so between ticks
// the open search is always one on the current mesh.
// Memory: the requests (capacity fixed at construction) and the query's node pool; update
// allocates only when `done` grows. Thread: tick thread.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "nav/nav_query.h"

namespace npc::nav {

// The queue's limits: "navmesh": { "long_search": { ... } } in a world file.
struct SlicedPathConfig {
  int max_nodes = 65535;           // [16, 65535] polygons one long search may open
  int max_path_polys = 4096;       // [1, 4096] corridor length
  int iterations_per_tick = 4096;  // [1, 1 << 20] polygons opened per tick, all searches
  int capacity = 64;               // [1, 4096] requests waiting at most
};

// A walk to search, with the caller's names for it (the simulation: agent and intention).
struct SlicedPathRequest {
  uint64_t key = 0;
  uint64_t tag = 0;
  Vec3 from, to;
};

struct SlicedPathAnswer {
  static constexpr size_t kMaxCorners = 16;
  SlicedPathRequest request;
  NavPath path;
  int iterations = 0;  // polygons the search opened in all
  // The path's first corners (kOk), world coordinates, for drawing it.
  std::array<Vec3, kMaxCorners> corners{};
  uint8_t corner_count = 0;
};

class SlicedPathQueue {
 public:
  SlicedPathQueue(const NavMesh& mesh, const NavQueryLimits& snap, const SlicedPathConfig& config);

  const SlicedPathConfig& config() const { return config_; }

  // Queues a search; false when `capacity` are already waiting (the caller does without).
  // One search waits per key: a request whose key waits already takes that one's place in
  // line (an agent sending MoveTo after MoveTo is searched for its latest only), and an
  // open search of it starts again.
  bool request(const SlicedPathRequest& r);
  // Spends at most config().iterations_per_tick iterations on the searches, oldest first,
  // appending each finished one to `done`. Returns the iterations spent.
  int update(std::vector<SlicedPathAnswer>& done);

  // Waiting requests, oldest (the open search) first, and the iterations the open one has had.
  std::span<const SlicedPathRequest> waiting() const { return waiting_; }
  int openIterations() const { return open_ ? open_iterations_ : 0; }
  size_t size() const { return waiting_.size(); }
  // Takes the captured requests back and reopens the head with its iterations.
  void restore(std::vector<SlicedPathRequest> waiting, int open_iterations);

 private:
  void openHead();
  void finishHead(std::vector<SlicedPathAnswer>& done);

  const NavMesh* mesh_;
  SlicedPathConfig config_;
  NavQuery query_;
  std::vector<SlicedPathRequest> waiting_;  // oldest first; capacity reserved
  bool open_ = false;                       // the head's search is open in query_
  int open_iterations_ = 0;
  uint32_t open_generation_ = 0;            // the mesh's generation it was opened on
};

}  // namespace npc::nav
