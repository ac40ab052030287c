// What one tick produced: actions for clients to perform and events for clients to see.
// Filled by the tick thread, read by the server between ticks; cleared (capacity kept)
// at the start of every tick, so steady-state ticks allocate nothing for actions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

// One typed action parameter. Text values are interned names (see Simulation::names()).
struct ActionParam {
  enum class Type : uint8_t { kEntity, kNumber, kPosition, kText };
  Type type = Type::kNumber;
  ActionNameId name{0};   // interned parameter name
  ActionNameId unit{0};   // interned unit ("s", "m", "m/s"), for kNumber
  ActionNameId text{0};   // interned value, for kText
  EntityId entity = EntityId::kNone;
  double number = 0.0;
  Vec3 position;
};

inline constexpr size_t kMaxActionParams = 4;

struct ActionOut {
  ClientId owner = ClientId::kDaemon;  // the client that owns the agent
  PlaceIndex place = PlaceIndex::kNone;
  EntityId agent = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;
  ActionNameId name{0};  // interned action name
  uint8_t param_count = 0;
  std::array<ActionParam, kMaxActionParams> params{};
};

enum class EventKind : uint8_t {
  kError,               // a command was refused; `text` says which field and why
  kAgentSpawned,
  kAgentDespawned,
  kIntentionCompleted,
  kIntentionFailed,     // text says why ("MoveTo failed: timeout")
  kBehavior,            // an agent changed behavior: text "Old -> New"
  kStealth,             // a player's stealth meter moved: subject = player, agent = the
                        // agent most aware of them, value = 0..10
  kPlaceAsleep,         // a place started to hibernate: value = agents put to sleep
  kPlaceAwake,          // a place woke: text = cause, time slept and settled results
  kIntentionStarted,
  kIntentionInterrupted,  // cancelled, coerced, preempted...: text says which
};

std::string_view toString(EventKind kind);

// Send to every client (subject to its subscriptions) rather than one.
inline constexpr ClientId kAllClients = static_cast<ClientId>(0xffffffffu);

struct EventOut {
  EventKind kind = EventKind::kError;
  ClientId to = kAllClients;
  EntityId agent = EntityId::kNone;
  PlaceIndex place = PlaceIndex::kNone;
  uint64_t seq = 0;  // for errors: the client's update sequence number it refers to
  EntityId subject = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;  // intention events
  float value = 0.f;
  std::string text;
};

struct TickOutput {
  uint64_t tick = 0;
  double sim_time_s = 0.0;
  std::vector<ActionOut> actions;
  std::vector<EventOut> events;

  // Clears for the next tick, keeping the texts' buffers for the next events' texts: at
  // 100,000 agents a tick has a thousand or more failed and interrupted intentions, each
  // with its text.
  void clear() {
    actions.clear();
    for (EventOut& e : events) {
      if (e.text.capacity() > std::string().capacity()) spare_texts_.push_back(std::move(e.text));
    }
    events.clear();
  }
  // An empty string to write an event's text into, with an earlier text's capacity.
  std::string takeText() {
    if (spare_texts_.empty()) return {};
    std::string text = std::move(spare_texts_.back());
    spare_texts_.pop_back();
    text.clear();
    return text;
  }

 private:
  std::vector<std::string> spare_texts_;
};

// A hash of a tick's actions (agent, intention, name, parameters) and events (kind, agent,
// text), continuing `h` (FNV-1a) so that ticks chain: equal runs give equal hashes, tick by
// tick (determinism tests, the input journal).
template <class Id>
class NameTable;
inline constexpr uint64_t kOutputHashSeed = 1469598103934665603ull;
uint64_t hashTickOutput(const TickOutput& output, const NameTable<ActionNameId>& action_names,
                        uint64_t h = kOutputHashSeed);

}  // namespace npc
