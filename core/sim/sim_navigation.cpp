// Simulation: navigation (core/nav, issue 23). The world file's navmesh is built or loaded
// at start-up (world_file.cpp) and set here. With one, the planner gets NavReachability
// (unreachable smart objects pruned, travel priced by path length) and every MoveTo an
// agent sends is checked on its way out: its target is snapped to the nearest point on the
// mesh, and a target no path reaches fails the intention as the game would ("unreachable:
// ..."), without being sent. A check the query's limits cut short lets the MoveTo go and is
// searched on over the next ticks (SlicedPathQueue); if that search finds no path, the MoveTo
// fails then, as though the game had reported it.
#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "intent/action_tree.h"
#include "nav/nav_tile_cache.h"
#include "sim/sim_navigation.h"
#include "sim/simulation.h"

namespace npc {
namespace {

std::string point(Vec3 p) {
  char buf[96];
  std::snprintf(buf, sizeof buf, "(%.1f, %.1f, %.1f)", p.x, p.y, p.z);
  return buf;
}

}  // namespace

void Simulation::setNavMesh(nav::NavMesh mesh, const nav::NavConfig& config) {
  navigation_ = std::make_unique<SimNavigation>(std::move(mesh), config);
  nav::NavMesh& m = navigation_->mesh;
  if (!m.tileCache()) return;
  // Obstacles the mesh was built with are already in (an unchanged box is no change).
  for (const Obstacle& o : world_.obstacles()) m.tileCache()->upsert(o.id, o.box);
  m.updateAllTiles();
}

Status Simulation::navigateObstacle(const Obstacle& obstacle) {
  if (!navigation_) return Status::ok();
  nav::NavTileCache* cache = navigation_->mesh.tileCache();
  if (!cache) {
    ++navigation_->ignored_obstacle_changes;
    return Status::ok();
  }
  std::string e = cache->upsert(obstacle.id, obstacle.box);
  if (e.empty()) return Status::ok();
  return {StatusCode::kResourceExhausted, "obstacle " + std::to_string(raw(obstacle.id)) + ": " + e};
}

void Simulation::navigateObstacleRemoval(ObstacleId id) {
  if (!navigation_) return;
  if (nav::NavTileCache* cache = navigation_->mesh.tileCache()) {
    cache->remove(id);
  } else {
    ++navigation_->ignored_obstacle_changes;
  }
}

void Simulation::updateNavMesh() {
  if (!navigation_) return;
  navigation_->tile_rebuilds += static_cast<uint64_t>(
      navigation_->mesh.updateTiles(navigation_->max_tile_rebuilds_per_tick));
}

bool Simulation::navigateMove(ClientActionStart& start) {
  if (!navigation_ || start.action != vocabulary_.move_to) return true;
  ActionArg* target = nullptr;
  for (uint8_t i = 0; i < start.arg_count && !target; ++i)
    if (start.args[i].type == ArgType::kPosition) target = &start.args[i];
  const Agent* agent = agents_.get(start.agent);
  const Entity* body = agent ? world_.entities().get(agent->entity) : nullptr;
  if (!target || !body) return true;
  SimNavigation& nav = *navigation_;
  const Vec3 to = target->position();
  const nav::NavPath path = nav.query.path(body->position, to);
  if (nav.last_paths.size() > 2 * agents_.size() + 64) {
    std::erase_if(nav.last_paths, [&](const auto& kv) { return !agents_.get(kv.first); });
  }
  SimNavigation::LastPath& last = nav.last_paths[start.agent];
  last = {body->position, to, path.end.position, path.result, path.length_m, timeS(), start.intention};
  last.corner_count = static_cast<uint8_t>(nav.query.lastCorners(last.corners));
  switch (path.result) {
    case nav::NavResult::kOk:
      target->xyz = {path.end.position.x, path.end.position.y, path.end.position.z};
      return true;
    case nav::NavResult::kSearchLimit:
      // No evidence against the walk yet: it goes out, and a longer search goes on.
      if (nav.long_searches.request({raw(start.agent), raw(start.intention), body->position, to})) {
        last.long_search = SimNavigation::LastPath::LongSearch::kWaiting;
      } else {
        last.long_search = SimNavigation::LastPath::LongSearch::kRefused;
        ++nav.long_searches_refused;
      }
      return true;
    case nav::NavResult::kNoMesh:
      return true;  // no evidence against the walk: the game decides
    case nav::NavResult::kOffMesh:
    case nav::NavResult::kUnreachable:
      break;
  }
  nav.refused.push_back({start.agent, start.intention, unreachableReason(path.result, body->position, to)});
  return false;
}

std::string Simulation::unreachableReason(nav::NavResult result, Vec3 from, Vec3 to) {
  if (result == nav::NavResult::kUnreachable)
    return "unreachable: no path on the navmesh from " + point(from) + " to " + point(to);
  nav::NavPoint ignored;
  const bool start_off = navigation_->query.nearestPoint(from, ignored) != nav::NavResult::kOk;
  return std::string("unreachable: ") + (start_off ? "the agent at " + point(from) : "the target " + point(to)) +
         " is off the navmesh";
}

void Simulation::searchLongPaths() {
  if (!navigation_ || navigation_->long_searches.size() == 0) return;
  SimNavigation& nav = *navigation_;
  nav.long_answers.clear();
  nav.long_searches.update(nav.long_answers);
  for (const nav::SlicedPathAnswer& a : nav.long_answers) {
    ++nav.long_searches_done;
    const EntityId id{a.request.key};
    const IntentionId intention{a.request.tag};
    const auto last = nav.last_paths.find(id);
    if (last != nav.last_paths.end() && last->second.intention == intention) {
      SimNavigation::LastPath& p = last->second;
      p.result = a.path.result;
      p.snapped = a.path.end.position;
      p.length_m = a.path.length_m;
      p.long_search = SimNavigation::LastPath::LongSearch::kDone;
      p.searched_s = timeS();
      p.search_iterations = a.iterations;
      p.corner_count = a.corner_count;
      std::copy_n(a.corners.begin(), std::min<size_t>(a.corner_count, p.corners.size()), p.corners.begin());
    }
    if (a.path.result != nav::NavResult::kUnreachable && a.path.result != nav::NavResult::kOffMesh) continue;
    // The MoveTo went out: if it still runs, it fails now as the game would report it (a
    // result the game sends later for it is a late one, counted, not an error).
    Agent* agent = agents_.get(id);
    if (!agent) continue;
    std::string why = unreachableReason(a.path.result, a.request.from, a.request.to) + " (found by a longer search)";
    ActionTree tree(agent->intent.queue, agent->id, treeContext());
    if (tree.clientResult(intention, ClientOutcome::kFailed) == IntentStatus::kOk) flushIntentions(&why);
  }
}

void Simulation::failRefusedMoves() {
  if (!navigation_ || navigation_->refused.empty()) return;
  std::vector<SimNavigation::Refused> refused;
  refused.swap(navigation_->refused);
  const TreeContext ctx = treeContext();
  for (const SimNavigation::Refused& r : refused) {
    Agent* agent = agents_.get(r.agent);
    if (!agent) continue;
    ActionTree tree(agent->intent.queue, agent->id, ctx);
    if (tree.clientResult(r.intention, ClientOutcome::kFailed) == IntentStatus::kOk)
      flushIntentions(&r.reason);
  }
}

void Simulation::describeNavigation(const Agent& agent, nlohmann::json& out) const {
  if (!navigation_) return;
  const auto it = navigation_->last_paths.find(agent.id);
  if (it == navigation_->last_paths.end()) return;
  const SimNavigation::LastPath& p = it->second;
  nlohmann::json j{{"from", {p.from.x, p.from.y, p.from.z}},
                   {"to", {p.to.x, p.to.y, p.to.z}},
                   {"result", nav::toString(p.result)},
                   {"at_s", p.time_s}};
  using LongSearch = SimNavigation::LastPath::LongSearch;
  if (p.long_search == LongSearch::kWaiting) j["long_search"] = {{"state", "waiting"}};
  if (p.long_search == LongSearch::kRefused) j["long_search"] = {{"state", "refused: queue full"}};
  if (p.long_search == LongSearch::kDone)
    j["long_search"] = {{"state", "done"}, {"at_s", p.searched_s}, {"iterations", p.search_iterations}};
  if (p.result == nav::NavResult::kOk) {
    j["snapped"] = {p.snapped.x, p.snapped.y, p.snapped.z};
    j["length_m"] = p.length_m;
    nlohmann::json corners = nlohmann::json::array();
    for (uint8_t i = 0; i < p.corner_count; ++i) corners.push_back({p.corners[i].x, p.corners[i].y, p.corners[i].z});
    j["corners"] = std::move(corners);
  }
  out["navigation"] = {{"last_move_to", std::move(j)}};
}

}  // namespace npc
