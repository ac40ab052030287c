#include "client_hub.h"

#include <algorithm>
#include <string>

#include <spdlog/spdlog.h>

#include "logging.h"
#include "proto_convert.h"
#include "session.h"

namespace npc {

namespace {

const char* errorKindName(ClientHub::ErrorKind kind) {
  return kind == ClientHub::ErrorKind::kInput ? "input" : "refused";
}

// Debug level: a busy client's mistakes would flood the info log, and the counters
// (npcd_errors_total) already say how many there are.
void logClientError(ClientId client, ClientHub::ErrorKind kind, uint64_t seq, EntityId agent,
                    const std::string& text) {
  if (!spdlog::should_log(spdlog::level::debug)) return;
  spdlog::debug(logEvent("client error",
                         "error to client " + std::to_string(raw(client)) + " (update " +
                             std::to_string(seq) + ", " + errorKindName(kind) + "): " + text,
                         {{"client", raw(client)}, {"kind", errorKindName(kind)}, {"seq", seq},
                          {"agent", raw(agent)}, {"error", text}}));
}

bool placePasses(PlaceIndex place, const Subscription& sub, const std::vector<PlaceIndex>& places) {
  if (sub.places.empty()) return true;
  return place != PlaceIndex::kNone && std::find(places.begin(), places.end(), place) != places.end();
}

// Routing rules for one action (see ClientHub::publish in client_hub.h):
//   own agents: always; orphaned agents (owner left): by place; everybody else's agents,
//   the demo game's included: only with observe_all_actions, by place.
bool wantsAction(const ActionOut& action, ClientId me, const Subscription& sub,
                 const std::vector<PlaceIndex>& places) {
  if (action.owner == me) return true;
  if (action.owner != ClientId::kUnowned && !sub.observe_all_actions) return false;
  return placePasses(action.place, sub, places);
}

// Events addressed to one client always reach it; broadcasts pass the kind and place
// filters. Events that belong to no place pass the place filter, and so do stealth events:
// a player's meter concerns the player wherever the agent watching them stands.
bool wantsEvent(const EventOut& event, ClientId me, const Subscription& sub,
                const std::vector<PlaceIndex>& places) {
  if (event.to == me) return true;
  if (event.to != kAllClients || !sub.wantsEvent(event.kind)) return false;
  return event.place == PlaceIndex::kNone || event.kind == EventKind::kStealth ||
         placePasses(event.place, sub, places);
}

}  // namespace

ClientHub::ClientHub(Simulation& sim, const HubLimits& limits) : sim_(sim), limits_(limits) {
  // A daemon restored from a snapshot: identities get their ids again, and a new client an
  // id no restored entity is still owned by (the tick thread is not running yet).
  const ClientDirectory& directory = sim_.clients();
  for (const ClientBinding& b : directory.bindings()) identities_.push_back(Identity{b.name, b.id});
  next_client_ = std::max<uint32_t>(next_client_, directory.highest() + 1);
}

ClientHub::~ClientHub() = default;

ClientId ClientHub::allocateLocked() {
  // Ids are never reused, and never reach the reserved kUnowned / kAllClients values.
  if (next_client_ >= raw(ClientId::kUnowned)) return ClientId::kUnowned;
  return static_cast<ClientId>(next_client_++);
}

ClientHub::Identity* ClientHub::findIdentityLocked(const std::string& name) {
  for (Identity& identity : identities_) {
    if (identity.name == name) return &identity;
  }
  const ClientId id = allocateLocked();
  if (id == ClientId::kUnowned) return nullptr;
  submitLifecycleLocked(Command{id, 0, BindClient{name}});  // journaled, kept by snapshots
  return &identities_.emplace_back(Identity{name, id});
}

ClientId ClientHub::identityClient(const std::string& name) {
  std::lock_guard lock(mutex_);
  const Identity* identity = findIdentityLocked(name);
  return identity ? identity->id : ClientId::kUnowned;
}

std::shared_ptr<Session> ClientHub::open(const std::string& name, bool read_only,
                                         grpc::Status& refusal) {
  std::lock_guard lock(mutex_);
  if (draining_) {
    refusal = grpc::Status(grpc::StatusCode::UNAVAILABLE, "npcd is shutting down");
    return nullptr;
  }
  if (sessions_.size() >= limits_.max_clients) {
    refusal = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                           "npcd already has " + std::to_string(sessions_.size()) +
                               " Connect streams open (max_clients); retry later");
    return nullptr;
  }
  ClientId id = ClientId::kUnowned;
  if (name.empty()) {
    id = allocateLocked();
  } else if (Identity* identity = findIdentityLocked(name)) {
    id = identity->id;
    if (identity->streams++ == 0 && identity->seen) {
      submitLifecycleLocked(Command{id, 0, ClientBack{}});
    }
    identity->seen = true;
  }
  if (id == ClientId::kUnowned) {
    refusal = grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED,
                           "npcd has no client ids left; restart it");
    return nullptr;
  }
  const uint64_t tick = last_tick_.load();
  const double sim_time_s = last_sim_time_s_.load();
  auto session = std::make_shared<Session>(id, limits_.outbox_max_messages, tick, sim_time_s,
                                           !name.empty(), read_only);

  v1::ServerMessage welcome;
  welcome.set_tick(tick);
  welcome.set_sim_time(sim_time_s);
  welcome.mutable_welcome()->set_client_id(raw(id));
  welcome.mutable_welcome()->set_tick_dt(sim_.config().tick_dt_s);  // immutable after start
  welcome.mutable_welcome()->set_tick(tick);
  session->push(std::move(welcome));  // no reactor yet: it is written once attached

  sessions_.push_back(session);
  spdlog::info(logEvent("client connected",
                        "client " + std::to_string(raw(id)) +
                            (name.empty() ? std::string() : " (" + name + ")") + " connected" +
                            (read_only ? " read-only" : "") + ", " +
                            std::to_string(sessions_.size()) + " streams open",
                        {{"client", raw(id)}, {"identity", name}, {"read_only", read_only},
                         {"streams", sessions_.size()}}));
  return session;
}

void ClientHub::close(const std::shared_ptr<Session>& session) {
  std::lock_guard lock(mutex_);
  auto it = std::find(sessions_.begin(), sessions_.end(), session);
  if (it == sessions_.end()) return;
  sessions_.erase(it);
  spdlog::info(logEvent("client disconnected",
                        "client " + std::to_string(raw(session->id())) + " disconnected, " +
                            std::to_string(sessions_.size()) + " streams open",
                        {{"client", raw(session->id())}, {"streams", sessions_.size()}}));
  if (!session->named()) {
    submitLifecycleLocked(Command{session->id(), 0, ClientGone{false}});
    return;
  }
  for (Identity& identity : identities_) {
    if (identity.id == session->id() && --identity.streams == 0) {
      submitLifecycleLocked(Command{session->id(), 0, ClientGone{true}});
    }
  }
}

void ClientHub::dropSlowClient(const std::shared_ptr<Session>& session) {
  const std::string message = "client " + std::to_string(raw(session->id())) +
                              " too slow: outbox exceeded " +
                              std::to_string(limits_.outbox_max_messages) + " messages";
  if (!session->finish(grpc::Status(grpc::StatusCode::RESOURCE_EXHAUSTED, message))) return;
  spdlog::warn(logEvent("client dropped", message,
                        {{"client", raw(session->id())},
                         {"outbox_max", limits_.outbox_max_messages}}));
  {
    std::lock_guard lock(mutex_);
    ++dropped_;
  }
  close(session);
}

void ClientHub::submitLifecycleLocked(Command command) {
  // Behind anything refused earlier, so a client's leaving and returning keep their order.
  if (lifecycle_pending_.empty() && sim_.submit(std::move(command))) return;
  // The queue is full; the agents must still be released, so retry on the next tick.
  lifecycle_pending_.push_back(std::move(command));
}

void ClientHub::retryLifecycle() {
  std::lock_guard lock(mutex_);
  if (lifecycle_pending_.empty()) return;
  if (sim_.submit(lifecycle_pending_)) lifecycle_pending_.clear();
}

void ClientHub::countErrors(ClientId client, ErrorKind kind, uint64_t seq,
                            const std::vector<std::string>& errors) {
  (kind == ErrorKind::kInput ? errors_input_ : errors_refused_) += errors.size();
  for (const std::string& text : errors) logClientError(client, kind, seq, EntityId::kNone, text);
}

uint64_t ClientHub::errorCount(ErrorKind kind) const {
  return (kind == ErrorKind::kInput ? errors_input_ : errors_refused_).load();
}

void ClientHub::publish(const Simulation& sim, const ClusterNews& cluster) {
  const std::span<const PlaceIndex> fenced = cluster.fenced;
  const TickOutput& out = sim.output();
  last_tick_.store(out.tick);
  last_sim_time_s_.store(out.sim_time_s);
  retryLifecycle();
  {
    std::lock_guard lock(mutex_);
    publishing_.assign(sessions_.begin(), sessions_.end());
  }
  if (publishing_.empty()) return;

  // Convert each action and event once; sessions then only copy what they want.
  actions_.resize(out.actions.size());
  const PlaceCustody& custody = sim.custody();
  for (size_t i = 0; i < out.actions.size(); ++i) {
    toProto(out.actions[i], sim.names(), sim.world(), actions_[i]);
    if (custody.leased()) actions_[i].set_epoch(custody.epoch(out.actions[i].place));
  }
  events_.resize(out.events.size());
  for (size_t i = 0; i < out.events.size(); ++i) toProto(out.events[i], sim.world(), events_[i]);

  const bool inbox_has_room = sim.queuedCommands() <= limits_.max_inbox_commands;
  for (const std::shared_ptr<Session>& session : publishing_) {
    const ClientId me = session->id();
    const std::shared_ptr<const Subscription> sub = session->subscription();
    places_.clear();
    for (const std::string& name : sub->places) {
      const PlaceIndex index = sim.world().findPlace(name);
      if (index != PlaceIndex::kNone) places_.push_back(index);
    }

    v1::ServerMessage message;
    for (size_t i = 0; i < out.actions.size(); ++i) {
      const bool lost = std::find(fenced.begin(), fenced.end(), out.actions[i].place) != fenced.end();
      if (!lost && wantsAction(out.actions[i], me, *sub, places_)) *message.add_actions() = actions_[i];
    }
    size_t errors = 0;
    for (size_t i = 0; i < out.events.size(); ++i) {
      if (wantsEvent(out.events[i], me, *sub, places_)) {
        *message.add_events() = events_[i];
        errors += out.events[i].kind == EventKind::kError;
      }
    }
    for (const StoredUpdate& s : cluster.stored) {
      if (s.client == me) message.set_stored_seq(s.seq);
    }
    for (const UnkeptUpdates& u : cluster.unkept) {
      if (u.client != me) continue;
      const std::string seqs = u.first_seq == u.last_seq
                                   ? "update " + std::to_string(u.first_seq)
                                   : "updates " + std::to_string(u.first_seq) + ".." + std::to_string(u.last_seq);
      *message.add_events() = errorEvent(u.first_seq, seqs + ": place \"" + u.place +
                                                          "\" was given up before Redis stored its commands there: "
                                                          "they are not kept, send them to the place's holder");
      ++errors;
    }
    if (message.actions_size() > 0 || message.events_size() > 0 || message.stored_seq() > 0) {
      message.set_tick(out.tick);
      message.set_sim_time(out.sim_time_s);
      const Session::PushResult pushed = session->push(std::move(message));
      if (pushed == Session::PushResult::kQueued && errors > 0) {
        errors_refused_ += errors;
        // Naming them takes a second pass over the tick's events: only when debug is on.
        if (spdlog::should_log(spdlog::level::debug)) {
          for (const EventOut& e : out.events) {
            if (e.kind == EventKind::kError && wantsEvent(e, me, *sub, places_)) {
              logClientError(me, ErrorKind::kRefused, e.seq, e.agent, e.text);
            }
          }
        }
      }
      if (pushed == Session::PushResult::kFull) dropSlowClient(session);
    }
    session->afterPublish(out.tick, out.sim_time_s, inbox_has_room);
  }
  publishing_.clear();  // the hub must not keep finished sessions alive until the next tick
}

void ClientHub::drain() {
  std::vector<std::shared_ptr<Session>> sessions;
  {
    std::lock_guard lock(mutex_);
    draining_ = true;
    sessions = sessions_;
  }
  const grpc::Status status(grpc::StatusCode::UNAVAILABLE, "npcd is shutting down");
  for (const std::shared_ptr<Session>& session : sessions) session->finish(status);
}

ClientHub::OutboxDepth ClientHub::outboxDepth() const {
  OutboxDepth depth;
  std::lock_guard lock(mutex_);
  for (const auto& session : sessions_) {
    const size_t n = session->outboxSize();
    depth.total += n;
    depth.max = std::max(depth.max, n);
  }
  return depth;
}

size_t ClientHub::clientCount() const {
  std::lock_guard lock(mutex_);
  return sessions_.size();
}

uint64_t ClientHub::droppedCount() const {
  std::lock_guard lock(mutex_);
  return dropped_;
}

}  // namespace npc
