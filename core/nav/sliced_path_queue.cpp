#include "nav/sliced_path_queue.h"

#include <algorithm>
#include <utility>

#include "nav/nav_mesh.h"

namespace npc::nav {
namespace {

// The long searches snap as the tick's queries do, with their own, larger limits.
NavQueryLimits longLimits(const NavQueryLimits& snap, const SlicedPathConfig& config) {
  NavQueryLimits l = snap;
  l.max_nodes = config.max_nodes;
  l.max_path_polys = config.max_path_polys;
  return l;
}

}  // namespace

SlicedPathQueue::SlicedPathQueue(const NavMesh& mesh, const NavQueryLimits& snap,
                                 const SlicedPathConfig& config)
    : mesh_(&mesh), config_(config), query_(mesh, longLimits(snap, config)) {
  config_.capacity = std::max(config_.capacity, 1);
  config_.iterations_per_tick = std::max(config_.iterations_per_tick, 1);
  waiting_.reserve(static_cast<size_t>(config_.capacity));
}

bool SlicedPathQueue::request(const SlicedPathRequest& r) {
  for (size_t i = 0; i < waiting_.size(); ++i) {
    if (waiting_[i].key != r.key) continue;
    waiting_[i] = r;
    if (i == 0) open_ = false;  // the open search was for the older walk
    return true;
  }
  if (waiting_.size() >= static_cast<size_t>(config_.capacity)) return false;
  waiting_.push_back(r);
  return true;
}

int SlicedPathQueue::update(std::vector<SlicedPathAnswer>& done) {
  int spent = 0;
  while (!waiting_.empty() && spent < config_.iterations_per_tick) {
    // Polygons the open search holds may have gone with a rebuilt tile: start it again.
    if (open_ && open_generation_ != mesh_->generation()) open_ = false;
    if (!open_) openHead();
    const int before = open_iterations_;
    const bool ended = query_.advancePath(config_.iterations_per_tick - spent, open_iterations_);
    spent += open_iterations_ - before;
    if (!ended) break;
    finishHead(done);
  }
  return spent;
}

void SlicedPathQueue::openHead() {
  const SlicedPathRequest& r = waiting_.front();
  query_.beginPath(r.from, r.to);  // an answer already (off the mesh) ends at the first advance
  open_ = true;
  open_iterations_ = 0;
  open_generation_ = mesh_->generation();
}

void SlicedPathQueue::finishHead(std::vector<SlicedPathAnswer>& done) {
  SlicedPathAnswer& answer = done.emplace_back();
  answer.request = waiting_.front();
  answer.path = query_.finishPath();
  answer.iterations = open_iterations_;
  answer.corner_count = static_cast<uint8_t>(query_.lastCorners(answer.corners));
  waiting_.erase(waiting_.begin());
  open_ = false;
  open_iterations_ = 0;
}

void SlicedPathQueue::restore(std::vector<SlicedPathRequest> waiting, int open_iterations) {
  waiting_ = std::move(waiting);
  if (waiting_.size() > static_cast<size_t>(config_.capacity)) waiting_.resize(static_cast<size_t>(config_.capacity));
  waiting_.reserve(static_cast<size_t>(config_.capacity));
  open_ = false;
  open_iterations_ = 0;
  if (waiting_.empty() || open_iterations <= 0) return;
  openHead();
  query_.advancePath(open_iterations, open_iterations_);
}

}  // namespace npc::nav
