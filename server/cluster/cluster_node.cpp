#include "cluster/cluster_node.h"

#include <algorithm>

#include <spdlog/spdlog.h>

#include "logging.h"
#include "place_handoff.h"
#include "sim/simulation.h"

namespace npc {

namespace {

std::vector<std::string> placeNames(const WorldFile& world) {
  std::vector<std::string> names;
  for (const Place& p : world.places) names.push_back(p.name);
  return names;
}

}  // namespace

ClusterNode::ClusterNode(const ClusterConfig& config, std::string address, WorldFile world,
                         std::string definitions_hash)
    : world_(std::move(world)),
      definitions_hash_(std::move(definitions_hash)),
      keeper_(config, address, placeNames(world_)),
      writer_(config, address, HandoffSource{definitions_hash_, config.node_id}) {}

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
  adoptPending(sim);  // the tick just run applied their holds
  changes_.clear();
  fenced_.clear();
  const auto now = LeaseKeeper::Clock::now();
  keeper_.takeChanges(now, changes_);
  for (LeaseChange& change : changes_) onChange(change, sim);
  // The interval starts when a capture is handed over: with nothing held, or the last
  // capture still being written, the next tick tries again.
  if (now >= next_write_ && writeHeld(sim)) {
    next_write_ = now + std::chrono::duration_cast<LeaseKeeper::Clock::duration>(
                            std::chrono::duration<double>(keeper_.config().snapshot_interval_s));
  }
  return fenced_;
}

void ClusterNode::onChange(LeaseChange& change, Simulation& sim) {
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
    if (change.snapshot.empty()) {
      queueWorldNpcs(change.place, change.epoch, sim, "no snapshot of it yet");
      return;
    }
    PendingAdoption adoption{change.place, change.epoch, {}};
    if (!adoption.handoff.ParseFromString(change.snapshot)) {
      queueWorldNpcs(change.place, change.epoch, sim, "its snapshot in Redis does not parse");
      return;
    }
    pending_.push_back(std::move(adoption));
    return;
  }
  std::erase_if(pending_, [&](const PendingAdoption& p) { return p.place == change.place; });
  const PlaceIndex place = sim.world().findPlace(change.place);
  if (place != PlaceIndex::kNone) fenced_.push_back(place);
  spdlog::warn(logEvent("place lost",
                        "cluster: stops running place \"" + change.place + "\" (epoch " +
                            std::to_string(change.epoch) + "): " + change.why,
                        {{"place", change.place}, {"epoch", change.epoch}}));
}

void ClusterNode::queueWorldNpcs(const std::string& place, uint64_t epoch, Simulation& sim,
                                 const std::string& why) {
  const size_t npcs = queuePlaceNpcs(world_, place, sim);
  spdlog::info(logEvent("place acquired",
                        "cluster: holds place \"" + place + "\" at epoch " + std::to_string(epoch) +
                            ", " + why + ": " + std::to_string(npcs) + " npcs from the world file",
                        {{"place", place}, {"epoch", epoch}, {"adopted", false}}));
}

void ClusterNode::adoptPending(Simulation& sim) {
  if (pending_.empty()) return;
  for (PendingAdoption& p : pending_) {
    const PlaceIndex place = sim.world().findPlace(p.place);
    // A grant the simulation refused (or a place lost since) is not adopted.
    if (place == PlaceIndex::kNone || !sim.custody().held(place) || sim.custody().epoch(place) != p.epoch) {
      continue;
    }
    PlaceAdoption report;
    std::string error;
    const auto started = std::chrono::steady_clock::now();
    if (!adoptPlace(p.handoff, definitions_hash_, sim, report, error)) {
      spdlog::warn(logText("cluster: " + error));
      queueWorldNpcs(p.place, p.epoch, sim, "its snapshot cannot be adopted");
      continue;
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    adopted_.fetch_add(1);
    spdlog::info(logEvent(
        "place acquired",
        "cluster: holds place \"" + p.place + "\" at epoch " + std::to_string(p.epoch) + ", adopted from " +
            p.handoff.node() + "'s snapshot at epoch " + std::to_string(p.handoff.epoch()) + ": " +
            std::to_string(report.awake) + " awake, " + std::to_string(report.asleep) + " asleep" +
            (report.skipped ? ", " + std::to_string(report.skipped) + " already here" : std::string()) +
            fmt::format(" in {:.1f} ms", ms),
        {{"place", p.place}, {"epoch", p.epoch}, {"adopted", true}, {"from", p.handoff.node()},
         {"awake", report.awake}, {"asleep", report.asleep}}));
  }
  pending_.clear();
  if (on_adopt_) on_adopt_();
}

bool ClusterNode::writeHeld(Simulation& sim) {
  std::vector<PlaceToHand> places;
  const World& w = sim.world();
  const auto now = LeaseKeeper::Clock::now();
  for (size_t i = 0; i < w.places().size(); ++i) {
    const auto place = static_cast<PlaceIndex>(i);
    const std::string& name = w.places()[i].name;
    if (!sim.custody().held(place) || !keeper_.valid(name, now)) continue;
    // Not adopted yet: the snapshot in Redis is still the place's state.
    const bool pending = std::any_of(pending_.begin(), pending_.end(),
                                     [&](const PendingAdoption& p) { return p.place == name; });
    if (!pending) places.push_back({place, name, sim.custody().epoch(place)});
  }
  return !places.empty() && writer_.submit(sim, std::move(places));
}

void ClusterNode::stop(Simulation& sim, bool drain) {
  if (drain) {
    // The leases stay renewed while the places are written; then they are given up.
    const auto wait = std::chrono::milliseconds(
        static_cast<int64_t>(keeper_.config().lease_ttl_s * 1000.0 * LeaseKeeper::kValidFraction));
    writer_.flush(wait);
    writeHeld(sim);
    if (!writer_.flush(wait)) {
      spdlog::warn(logText("cluster: the places' snapshots were not all written before the drain's deadline"));
    }
  }
  keeper_.stop(drain);
}

}  // namespace npc
