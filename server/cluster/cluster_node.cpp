#include "cluster/cluster_node.h"

#include <algorithm>
#include <cstdlib>
#include <variant>

#include <spdlog/spdlog.h>

#include "logging.h"
#include "journal_codec.h"
#include "place_handoff.h"
#include "sim_state_codec.h"
#include "sim_state_copy.h"
#include "sim/command_places.h"
#include "sim/simulation.h"

namespace npc {

namespace {

constexpr std::chrono::seconds kLeftPlaceWrite{1};
// A sound, a signal or an action on an agent read this much later than it was made (a
// relayed sound, a place's input applied again) is news no more.
constexpr int64_t kStaleMs = 2000;

int64_t unixMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Whether a place's input entry came after its snapshot: a later holder's, or the same
// holder's from a later tick.
bool afterSnapshot(const pb::PlaceInput& input, const pb::PlaceHandoff& snapshot) {
  return input.epoch() > snapshot.epoch() ||
         (input.epoch() == snapshot.epoch() && input.tick() > snapshot.tick());
}

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
      writer_(config, address, HandoffSource{definitions_hash_, config.node_id}),
      courier_(config) {}

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
  tick_inputs_.resize(w.places().size());
  sim.addCommandRecorder(
      [this, &sim](uint64_t tick, Command& command) { recordInput(tick, command, sim); });
  keeper_.start();
}

ClusterNews ClusterNode::afterTick(Simulation& sim) {
  sendInputs(sim);
  answerStored(sim);
  adoptPending(sim);  // the tick just run applied their holds
  receiveArrivals(sim);
  handOverDelivered(sim);
  changes_.clear();
  fenced_.clear();
  const auto now = LeaseKeeper::Clock::now();
  keeper_.takeChanges(now, changes_);
  for (LeaseChange& change : changes_) onChange(change, sim);
  sendLeaving(sim);
  relayStimuli(sim);
  shedPlaces(sim);
  // An npc on its way to another node's place runs on here until handed over: what it
  // does meanwhile is not this node's to send.
  for (const auto& [id, place] : in_flight_) {
    if (std::find(fenced_.begin(), fenced_.end(), place) == fenced_.end()) fenced_.push_back(place);
  }
  // The interval starts when a capture is handed over: with nothing held, or the last
  // capture still being written, the next tick tries again.
  if (now >= next_write_ && writeHeld(sim)) {
    next_write_ = now + std::chrono::duration_cast<LeaseKeeper::Clock::duration>(
                            std::chrono::duration<double>(keeper_.config().snapshot_interval_s));
  }
  return {fenced_, replies_.stored(), replies_.unkept()};
}

void ClusterNode::onChange(LeaseChange& change, Simulation& sim) {
  if (change.kind == LeaseChange::Kind::kHeldElsewhere) {
    sim.submit({ClientId::kDaemon, 0, NotePlaceHolder{change.place, change.why}});
    return;
  }
  if (change.kind == LeaseChange::Kind::kShed) {
    spdlog::info(logEvent("place shed",
                          "cluster: gives place \"" + change.place + "\" up (epoch " +
                              std::to_string(change.epoch) + "): " + change.why,
                          {{"place", change.place}, {"epoch", change.epoch}}));
    shedding_.push_back({change.place, change.epoch, false});
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
    PendingAdoption adoption{change.place, change.epoch, {}, !change.snapshot.empty(),
                             std::move(change.inputs)};
    if (adoption.has_snapshot && !adoption.handoff.ParseFromString(change.snapshot)) {
      spdlog::warn(logText("cluster: place \"" + change.place + "\"'s snapshot in Redis does not parse"));
      adoption.has_snapshot = false;
    }
    if (!adoption.has_snapshot) queueWorldNpcs(change.place, change.epoch, sim, "no snapshot of it");
    pending_.push_back(std::move(adoption));
    return;
  }
  std::erase_if(pending_, [&](const PendingAdoption& p) { return p.place == change.place; });
  std::erase_if(shedding_, [&](const Shedding& s) { return s.place == change.place; });
  courier_.unwatch(change.place);
  arrivals_after_.erase(change.place);
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
  bool adopted = false;
  for (PendingAdoption& p : pending_) {
    const PlaceIndex place = sim.world().findPlace(p.place);
    // A grant the simulation refused (or a place lost since) is not adopted.
    if (place == PlaceIndex::kNone || !sim.custody().held(place) || sim.custody().epoch(place) != p.epoch) {
      continue;
    }
    std::string after;  // the place's arrivals are read on from what its state includes
    if (p.has_snapshot) {
      if (adoptSnapshot(p, sim)) {
        after = p.handoff.arrivals_after();
        adopted = true;
      } else {
        queueWorldNpcs(p.place, p.epoch, sim, "its snapshot cannot be adopted");
      }
    }
    replayInputs(p, sim);
    arrivals_after_[p.place] = after;
    courier_.watch(p.place, after);
  }
  pending_.clear();
  if (adopted && on_adopt_) on_adopt_();
}

bool ClusterNode::adoptSnapshot(const PendingAdoption& p, Simulation& sim) {
  PlaceAdoption report;
  std::string error;
  const auto started = std::chrono::steady_clock::now();
  if (!adoptPlace(p.handoff, definitions_hash_, sim, report, error)) {
    spdlog::warn(logText("cluster: " + error));
    return false;
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
  return true;
}

void ClusterNode::recordInput(uint64_t tick, Command& command, const Simulation& sim) {
  if (command.replayed) return;  // in the stream already, from before the place came here
  // A client's stream update (admin calls have no seq): how far its updates are stored is
  // told on its stream (DurableReplies::holdStream).
  const bool streamed = command.seq > 0 && command.origin != ClientId::kDaemon &&
                        command.origin != ClientId::kUnowned;
  const CommandPlaces at = commandPlaces(command, sim);
  auto kept = [&](PlaceIndex place) {
    return place != PlaceIndex::kNone && raw(place) < tick_inputs_.size() && sim.custody().held(place);
  };
  // Encoded only for a place held here: the game's updates for other places cost nothing.
  if (!(kept(at.first) || kept(at.second)) || !encodeCommand(command, encoded_)) {
    if (streamed) replies_.holdStream(command.origin, command.seq, {PlaceIndex::kNone, PlaceIndex::kNone});
    return;
  }
  std::array<PlaceIndex, 2> places{PlaceIndex::kNone, PlaceIndex::kNone};
  size_t n = 0;
  for (PlaceIndex place : {at.first, at.second}) {
    if (!kept(place)) continue;
    pb::PlaceInput& input = tick_inputs_[raw(place)];
    if (input.commands_size() == 0) {
      input.set_epoch(sim.custody().epoch(place));
      input.set_tick(tick);
      input_places_.push_back(place);
    }
    *input.add_commands() = encoded_;
    places[n++] = place;
  }
  replies_.hold(command, places);
  if (streamed) replies_.holdStream(command.origin, command.seq, places);
}

void ClusterNode::sendInputs(const Simulation& sim) {
  if (input_places_.empty()) {
    replies_.numberTick();  // answers given late for earlier ticks' entries
    return;
  }
  const int64_t now_ms = unixMs();
  const std::span<const ClientBinding> bindings = sim.clients().bindings();
  for (PlaceIndex place : input_places_) {
    pb::PlaceInput& input = tick_inputs_[raw(place)];
    input.set_unix_ms(now_ms);
    input.set_node(keeper_.config().node_id);
    for (const pb::JournalCommand& c : input.commands()) {
      const bool named = std::any_of(input.clients().begin(), input.clients().end(),
                                     [&](const pb::ClientBindingState& b) { return b.id() == c.origin(); });
      if (named) continue;
      for (const ClientBinding& b : bindings) {
        if (raw(b.id) != c.origin()) continue;
        pb::ClientBindingState* added = input.add_clients();
        added->set_name(b.name);
        added->set_id(c.origin());
      }
    }
    const LeaseToken token{sim.world().place(place)->name, keeper_.config().node_id, input.epoch(),
                           keeper_.address()};
    replies_.recorded(place, courier_.record({token, input.tick(), input.SerializeAsString()}));
    input.Clear();
  }
  input_places_.clear();
  replies_.numberTick();
}

void ClusterNode::answerStored(const Simulation& sim) {
  uint64_t through = 0;
  lost_inputs_.clear();
  courier_.takeSettled(through, lost_inputs_);
  replies_.settle(through, lost_inputs_, sim.world());
}

void ClusterNode::replayInputs(const PendingAdoption& p, Simulation& sim) {
  const int64_t now_ms = unixMs();
  size_t applied = 0, stale = 0, refused = 0;
  for (const std::string& bytes : p.inputs) {
    pb::PlaceInput input;
    if (!input.ParseFromString(bytes)) {
      ++refused;
      continue;
    }
    if (p.has_snapshot && !afterSnapshot(input, p.handoff)) continue;
    const bool fresh = now_ms - input.unix_ms() <= kStaleMs;
    const WriterClients origins(input.clients(), sim.clients());
    for (const pb::JournalCommand& encoded : input.commands()) {
      Command command;
      std::string error;
      if (!decodeCommand(encoded, command, error)) {
        ++refused;
        continue;
      }
      if (!fresh && isStimulus(command)) {
        ++stale;
        continue;
      }
      command.origin = origins(command.origin);
      command.replayed = true;
      if (sim.submit(std::move(command))) ++applied;
    }
  }
  if (applied + stale + refused == 0) return;
  inputs_replayed_.fetch_add(applied);
  spdlog::info(logEvent("place inputs replayed",
                        "cluster: place \"" + p.place + "\": " + std::to_string(applied) +
                            " input(s) recorded after its snapshot applied again" +
                            (stale ? ", " + std::to_string(stale) + " stale stimuli left out" : std::string()) +
                            (refused ? ", " + std::to_string(refused) + " unreadable" : std::string()),
                        {{"place", p.place}, {"epoch", p.epoch}, {"inputs", applied}, {"stale", stale}}));
}

void ClusterNode::receiveArrivals(Simulation& sim) {
  arrivals_.clear();
  courier_.takeArrivals(arrivals_);
  for (const IncomingNpcs& in : arrivals_) {
    const PlaceIndex place = sim.world().findPlace(in.place);
    if (place == PlaceIndex::kNone || !sim.custody().held(place)) continue;  // read on by its holder
    arrivals_after_[in.place] = in.entry_id;
    if (in.field == kArrivalCommand) {
      applyRelayed(in, sim);
      continue;
    }
    pb::PlaceHandoff arrivals;
    PlaceAdoption report;
    std::string error;
    if (!arrivals.ParseFromString(in.bytes)) {
      spdlog::error(logText("cluster: place \"" + in.place + "\" arrivals entry " + in.entry_id +
                            " does not parse; skipped"));
      continue;
    }
    if (!adoptArrivals(arrivals, definitions_hash_, sim, report, error)) {
      spdlog::error(logText("cluster: " + error + " (entry " + in.entry_id + ", skipped)"));
      continue;
    }
    arrived_.fetch_add(report.awake);
    spdlog::info(logEvent("npcs arrived",
                          "cluster: " + std::to_string(report.awake) + " npc(s) walked into place \"" +
                              in.place + "\" from " + arrivals.node() +
                              (report.skipped ? ", " + std::to_string(report.skipped) + " already here"
                                              : std::string()),
                          {{"place", in.place}, {"from", arrivals.node()}, {"npcs", report.awake}}));
  }
}

void ClusterNode::sendLeaving(Simulation& sim) {
  ids_.clear();
  sim.takeLeaving(ids_);
  if (ids_.empty()) return;
  const EntityTable& entities = sim.world().entities();
  std::map<PlaceIndex, std::vector<EntityId>> by_place;
  for (EntityId id : ids_) {
    const Entity* body = entities.get(entities.find(id));
    if (body && !in_flight_.count(id)) by_place[body->place].push_back(id);
  }
  pb::SimState whole;
  std::vector<pb::PlaceHandoff> handoffs;
  const HandoffSource source{definitions_hash_, keeper_.config().node_id};
  for (const auto& [place, ids] : by_place) {
    const Place* p = sim.world().place(place);
    if (!p) continue;
    copyAgents(sim, ids, leaving_copy_);
    buildSimState(leaving_copy_, whole);
    splitPlaces(whole, std::vector<PlaceToHand>{{place, p->name, 0, {}}}, sim.timeS(), source, handoffs);
    std::string bytes;
    handoffs[0].SerializeToString(&bytes);
    courier_.send({p->name, std::move(bytes), ids});
    for (EntityId id : ids) in_flight_[id] = place;
    const std::string& holder = sim.custody().holder(place);
    spdlog::info(logEvent("npcs leaving",
                          "cluster: " + std::to_string(ids.size()) + " npc(s) walked into place \"" +
                              p->name + "\", held by " + (holder.empty() ? "another node" : holder) +
                              ": handing them over",
                          {{"place", p->name}, {"npcs", ids.size()}}));
  }
  // The places they left no longer have them: written within a second, so that a crash of
  // this node does not bring them back there from an older snapshot. Not at once: where
  // npcs cross borders all the time, a capture every tick would cost the tick its copy.
  const auto soon = LeaseKeeper::Clock::now() + kLeftPlaceWrite;
  if (soon < next_write_) next_write_ = soon;
}

void ClusterNode::relayStimuli(Simulation& sim) {
  sounds_.clear();
  signals_.clear();
  players_.clear();
  sim.takeCrossingSounds(sounds_);
  sim.takeCrossingSignals(signals_);
  sim.takeVisitingPlayers(players_);
  pb::JournalCommand encoded;
  auto relay = [&](PlaceIndex place, CommandBody body, std::atomic<uint64_t>& count) {
    const Place* p = sim.world().place(place);
    if (!p || !encodeCommand({ClientId::kDaemon, 0, std::move(body)}, encoded)) return;
    courier_.send({p->name, encoded.SerializeAsString(), {}, std::string(kArrivalCommand)});
    count.fetch_add(1);
  };
  for (const auto& [place, sound] : sounds_) {
    relay(place,
          SoundEvent{sound.source, sound.position, sound.radius_m,
                     std::string(toString(sound.kind)), sound.threat, true},
          sounds_relayed_);
  }
  for (auto& [place, signal] : signals_) {
    signal.relayed = true;
    relay(place, std::move(signal), signals_relayed_);
  }
  for (auto& [place, player] : players_) relay(place, UpsertEntity{std::move(player)}, players_relayed_);
}

// A sound or signal made in a place another node holds, reaching one held here, or a player
// near one held here. Heard (or seen) now, or not at all: one read late (a node taking the
// place over reads on from its snapshot's entry) is news no more, and is dropped.
void ClusterNode::applyRelayed(const IncomingNpcs& in, Simulation& sim) {
  const int64_t now_ms = unixMs();
  const int64_t made_ms = std::strtoll(in.entry_id.c_str(), nullptr, 10);  // "<ms>-<seq>"
  if (now_ms - made_ms > kStaleMs) return;
  pb::JournalCommand encoded;
  Command command;
  std::string error;
  const bool parsed = encoded.ParseFromString(in.bytes) && decodeCommand(encoded, command, error);
  const auto* sound = parsed ? std::get_if<SoundEvent>(&command.body) : nullptr;
  const auto* signal = parsed ? std::get_if<SignalEvent>(&command.body) : nullptr;
  const auto* player = parsed ? std::get_if<UpsertEntity>(&command.body) : nullptr;
  if (!(sound && sound->relayed) && !(signal && signal->relayed) &&
      !(player && player->state.relayed && player->state.kind == EntityKind::kPlayer)) {
    spdlog::error(logText("cluster: place \"" + in.place + "\" arrivals entry " + in.entry_id +
                          " is not a relayed sound, signal or player; skipped"));
    return;
  }
  command.origin = ClientId::kDaemon;
  if (!sim.submit(std::move(command))) return;
  (sound ? sounds_heard_ : signal ? signals_heard_ : players_visiting_).fetch_add(1);
}

void ClusterNode::handOverDelivered(Simulation& sim) {
  ids_.clear();
  courier_.takeDelivered(ids_);
  const EntityTable& entities = sim.world().entities();
  for (EntityId id : ids_) {
    auto it = in_flight_.find(id);
    if (it == in_flight_.end()) continue;
    const PlaceIndex to = it->second;
    in_flight_.erase(it);
    // This node came to hold the place it went to: it is home (the entry is skipped when read).
    const Entity* body = entities.get(entities.find(id));
    if (body && body->place == to && sim.custody().held(to)) continue;
    sim.submit({ClientId::kDaemon, 0, HandOver{id}});
    handed_over_.fetch_add(1);
  }
}

void ClusterNode::shedPlaces(Simulation& sim) {
  written_.clear();
  writer_.takeWritten(written_);
  if (shedding_.empty()) return;
  for (auto it = shedding_.begin(); it != shedding_.end();) {
    const PlaceIndex place = sim.world().findPlace(it->place);
    bool done = false;
    if (it->writing) {
      for (const PlaceWritten& w : written_) {
        if (w.place != it->place || w.epoch != it->epoch) continue;
        if (w.ok) {
          done = true;
        } else {
          it->writing = false;  // written again below or next tick
        }
      }
    }
    if (done) {
      // Its agents go at the start of the next tick; the lease in the keeper's next round.
      sim.submit({ClientId::kDaemon, 0, HoldPlace{it->place, false, it->epoch, {}}});
      keeper_.giveUp(it->place, it->epoch);
      courier_.unwatch(it->place);
      arrivals_after_.erase(it->place);
      fenced_.push_back(place);
      it = shedding_.erase(it);
      continue;
    }
    if (!it->writing && place != PlaceIndex::kNone && sim.custody().held(place)) {
      auto after = arrivals_after_.find(it->place);
      std::vector<PlaceToHand> one = {{place, it->place, it->epoch,
                                       after == arrivals_after_.end() ? std::string() : after->second}};
      it->writing = writer_.submit(sim, std::move(one));
    }
    // From the capture on, what the place does here is not sent: its next holder starts
    // from the capture.
    if (it->writing) fenced_.push_back(place);
    ++it;
  }
}

bool ClusterNode::writeHeld(Simulation& sim) {
  std::vector<PlaceToHand> places;
  const World& w = sim.world();
  const auto now = LeaseKeeper::Clock::now();
  for (size_t i = 0; i < w.places().size(); ++i) {
    const auto place = static_cast<PlaceIndex>(i);
    const std::string& name = w.places()[i].name;
    if (!sim.custody().held(place) || !keeper_.valid(name, now)) continue;
    // Not adopted yet: the snapshot in Redis is still the place's state. Being shed: its
    // capture is written already, and what it did since was not sent.
    const bool pending = std::any_of(pending_.begin(), pending_.end(),
                                     [&](const PendingAdoption& p) { return p.place == name; });
    const bool shed = std::any_of(shedding_.begin(), shedding_.end(),
                                  [&](const Shedding& s) { return s.place == name; });
    if (pending || shed) continue;
    auto after = arrivals_after_.find(name);
    places.push_back({place, name, sim.custody().epoch(place),
                      after == arrivals_after_.end() ? std::string() : after->second});
  }
  return !places.empty() && writer_.submit(sim, std::move(places));
}

void ClusterNode::stop(Simulation& sim, bool drain) {
  if (drain) {
    // The leases stay renewed while the places are written; then they are given up.
    const auto wait = std::chrono::milliseconds(
        static_cast<int64_t>(keeper_.config().lease_ttl_s * 1000.0 * LeaseKeeper::kValidFraction));
    courier_.flush(wait);  // npcs on their way out reach their places' streams
    answerStored(sim);
    writer_.flush(wait);
    writeHeld(sim);
    if (!writer_.flush(wait)) {
      spdlog::warn(logText("cluster: the places' snapshots were not all written before the drain's deadline"));
    }
  }
  // Their commands applied here, but Redis may not have them: the client must not take
  // them as kept.
  replies_.abandon("npcd stopped before Redis stored this command: it may not be kept");
  keeper_.stop(drain);
}

}  // namespace npc
