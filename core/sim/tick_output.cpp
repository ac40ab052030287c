#include "sim/tick_output.h"

#include "world/name_table.h"

namespace npc {

std::string_view toString(EventKind kind) {
  switch (kind) {
    case EventKind::kError: return "error";
    case EventKind::kAgentSpawned: return "agent_spawned";
    case EventKind::kAgentDespawned: return "agent_despawned";
    case EventKind::kIntentionCompleted: return "intention_completed";
    case EventKind::kIntentionFailed: return "intention_failed";
    case EventKind::kBehavior: return "behavior";
    case EventKind::kStealth: return "stealth";
    case EventKind::kPlaceAsleep: return "place_asleep";
    case EventKind::kPlaceAwake: return "place_awake";
    case EventKind::kIntentionStarted: return "intention_started";
    case EventKind::kIntentionInterrupted: return "intention_interrupted";
  }
  return "?";
}

namespace {

struct Fnv {
  uint64_t h;
  void bytes(const void* p, size_t n) {
    const auto* b = static_cast<const unsigned char*>(p);
    for (size_t i = 0; i < n; ++i) h = (h ^ b[i]) * 1099511628211ull;
  }
  template <class T>
  void add(const T& v) {
    bytes(&v, sizeof v);
  }
  void add(const std::string& s) { bytes(s.data(), s.size()); }
};

}  // namespace

uint64_t hashTickOutput(const TickOutput& output, const NameTable<ActionNameId>& action_names,
                        uint64_t h) {
  Fnv fnv{h};
  for (const ActionOut& a : output.actions) {
    fnv.add(raw(a.agent));
    fnv.add(raw(a.intention));
    fnv.add(action_names.name(a.name));
    for (uint8_t i = 0; i < a.param_count; ++i) {
      fnv.add(a.params[i].number);
      fnv.add(a.params[i].position.x);
      fnv.add(a.params[i].position.y);
      fnv.add(raw(a.params[i].entity));
    }
  }
  for (const EventOut& e : output.events) {
    fnv.add(static_cast<int>(e.kind));
    fnv.add(raw(e.agent));
    fnv.add(e.text);
  }
  return fnv.h;
}

}  // namespace npc
