// Scenario: what one npcd-bots run does — how many game clients, players and NPCs, how they
// behave, for how long, and what the run must achieve to pass. Read from a JSON file
// (config/bots/*.json, checked against config/schema/bots_scenario.schema.json); every key
// is optional except where noted, unknown keys, wrong types and values out of range are
// errors naming the key and where it is ("smoke.json:3:20: /players/walk_mps: expected a
// number, got a string"), collected before the file is refused.
//
//   {
//     "description": "free text",
//     "clients": 2,                 // game clients, one Connect stream each        [1, 1000]
//     "duration_s": 10,             // measured time                                 > 0
//     "warmup_s": 0,                // before measuring (spawns settle); not counted >= 0
//     "rate_hz": 20,                // world updates per second per client (the game's rate)
//     "max_items_per_update": 10000, // larger frames are sent as several updates [1, 1e6]
//     "seed": 1,                    // bots' random choices
//     "area": { "min": [-100, -100, 0], "max": [100, 100, 0] },  // where everything walks
//     "players": { "per_client": 5, "species": "human", "walk_mps": 1.5, "run_mps": 5,
//                  "run_fraction": 0.25, "footstep_hz": 2, "footstep_radius_m": 8,
//                  "gunshot_hz": 0.02, "gunshot_radius_m": 40,
//                  "fight_hz": 0.05, "fight_radius_m": 15, "fight_signal": "OnEnemySeen" },
//     "npcs": { "per_client": 20 | "total": 10000, "archetypes": ["guard", "villager"],
//               "updates": "moving" | "all", "spawn_per_frame": 0 },
//     "actions": { "failure_rate": 0.05, "default_duration_s": 1, "progress_interval_s": 1,
//                  "default_speed_mps": 1.5 },
//     "subscribe_events": ["error", "intention_failed"],  // kinds streamed to a client; [] = all
//     "expect": { "max_errors": 0, "max_p99_latency_ticks": 2, "min_updates_per_s": 1000,
//                 "min_actions": 1 }
//   }
//
// One client's players + NPCs are at most 8,000 (use more clients). A frame with more items
// than max_items_per_update (results and sounds pile up when the bots fall behind) is sent
// as several consecutive WorldUpdates, which npcd applies in order.
//
// npcs.updates: "moving" sends an NPC's position only while it executes a MoveTo (a game
// that streams what changed); "all" sends every NPC every frame (a game that streams full
// snapshots).
//
// npcs.spawn_per_frame: a client spawns at most this many NPCs a frame (0: all in its first
// frame). A game streams its NPCs in as they load; 100,000 arriving in one tick stall it
// for a second or more, and every later tick then runs that late on its grid.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "world/vec3.h"

namespace npc::bots {

struct PlayerSpec {
  uint32_t per_client = 5;
  std::string species = "human";
  float walk_mps = 1.5f;            // speed on a walking leg
  float run_mps = 5.f;              // speed on a running leg
  double run_fraction = 0.25;       // share of legs run, [0, 1]
  double footstep_hz = 2.0;         // footstep sounds per second while moving; 0 = none
  float footstep_radius_m = 8.f;    // walking; running doubles it
  double gunshot_hz = 0.02;         // gunshots per second per player; 0 = none
  float gunshot_radius_m = 40.f;  // guards (hearing 1.2) walk 48 m at 2 m/s: < 30 s timeout
  double fight_hz = 0.05;           // fights started per second per player; 0 = none
  float fight_radius_m = 15.f;      // a fight signals every agent this close to the player
  std::string fight_signal = "OnEnemySeen";
};

struct NpcSpec {
  enum class Updates { kMoving, kAll };
  uint32_t per_client = 0;          // set from "per_client", or "total" spread over clients
  uint32_t total = 0;               // set when the file gives "total"
  std::vector<std::string> archetypes = {"villager"};  // assigned round-robin
  Updates updates = Updates::kMoving;
  uint32_t spawn_per_frame = 0;     // per client; 0: all in the first frame

  // NPCs of client `index` (0-based) out of `clients`: "total" is spread as evenly as
  // possible, the first clients taking one more.
  uint32_t countFor(uint32_t index, uint32_t clients) const;
};

struct ActionSpec {
  double failure_rate = 0.0;         // share of actions reported FAILED, [0, 1]
  double default_duration_s = 1.0;   // actions without a duration or a MoveTo target
  double progress_interval_s = 1.0;  // PROGRESS reports while an action runs; 0 = none
  float default_speed_mps = 1.5f;    // MoveTo without a speed param
};

// The run passes when every threshold that is set holds.
struct Expect {
  std::optional<uint64_t> max_errors;           // error events + stream failures
  std::optional<double> max_p99_latency_ticks;  // action latency p99, in ticks
  std::optional<double> min_updates_per_s;      // world update items sent per second
  std::optional<uint64_t> min_actions;          // actions received over the run
};

struct Scenario {
  std::string file;  // where it was read from, for the report
  std::string description;
  uint32_t clients = 1;
  double duration_s = 10.0;
  double warmup_s = 0.0;
  double rate_hz = 10.0;
  // Items per WorldUpdate (npcd's max_items_per_update): larger frames go out in parts.
  uint32_t max_items_per_update = 10000;
  uint64_t seed = 1;
  Aabb area{{-100.f, -100.f, 0.f}, {100.f, 100.f, 0.f}};
  PlayerSpec players;
  NpcSpec npcs;
  ActionSpec actions;
  // Event kinds to receive (see eventKindValue()); errors always arrive.
  // intention_failed tells the bots which actions the daemon ended itself (timeouts).
  std::vector<std::string> subscribe_events = {"error", "intention_failed"};
  Expect expect;

  uint32_t totalPlayers() const { return players.per_client * clients; }
  uint32_t totalNpcs() const;
};

// npc.v1.EventKind by its lower-case short name ("intention_failed" ->
// EVENT_KIND_INTENTION_FAILED), straight from the proto so new kinds need no change here;
// 0 for unknown names and "unspecified".
int eventKindValue(std::string_view name);
// Every known short name, comma-separated, for messages.
std::string eventKindList();

// Reads and checks `path`. Returns false with one line per problem in `errors`, each naming
// the file and the JSON path of the key.
bool loadScenario(const std::string& path, Scenario& out, std::vector<std::string>& errors);
// Same from text; `name` labels the errors.
bool parseScenario(const std::string& name, std::string_view text, Scenario& out,
                   std::vector<std::string>& errors);

}  // namespace npc::bots
