// BotGame: the game side of one simulated client — its players, its NPCs' bodies and the
// actions the daemon asked those NPCs to perform — reduced to what the daemon can observe.
// No gRPC here: each frame appends its items to a WorldUpdate, so the logic is testable
// without a daemon.
//
// What a frame does (BotGame::frame):
//   - players walk or run between random points of the scenario's area and are upserted
//     every frame (position, velocity, forward); while moving they make footstep sounds at
//     footstep_hz; any of them may fire a gunshot (gunshot_hz) or start a fight (fight_hz):
//     a radius signal (fight_signal, sender = the player) and a bullet_impact sound at one
//     of this client's NPCs;
//   - NPCs are upserted once as ENTITY_KIND_NPC with their archetype (which spawns them and
//     makes this client their owner), then every frame ("all") or only while they walk a
//     MoveTo ("moving");
//   - running actions advance: a MoveTo walks the NPC to its `position` at its `speed`
//     (duration = distance / speed), any other action lasts its `duration` param or the
//     scenario's default; each reports PROGRESS every progress_interval_s, then COMPLETED,
//     or FAILED part-way with probability failure_rate.
//
// Ids: client c's players are kIdBase + c * kIdsPerClient + 1 + i, its NPCs
// kIdBase + c * kIdsPerClient + kNpcOffset + i — disjoint across clients and far above the
// demo world's ids.
//
// Thread safety: none; one BotGame belongs to its client's game thread.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "npc/v1/npc.pb.h"
#include "scenario.h"
#include "world/vec3.h"

namespace npc::bots {

inline constexpr uint64_t kIdBase = 1'000'000'000;
inline constexpr uint64_t kIdsPerClient = 10'000'000;
inline constexpr uint64_t kNpcOffset = 5'000'000;

// The parts of an npc.v1.Action a game needs to perform it — or, with `ended_by_daemon`,
// word that the daemon ended the agent's action itself (an EVENT_KIND_INTENTION_FAILED, e.g.
// its action timeout), so the game stops performing it without reporting a result.
struct ActionOrder {
  uint64_t agent = 0;
  uint64_t intention = 0;
  bool ended_by_daemon = false;
  std::string name;
  std::optional<Vec3> position;      // "position" param
  std::optional<double> speed_mps;   // "speed" param
  std::optional<double> duration_s;  // "duration" param
};
ActionOrder toOrder(const v1::Action& action);

// Items one frame appended, by kind; every item counts as one world update.
struct FrameCounts {
  uint64_t upserts = 0;
  uint64_t removals = 0;
  uint64_t sounds = 0;
  uint64_t signals = 0;
  uint64_t completed = 0;
  uint64_t failed = 0;
  uint64_t progress = 0;

  uint64_t items() const {
    return upserts + removals + sounds + signals + completed + failed + progress;
  }
  FrameCounts& operator+=(const FrameCounts& o);
};

class BotGame {
 public:
  // `client` is the harness's 0-based client index (not the daemon's client id).
  BotGame(const Scenario& scenario, uint32_t client);

  uint64_t playerId(uint32_t i) const { return base_ + 1 + i; }
  uint64_t npcId(uint32_t i) const { return base_ + kNpcOffset + i; }
  size_t playerCount() const { return players_.size(); }
  size_t npcCount() const { return npcs_.size(); }
  size_t runningActions() const;

  // Starts performing `order` (game clock `now_s`, seconds). An order for an agent that is
  // already acting replaces its action (counted in superseded()); an `ended_by_daemon`
  // order stops the running action (counted in endedByDaemon(); none running: ignored).
  // Returns false, doing nothing, for an agent this client did not create.
  bool start(const ActionOrder& order, double now_s);

  // Advances the game to `now_s`, `dt_s` after the previous frame, and appends this frame's
  // items to `update` (the caller sets seq and subscription).
  void frame(double now_s, double dt_s, v1::WorldUpdate& update, FrameCounts& counts);

  // The last update of a run: removes every entity this client created. Results of actions
  // still running are dropped (the agents go with them).
  void farewell(v1::WorldUpdate& update, FrameCounts& counts);

  uint64_t superseded() const { return superseded_; }
  uint64_t endedByDaemon() const { return ended_by_daemon_; }
  // The longest planned action so far (a MoveTo's distance / speed), in seconds.
  double longestActionS() const { return longest_action_s_; }

 private:
  struct Player {
    Vec3 position;
    Vec3 goal;
    float speed_mps = 0.f;
    double next_footstep_s = 0.0;
    double next_gunshot_s = 0.0;
    double next_fight_s = 0.0;
  };
  struct Running {
    uint64_t intention = 0;  // 0: idle
    bool move = false;
    Vec3 goal;
    float speed_mps = 0.f;
    double started_s = 0.0;
    double duration_s = 0.0;       // planned; a move's from its distance and speed
    double ends_s = 0.0;           // non-move actions complete here
    double fails_s = -1.0;         // >= 0: the action fails at this time
    double next_progress_s = 0.0;
  };
  struct Npc {
    Vec3 position;
    Vec3 forward{1.f, 0.f, 0.f};
    uint32_t archetype = 0;  // index into scenario archetypes
    Running action;
  };

  void spawnPlayers(v1::WorldUpdate& update, FrameCounts& counts);
  // The next NPCs not yet in the world, scenario npcs.spawn_per_frame at most.
  void spawnNpcs(v1::WorldUpdate& update, FrameCounts& counts);
  void stepPlayers(double now_s, double dt_s, v1::WorldUpdate& update, FrameCounts& counts);
  void stepNpcs(double now_s, double dt_s, v1::WorldUpdate& update, FrameCounts& counts);
  void pickLeg(Player& p);
  Vec3 randomPoint();
  double nextEvent(double now_s, double rate_hz);  // Poisson process; +inf for rate 0
  double uniform(double lo, double hi);

  const Scenario& scenario_;
  uint64_t base_;
  std::mt19937_64 rng_;
  std::vector<Player> players_;
  std::vector<Npc> npcs_;
  bool spawned_ = false;      // players sent (the first frame)
  size_t npcs_spawned_ = 0;  // npcs_[0, npcs_spawned_) are in the world
  uint64_t superseded_ = 0;
  uint64_t ended_by_daemon_ = 0;
  double longest_action_s_ = 0.0;
};

}  // namespace npc::bots
