#include "sim/command_places.h"

#include <type_traits>
#include <variant>

#include "sim/simulation.h"
#include "sim/world_file.h"

namespace npc {

namespace {

// Where an entity is now: an agent awake or asleep, or a player or object of the game's.
PlaceIndex entityPlace(EntityId id, const Simulation& sim) {
  const PlaceIndex agent = sim.agentPlace(id);
  if (agent != PlaceIndex::kNone) return agent;
  const Entity* body = sim.world().entities().get(id);
  return body ? body->place : PlaceIndex::kNone;
}

CommandPlaces movedOrNew(const EntityState& state, const Simulation& sim) {
  const PlaceIndex at = entityPlace(state.id, sim);
  const PlaceIndex to = startingPlace(state, sim.world());
  if (at == PlaceIndex::kNone) return {to, PlaceIndex::kNone};
  return {at, to == at ? PlaceIndex::kNone : to};
}

CommandPlaces signalPlaces(const SignalEvent& s, const Simulation& sim) {
  if (s.relayed) return {};  // its arrivals stream keeps it
  if (s.target != EntityId::kNone) return {entityPlace(s.target, sim)};
  if (!s.place.empty()) return {sim.world().findPlace(s.place)};
  // By species or group: receivers anywhere in the world, no one place's.
  if (!s.species.empty() || s.group != GroupNumber::kNone || !s.group_name.empty()) return {};
  return {s.radius_m > 0.f ? sim.world().placeAt(s.position) : PlaceIndex::kNone};
}

}  // namespace

CommandPlaces commandPlaces(const Command& command, const Simulation& sim) {
  return std::visit(
      [&](const auto& c) -> CommandPlaces {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, UpsertEntity> || std::is_same_v<T, SpawnAgent>) {
          if (c.state.relayed) return {};  // a visitor: relayed again soon, or gone
          return movedOrNew(c.state, sim);
        } else if constexpr (std::is_same_v<T, RemoveEntity> || std::is_same_v<T, DespawnAgent>) {
          return {entityPlace(c.id, sim)};
        } else if constexpr (std::is_same_v<T, SoundEvent>) {
          // A relayed sound is kept by the arrivals stream it came through.
          return {c.relayed ? PlaceIndex::kNone : sim.world().placeAt(c.position)};
        } else if constexpr (std::is_same_v<T, SignalEvent>) {
          return signalPlaces(c, sim);
        } else if constexpr (std::is_same_v<T, SetAttributePrincipal>) {
          return {entityPlace(c.attribute, sim)};
        } else if constexpr (std::is_same_v<T, WakePlace>) {
          return {sim.world().findPlace(c.place)};
        } else if constexpr (std::is_same_v<T, SetSensors> || std::is_same_v<T, SetBehaviorVariable> ||
                             std::is_same_v<T, ProgramIntention> || std::is_same_v<T, CancelIntention> ||
                             std::is_same_v<T, ExternalAction> || std::is_same_v<T, GameAction> ||
                             std::is_same_v<T, AddInfluence> || std::is_same_v<T, RemoveInfluence> ||
                             std::is_same_v<T, SetPlannerValue>) {
          return {entityPlace(c.agent, sim)};
        } else {
          return {};
        }
      },
      command.body);
}

bool isStimulus(const Command& command) {
  return std::holds_alternative<SoundEvent>(command.body) ||
         std::holds_alternative<SignalEvent>(command.body) ||
         std::holds_alternative<ExternalAction>(command.body);
}

}  // namespace npc
