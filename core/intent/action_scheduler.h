// The action scheduler (seed 004, "Action scheduling"): once per tick and agent, decides
// which of the agent's intentions are performed. In order:
//   1. Influence removed: the current action's list is gone from the agent's ActionAccess →
//      Interrupted (kActionUnavailable).
//   2. Coercive game action due (Die): the current action is Interrupted (kPreempted) and
//      the coercive one starts first.
//   3. Long action case: a current daemon-side action is asked MayContinue (no →
//      Interrupted, kMayContinueRefused), then performed for the time left. A current
//      client-side action fails with kTimeout once its deadline passes, and otherwise waits
//      for the client (ActionTree::clientResult) — MayContinue is not asked for it. A
//      game-driven one waits for the game.
//   4. Simplest / consecutive actions case: while nothing is current and the agent has time
//      left in its quantum, the next due intention (a due coercive one first, else the
//      chronologically first) is looked up through the agent's own actions and influences
//      (not found → Failed, kNotAvailable: "cannot perform"), asked MayStart (no → Failed),
//      then
//        client-side: emitted as a ClientActionStart (Started); the agent waits for it;
//        daemon-side: initialised (no → Failed, kInitFailed), Started, performed. COMPLETED
//        and FAILED use the time they report and the loop goes on with what is left;
//        CONTINUING uses the rest of the quantum.
//   5. No action case: nothing due; the agent's current reference stays null.
// An action that reports more time than was left makes the agent start its next action
// that much later (IntentionQueue::busyUntil()).
//
// Cost: an agent with nothing to do (waiting for a client, or for a future date) is skipped
// after one comparison; see README.md for figures. update() allocates nothing.
// Owned and called by the tick thread.
#pragma once

#include <array>
#include <cstdint>

#include "intent/action_impl.h"
#include "intent/action_registry.h"
#include "intent/bounded_buffer.h"
#include "intent/intent_agent_state.h"
#include "intent/intention_event.h"

namespace npc {

// One agent's turn.
struct AgentTurn {
  EntityId agent = EntityId::kNone;
  EntityHandle entity;                  // passed to actions in ActionContext
  ClientId owner = ClientId::kDaemon;   // copied into ClientActionStart
  PlaceIndex place = PlaceIndex::kNone; // copied into ClientActionStart
  double now_s = 0.0;                   // tick time: the turn covers [now_s, now_s + quantum_s)
  float quantum_s = 0.1f;               // the agent's time this turn [Limit: > 0]
  float client_timeout_s = 30.f;        // client-side actions without their own timeout
};

// A client-side action to send to the game (mapped to ActionOut by toActionOut()).
struct ClientActionStart {
  EntityId agent = EntityId::kNone;
  IntentionId intention = IntentionId::kNone;
  ClientId owner = ClientId::kDaemon;
  PlaceIndex place = PlaceIndex::kNone;
  ActionNameId action = ActionNameId::kNone;
  uint8_t arg_count = 0;
  std::array<ActionArg, kMaxClientArgs> args{};
};

// What daemon-side actions may reach (ActionContext::world / ::user / ::inventories).
struct ActionEnv {
  World* world = nullptr;
  void* user = nullptr;
  InventoryModel* inventories = nullptr;
};

enum class TurnStatus : uint8_t {
  kSkipped,  // nothing could change this turn: returned after one comparison
  kRan,
  kNoRoom,   // the output buffers had less room than one turn may need: nothing was done
};

struct SchedulerStats {
  uint64_t turns = 0, skipped = 0, no_room = 0;
  uint64_t started = 0, completed = 0, failed = 0, interrupted = 0;
  uint64_t client_starts = 0, performs = 0;
};

class ActionScheduler {
 public:
  // Most events / client starts one update() can write. update() does nothing (kNoRoom)
  // unless the buffers have at least this much room: flush them before it.
  static constexpr size_t kMaxEventsPerTurn = 2 * kMaxIntentions + 2;
  static constexpr size_t kMaxStartsPerTurn = 1;

  explicit ActionScheduler(const ActionRegistry& registry, ActionEnv env = {})
      : registry_(registry), env_(env) {}

  void setEnv(ActionEnv env) { env_ = env; }

  // Runs one agent's turn (see the header comment). Events are stamped with the agent's
  // clock; starts carry turn.owner / turn.place.
  TurnStatus update(IntentAgentState& state, const AgentTurn& turn,
                    BoundedBuffer<ClientActionStart>& starts,
                    BoundedBuffer<IntentionEvent>& events);
  // True (and counted as a skipped turn) when update() would skip this agent at now_s:
  // nothing due before its queue's wake date and its actions unchanged. A caller that
  // checks first need not gather the turn of the many agents that wait.
  bool skipsTurn(const IntentAgentState& state, double now_s);
  // skipsTurn() without the count: whether update() would run this agent's turn at now_s.
  // Reads the agent's state alone, so a pass may sort agents out on several threads, then
  // countSkipped() the turns it left out.
  bool due(const IntentAgentState& state, double now_s) const;
  void countSkipped(uint64_t turns) {
    stats_.turns += turns;
    stats_.skipped += turns;
  }

  const SchedulerStats& stats() const { return stats_; }

 private:
  struct Turn;
  // The next intention to start at `clock_s`: the first due coercive one (coercive = true),
  // else the first due one; kNoSlot (0xff) when none is due.
  static uint8_t nextDue(const IntentionQueue& q, double clock_s, bool& coercive);
  void start(Turn& t, uint8_t slot);
  void perform(Turn& t, uint8_t slot);
  void finish(Turn& t, uint8_t slot, IntentionEventKind kind, IntentionReason reason,
              ActionNameId detail = ActionNameId::kNone, EntityId subject = EntityId::kNone);
  ActionContext context(const Turn& t) const;

  const ActionRegistry& registry_;
  ActionEnv env_;
  SchedulerStats stats_;
};

}  // namespace npc
