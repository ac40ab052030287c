// BehaviorOutbox: what the agents one worker ticks in the behavior phase do beyond their own
// rows, held until the phase merges it in agent order (behavior_phase.h):
//   - the intentions they program are numbered provisionally (beginLane) and their events
//     wait here; the merge gives them their final ids (IntentionQueue::renumber);
//   - the signals they send, the messages their trees log and the errors their built-in
//     behaviors report wait here too.
// One AgentEffects record per agent that did any of it says which slices are its own.
// Capacity is kept from tick to tick: once warm, nothing here allocates (but an error's
// text). One per worker of the tick's pool; only that worker writes to it during the run.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "intent/decision_tree.h"
#include "mbt/host.h"
#include "perception/signals.h"
#include "world/ids.h"

namespace npc {

// The slices of one agent's effects in its outbox, and its new intentions.
struct AgentEffects {
  uint32_t events_begin = 0, events_end = 0;
  uint32_t signals_begin = 0, signals_end = 0;
  uint32_t logs_begin = 0, logs_end = 0;
  uint32_t errors_begin = 0, errors_end = 0;
  uint32_t new_intentions = 0;  // provisional ids first_id .. first_id + new_intentions - 1
  IntentionId first_id = IntentionId::kNone;
};

// A built-in behavior's action that could not be programmed, for the agent's owner.
struct BehaviorError {
  ClientId owner = ClientId::kDaemon;
  EntityId agent = EntityId::kNone;
  std::string text;
};

class BehaviorOutbox {
 public:
  // `event_capacity`: as many intention events as the tick's own buffer holds, so that an
  // outbox drops none the merge would have kept.
  BehaviorOutbox(const ActionRegistry& registry, size_t event_capacity);
  BehaviorOutbox(const BehaviorOutbox&) = delete;
  BehaviorOutbox& operator=(const BehaviorOutbox&) = delete;

  // The first provisional id of `lane` on `tick`: bit 63 set (never a real id), the tick
  // (37 bits) and the lane (6 bits) above a 20-bit count. Unique for the agent's lifetime
  // and a function of the lane's agents and their order alone, so that the handles trees
  // keep (and snapshots save) do not depend on the thread count.
  static IntentionId firstProvisionalId(uint64_t tick, uint32_t lane);
  static bool isProvisional(IntentionId id) { return (raw(id) >> 63) != 0; }

  void clear();
  // Intentions programmed from now on are numbered from firstProvisionalId(tick, lane).
  void beginLane(uint64_t tick, uint32_t lane, double now_s);
  // Brackets one agent's turn: endAgent() keeps a record when it left anything here.
  void beginAgent();
  // The record's index (for BehaviorPhase's marks), or -1 when the agent left nothing.
  int64_t endAgent();

  // Where the agent's intentions are programmed (provisional ids, events kept here).
  const TreeContext& intentions() const { return intentions_; }
  void post(const SignalRequest& signal) { signals_.push_back(signal); }
  // Keeps the message; its text is copied (the views into the tree stay valid all tick).
  void log(const MbtLogMessage& message);
  void error(ClientId owner, EntityId agent, std::string text) {
    errors_.push_back({owner, agent, std::move(text)});
  }

  const AgentEffects& agent(size_t record) const { return agents_[record]; }
  std::span<const IntentionEvent> events(const AgentEffects& a) const {
    return events_.items().subspan(a.events_begin, a.events_end - a.events_begin);
  }
  std::span<const SignalRequest> signals(const AgentEffects& a) const {
    return std::span(signals_).subspan(a.signals_begin, a.signals_end - a.signals_begin);
  }
  // The i-th of the agent's log messages, its text pointing into this outbox.
  MbtLogMessage logMessage(const AgentEffects& a, uint32_t i) const;
  std::span<BehaviorError> errors(const AgentEffects& a) {
    return std::span(errors_).subspan(a.errors_begin, a.errors_end - a.errors_begin);
  }

 private:
  struct LogRecord {
    MbtLogMessage message;  // text empty: it is text_begin .. text_end of texts_
    uint32_t text_begin = 0, text_end = 0;
  };

  std::vector<IntentionEvent> event_storage_;
  BoundedBuffer<IntentionEvent> events_;
  IntentionIdSource ids_;
  TreeContext intentions_;
  std::vector<SignalRequest> signals_;
  std::vector<LogRecord> logs_;
  std::string texts_;
  std::vector<BehaviorError> errors_;
  std::vector<AgentEffects> agents_;
  AgentEffects open_;  // the agent between beginAgent and endAgent
};

}  // namespace npc
