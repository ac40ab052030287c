// DemoGame: stands in for a game server so the daemon shows living NPCs with no game
// attached. It walks scripted players along their routes and performs the actions of
// daemon-owned agents the way a game would (MoveTo, Move and Go walk the body there; any
// other action takes its `duration` parameter, default 1 s), reporting results back as
// commands. Like a game, it judges what its world allows: a walk to a goal that rises more
// than it runs (a cliff, Raoul's flowers out of a beginner's reach) fails after the time it
// takes to give up, with the reason "too steep to climb".
//
// It talks to the simulation only through commands, exactly like a remote client, so it
// exercises the same ingest path. Deterministic: it uses no clock and no randomness.
#pragma once

#include <vector>

#include "sim/commands.h"
#include "sim/world_file.h"

namespace npc {

class Simulation;

class DemoGame {
 public:
  explicit DemoGame(std::vector<ScriptedPlayer> players);

  // Tick thread, right after Simulation::tick(): reads that tick's output and world,
  // advances players and running actions by one tick, and appends the world updates and
  // action results to `out` (submit them before the next tick).
  void step(const Simulation& sim, std::vector<Command>& out);

  size_t runningActions() const { return running_.size(); }

 private:
  struct Walker {
    ScriptedPlayer def;
    Vec3 position;
    size_t next_waypoint = 1;
    bool spawned = false;
  };
  struct RunningAction {
    EntityId agent = EntityId::kNone;
    IntentionId intention = IntentionId::kNone;
    bool move = false;
    Vec3 goal;
    float speed_mps = 1.f;
    float stop_within_m = 0.f;
    double ends_at_s = 0.0;  // timed actions
    bool too_steep = false;  // a climb given up: fails at ends_at_s
  };

  // Seconds spent trying a climb that is too steep before giving up.
  static constexpr double kGiveUpClimbS = 3.0;

  void startActions(const Simulation& sim);
  static bool tooSteep(Vec3 from, Vec3 to);
  void advanceWalkers(double dt_s, std::vector<Command>& out);
  void advanceActions(const Simulation& sim, std::vector<Command>& out);

  std::vector<Walker> walkers_;
  std::vector<RunningAction> running_;
};

}  // namespace npc
