// One implementation of an action (seed 004, "Performing an Action", "Action simulation").
//
// Implementations are stateless singletons owned by the ActionRegistry: the same object
// serves every agent, and all per-use state lives in the Intention (its ActionState). An
// implementation is either
//   - daemon-side: performed inside the daemon. The scheduler asks MayStart, calls
//     initialize() once (which fills the ActionState; false fails the intention), then
//     perform() every turn until it returns kCompleted or kFailed; while it continues
//     across turns, MayContinue is asked at the start of each later turn;
//   - client-side: performed by the game client. The scheduler asks MayStart, then emits a
//     ClientActionStart and waits for the client's result (ActionTree::clientResult) or the
//     timeout; MayContinue is asked every turn while it waits.
// Every call happens on the tick thread, inside ActionScheduler::update, with an
// ActionContext for the agent. Implementations must not allocate per call and must be
// deterministic (no wall clock, no unseeded randomness).
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "intent/intent_types.h"
#include "intent/intention.h"
#include "world/ids.h"
#include "world/name_table.h"

namespace npc {

class InventoryModel;
class World;

// Fixed properties of an implementation.
struct ActionTraits {
  ActionSide side = ActionSide::kDaemon;
  // Only the game may program it (ActionTree::programGame): Die, Land. Controllers get
  // kGameOnly from DecisionTree::program.
  bool game_only = false;
  // Performed on another entity, it interrupts that entity's current action at once
  // (ActionTree::receiveExternal): an attack. Non-coercive ones (talking to someone) let
  // the receiver's current action run this turn.
  bool coercive = false;
  // Client-side: fail with kTimeout when the client reports nothing for this long
  // [seconds; 0 = the agent's default, AgentTurn::client_timeout_s].
  float timeout_s = 0.f;
};

// What the daemon offers an action while it runs. Valid for the duration of one call.
struct ActionContext {
  EntityId agent = EntityId::kNone;
  EntityHandle entity;              // the agent's body in world->entities()
  World* world = nullptr;           // the daemon's world model (may be null in tests)
  InventoryModel* inventories = nullptr;  // agents' inventories, item objects (may be null)
  void* user = nullptr;             // game-specific model, see ActionEnv
  double now_s = 0.0;               // the agent's clock: tick time + time used this turn
  float time_left_s = 0.f;          // what remains of the agent's quantum this turn
};

// What perform() returns: the seed's constant plus the time the action took.
struct PerformResult {
  PerformStatus status = PerformStatus::kCompleted;
  // Seconds of the agent's time used this turn. kCompleted / kFailed: any value >= 0; more
  // than time_left_s is carried over (the agent starts its next action that much later).
  // kContinuing: ignored, the whole rest of the quantum is used.
  float time_used_s = 0.f;
  float progress = 0.f;                    // kContinuing: 0..1 (clamped)
  ActionNameId detail = ActionNameId::kNone;  // kFailed: interned reason ("too_steep")
  // kCompleted / kFailed: the entity the outcome concerns, copied into the event's subject
  // (Take: the object taken, so the game can remove it from its scene; Give: the receiver).
  EntityId subject = EntityId::kNone;

  static PerformResult completed(float time_used_s, EntityId subject = EntityId::kNone) {
    return {PerformStatus::kCompleted, time_used_s, 1.f, ActionNameId::kNone, subject};
  }
  static PerformResult failed(float time_used_s, ActionNameId detail = ActionNameId::kNone,
                              EntityId subject = EntityId::kNone) {
    return {PerformStatus::kFailed, time_used_s, 0.f, detail, subject};
  }
  static PerformResult continuing(float progress) {
    return {PerformStatus::kContinuing, 0.f, progress, ActionNameId::kNone, EntityId::kNone};
  }
};

class ActionImpl {
 public:
  explicit ActionImpl(ActionTraits traits = {}) : traits_(traits) {}
  virtual ~ActionImpl() = default;
  ActionImpl(const ActionImpl&) = delete;
  ActionImpl& operator=(const ActionImpl&) = delete;

  const ActionTraits& traits() const { return traits_; }
  bool clientSide() const { return traits_.side == ActionSide::kClient; }

  // Checks typed, ranged arguments when the intention is programmed (ProgramIntention, game
  // actions), before it is queued, so a bad value is refused with INVALID_ARGUMENT instead
  // of failing later. `args` are in the order of the request's params, so args[i] is
  // params[i]. Returns "" when acceptable, else one line naming the parameter
  // ("params[0].number: must be within 0..604800 s (got -300 s)"). Not on the tick's hot
  // path: it may allocate. Default: any arguments.
  virtual std::string checkArgs(std::span<const ActionArg> args,
                                const NameTable<ActionNameId>& names) const {
    return {};
  }
  // Acceptability before starting. false: the intention fails (kMayStartRefused).
  virtual bool mayStart(const ActionContext& ctx, const Intention& intention) const {
    return true;
  }
  // Asked each turn the intention is current, after its first. false: interrupted
  // (kMayContinueRefused).
  virtual bool mayContinue(const ActionContext& ctx, const Intention& intention) const {
    return true;
  }
  // Daemon-side: once, before the first perform. Fills intention.state (zeroed before the
  // call). false: the intention fails (kInitFailed) without starting.
  virtual bool initialize(ActionContext& ctx, Intention& intention) const { return true; }
  // Daemon-side: does (part of) the action within ctx.time_left_s. Client-side
  // implementations are never performed; the default fails.
  virtual PerformResult perform(ActionContext& ctx, Intention& intention) const {
    return PerformResult::failed(0.f);
  }

 private:
  ActionTraits traits_;
};

// A client-side action with no predicates: MoveTo, Animate, Shoot, Speak...
class ClientAction final : public ActionImpl {
 public:
  explicit ClientAction(float timeout_s = 0.f, bool game_only = false)
      : ActionImpl({ActionSide::kClient, game_only, false, timeout_s}) {}
};

// Daemon-side "Wait": the seed's perform("Wait", Raoul, [time delay = 10 min]). Takes the
// first kValue parameter as the delay, in the unit it names (ms, s, min, h; no unit or an
// empty one = s, as behavior trees' number attributes carry).
// Fails to initialise without a finite delay >= 0 or with another unit. Continues with
// progress = waited / delay until the delay has passed, then completes. At submission
// (checkArgs) the delay must exist, name a unit of time and lie within 0..kMaxDelayS.
class WaitAction final : public ActionImpl {
 public:
  explicit WaitAction(NameTable<ActionNameId>& names);
  std::string checkArgs(std::span<const ActionArg> args,
                        const NameTable<ActionNameId>& names) const override;
  bool initialize(ActionContext& ctx, Intention& intention) const override;
  PerformResult perform(ActionContext& ctx, Intention& intention) const override;

 private:
  // Seconds per unit of `unit`, or 0 when it is not a unit of time.
  double secondsPer(ActionNameId unit) const;
  ActionNameId ms_, s_, min_, h_, empty_;
};

}  // namespace npc
