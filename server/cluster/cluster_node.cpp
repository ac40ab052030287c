#include "cluster/cluster_node.h"

#include <spdlog/spdlog.h>

#include "logging.h"
#include "sim/simulation.h"

namespace npc {

namespace {

std::vector<std::string> placeNames(const WorldFile& world) {
  std::vector<std::string> names;
  for (const Place& p : world.places) names.push_back(p.name);
  return names;
}

}  // namespace

ClusterNode::ClusterNode(const ClusterConfig& config, std::string address, WorldFile world)
    : world_(std::move(world)), keeper_(config, std::move(address), placeNames(world_)) {}

ClusterNode::~ClusterNode() { keeper_.stop(false); }

void ClusterNode::start(Simulation& sim) {
  const World& w = sim.world();
  // A simulation restored from a snapshot (agents already there) gives every place up: the
  // snapshot's places may be anyone's now, and one taken alone has agents in all of them.
  if (sim.stats().agents > 0) {
    for (const Place& place : w.places()) {
      sim.submit({ClientId::kDaemon, 0, HoldPlace{place.name, false, 0, {}}});
    }
  }
  for (const EntityState& e : world_.entities) {
    if (e.kind == EntityKind::kNpc && startingPlace(e, w) == PlaceIndex::kNone) {
      spdlog::warn(logText(world_.source + ": npc " + std::to_string(raw(e.id)) +
                           " is outside every place; a cluster runs npcs by place, so it is left out"));
    }
  }
  spdlog::info(logText("cluster: node " + keeper_.config().node_id + " at " + keeper_.address() +
                       ", redis " + keeper_.config().redis_host + ":" +
                       std::to_string(keeper_.config().redis_port) + ", lease ttl " +
                       fmt::format("{:g}", keeper_.config().lease_ttl_s) + " s, places " +
                       (keeper_.config().balanced ? "balanced" : "static")));
  keeper_.start();
}

std::span<const PlaceIndex> ClusterNode::afterTick(Simulation& sim) {
  changes_.clear();
  fenced_.clear();
  keeper_.takeChanges(LeaseKeeper::Clock::now(), changes_);
  for (const LeaseChange& change : changes_) onChange(change, sim);
  return fenced_;
}

void ClusterNode::onChange(const LeaseChange& change, Simulation& sim) {
  if (change.kind == LeaseChange::Kind::kHeldElsewhere) {
    sim.submit({ClientId::kDaemon, 0, NotePlaceHolder{change.place, change.why}});
    return;
  }
  const bool acquired = change.kind == LeaseChange::Kind::kAcquired;
  auto reply = [place = change.place, epoch = change.epoch, acquired](const Status& s) {
    if (!s.isOk()) {
      spdlog::error(logText("cluster: " + std::string(acquired ? "holding" : "releasing") +
                            " place \"" + place + "\" at epoch " + std::to_string(epoch) + ": " +
                            s.message()));
    }
  };
  sim.submit({ClientId::kDaemon, 0, HoldPlace{change.place, acquired, change.epoch, reply}});
  if (acquired) {
    const size_t npcs = queuePlaceNpcs(world_, change.place, sim);
    spdlog::info(logEvent("place acquired",
                          "cluster: holds place \"" + change.place + "\" at epoch " +
                              std::to_string(change.epoch) + " (" + std::to_string(npcs) +
                              " npcs from the world file)",
                          {{"place", change.place}, {"epoch", change.epoch}}));
    return;
  }
  const PlaceIndex place = sim.world().findPlace(change.place);
  if (place != PlaceIndex::kNone) fenced_.push_back(place);
  spdlog::warn(logEvent("place lost",
                        "cluster: stops running place \"" + change.place + "\" (epoch " +
                            std::to_string(change.epoch) + "): " + change.why,
                        {{"place", change.place}, {"epoch", change.epoch}}));
}

void ClusterNode::stop(bool drain) { keeper_.stop(drain); }

}  // namespace npc
