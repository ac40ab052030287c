// Simulation: who may change what (core/sim/README.md "Ownership"). Every command carries
// the identity of its sender; the tick thread checks it here, when the command is applied,
// so the rules hold whatever thread or stream the command came from. Split from
// simulation.cpp to keep one concept per file.
#include <algorithm>

#include "sim/sim_messages.h"
#include "sim/simulation.h"

namespace npc {

namespace {

// Admin calls and the daemon's own game (kDaemon) and admin spawns (kUnowned) are not
// bound by ownership: they are how the daemon's own entities are changed.
bool isClient(ClientId origin) {
  return origin != ClientId::kDaemon && origin != ClientId::kUnowned;
}

// "upserts[1] (id 17)" for an item of a client's update, "entity 17" for a unary call.
std::string itemLabel(const char* list, uint32_t item, const char* id_name, EntityId id) {
  if (list == nullptr) return entityLabel(id);
  return std::string(list) + "[" + std::to_string(item) + "] (" + id_name + " " +
         std::to_string(raw(id)) + ")";
}

}  // namespace

bool Simulation::mayChange(const Entity& e, ClientId origin) const {
  return !isClient(origin) || e.owner == origin || e.owner == ClientId::kUnowned;
}

Status Simulation::checkOwner(EntityId id, EntityHandle awake, ClientId origin,
                              const char* list, uint32_t item) const {
  if (!isClient(origin)) return {};
  const Entity* e = world_.entities().get(awake);
  if (e == nullptr) {
    const auto where = findDormant(id);
    if (!where) return {};  // unknown: the command reports that itself, or creates it
    e = &dormant_[raw(where->first)][where->second].body;
  }
  if (mayChange(*e, origin)) return {};
  const char* rule = e->owner == ClientId::kDaemon
                         ? "owned by the daemon; only admin calls change it"
                         : "owned by another client";
  return {StatusCode::kPermissionDenied, itemLabel(list, item, "id", id) + ": " + rule};
}

Status Simulation::checkResultSender(const Agent& agent, IntentionId intention, ClientId origin,
                                     uint32_t item) const {
  if (!isClient(origin)) return {};
  ClientId to = ClientId::kDaemon;
  bool recorded = false;
  for (const Agent::SentAction& sent : agent.sent_actions) {
    if (sent.intention == intention && intention != IntentionId::kNone) {
      to = sent.to;
      recorded = true;
    }
  }
  if (!recorded) {
    // Not recorded (never sent, or its record was overwritten): the agent's current
    // addressee decides, so an unknown id cannot bypass the rule.
    const Entity* e = world_.entities().get(agent.entity);
    to = e ? addresseeOf(e->owner) : ClientId::kDaemon;
  }
  if (to == origin || to == ClientId::kUnowned) return {};
  return {StatusCode::kPermissionDenied,
          "results[" + std::to_string(item) + "] (agent " + std::to_string(raw(agent.id)) +
              ", intention " + std::to_string(raw(intention)) +
              "): intention was not sent to this client"};
}

void Simulation::recordSent(EntityId agent_id, IntentionId intention, ClientId to) {
  Agent* agent = agents_.get(agent_id);
  if (agent == nullptr) return;
  agent->sent_actions[agent->next_sent] = {intention, to};
  agent->next_sent = static_cast<uint8_t>((agent->next_sent + 1) % agent->sent_actions.size());
}

ClientId Simulation::addresseeOf(ClientId owner) const {
  if (away_clients_.empty() || !isClient(owner)) return owner;
  return std::binary_search(away_clients_.begin(), away_clients_.end(), owner)
             ? ClientId::kUnowned
             : owner;
}

void Simulation::releaseClient(ClientId client, bool keeps_ownership) {
  if (!isClient(client)) return;
  if (keeps_ownership) {
    const auto at = std::lower_bound(away_clients_.begin(), away_clients_.end(), client);
    if (at == away_clients_.end() || *at != client) away_clients_.insert(at, client);
    return;
  }
  for (Entity& e : world_.entities().rows()) {
    if (e.owner == client) e.owner = ClientId::kUnowned;
  }
  for (SleeperList& place : dormant_) {
    auto owned = [client](const DormantAgent& d) { return d.body.owner == client; };
    if (std::none_of(place.begin(), place.end(), owned)) continue;  // shared rows stay shared
    for (DormantAgent& d : place.edit()) {
      if (owned(d)) d.body.owner = ClientId::kUnowned;
    }
  }
}

void Simulation::clientBack(ClientId client) {
  const auto at = std::lower_bound(away_clients_.begin(), away_clients_.end(), client);
  if (at != away_clients_.end() && *at == client) away_clients_.erase(at);
}

}  // namespace npc
