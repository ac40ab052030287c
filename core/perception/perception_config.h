// Perception tuning: PerceptionConfig is global (one per simulation, difficulty-dependent),
// SensorConfig is per archetype and copied into each agent's PerceptionState, where the API
// may switch it at run time. Every number has a documented default; the defaults are the
// seed's rules where it is explicit and CryEngine's constants elsewhere
// (../shared/PERCEPTION-REFERENCE.md §1). Design note: core/perception/README.md.
//
// JSON (the "perception" key of the daemon config / world file, and of archetype files):
//   global:  { "som_speed": 1.5, "decay_per_update": 0.1, "full_update_period_ticks": 1,
//              "max_rays_per_tick": 50000,
//              "memory": { "base_s": 5, "per_visible_s": 1, "min_s": 2, "max_s": 30 },
//              "sounds": { "gunshot": { "lifetime_s": 4, "threat": 1.0 }, ... },
//              "footsteps": { "stand_base_m": 4, ... },
//              "visibility_types": { "grenade": { "multiplier": 2, "use_coefficient": false },
//                                    "flowers": { "neutral": true } },
//              ... every other PerceptionConfig field by its name }
//   sensors: { "vision": true, "hearing": true, "signals": true, "sight_range_m": 50,
//              "fov_deg": 160, "hearing_scale": 1, "soft_cover_s": [3, 5] }
// Every key is optional; unknown keys and out-of-range values are errors naming the JSON
// path ("archetypes/guard.json: /guard/perception/fov_deg: must be within (0, 360]"). The
// global block's keys, types and bounds (world/limits.h) are its schema's,
// config/schema/daemon_config.schema.json#/definitions/perception; the sensors' keys and
// types are the archetype schema's.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "perception/sounds.h"

namespace npc {

class JsonReader;

// How long a heard sound stays a sound target, and how threatening it is (0..1).
struct SoundKindConfig {
  float lifetime_s = 2.f;
  float threat = 0.3f;
};

// Memory-target expiry: clamp((base_s + per_visible_s × seconds visible) × threat index,
// min_s, max_s). CE1 forgets by intensity and threat; CE3 releases tracks over 30 s.
struct MemoryConfig {
  float base_s = 5.f;
  float per_visible_s = 1.f;
  float min_s = 2.f;
  float max_s = 30.f;
};

// An object type (an entity's species name for objects and attributes) registered for
// visibility with its assessment multiplier (threat index and coefficient rate factor).
struct VisibilityTypeConfig {
  std::string name;
  float multiplier = 1.f;        // [Limit: > 0]
  bool use_coefficient = false;  // false: "switch" vision, visible as soon as a ray passes
  // Neutral things (flowers, a dropped tool) are seen and remembered (OnObjectSeen) but are
  // nobody's enemy: no OnEnemySeen / OnLostSightOfTarget, never the attention target.
  bool neutral = false;
};

struct PerceptionConfig {
  // --- perception coefficient (SOM), applied per full update ---------------------------
  // inc = ((1 − d/R)² + 0.1) × som_speed × multiplier × [low_factor] × [still_factor]
  //       + (d < near_range_m ? near_boost : 0);   coefficient += inc − decay_per_update
  float som_speed = 1.5f;            // ai_SOM_SPEED; difficulty sets it (1.2 easy, 1.5 medium)
  float decay_per_update = 0.1f;     // applied every full update, passing or not
  float suspicious_threshold = 5.f;  // crossing it sends OnSuspicious with a position
  float near_range_m = 5.f;          // Far Cry: closer than 5 m is seen in about 2 updates
  float near_boost = 5.f;
  float low_eye_height_m = 1.f;      // seed: under 1 m above ground halves the increase
  float low_factor = 0.5f;
  float still_factor = 0.5f;         // seed: a still target halves it again
  float still_speed_mps = 0.1f;      // slower than this counts as standing still

  // --- pacing and capacities ------------------------------------------------------------
  uint32_t full_update_period_ticks = 1;  // each agent every N ticks, phase from its id
  uint32_t max_rays_per_tick = 50000;     // agents due past it wait a tick; 0 = unlimited
  uint32_t max_candidates = 128;          // per agent and full update; the rest are counted
  uint32_t max_pending_sounds = 4096;     // addSound() refuses (and counts) past this per tick
  uint32_t max_pending_signals = 4096;    // postSignal() likewise
  float obstacle_cell_m = 8.f;            // ray grid cell (measured best for ≤ 50 m rays)
  float target_cell_m = 50.f;             // potential-target grid cell (≈ the usual sight range)

  // --- target tracks --------------------------------------------------------------------
  MemoryConfig memory;
  float stealth_report_step = 0.5f;  // a stealth-meter change event needs at least this much

  // --- hearing --------------------------------------------------------------------------
  // Defaults: CryEngine stimulus lifetimes and listener threat weights (reference §1.4).
  std::array<SoundKindConfig, kSoundKindCount> sounds = {{
      {2.f, 0.3f},   // generic
      {2.f, 0.5f},   // footstep (movement)
      {4.f, 0.3f},   // collision
      {4.f, 1.0f},   // gunshot (weapon)
      {6.f, 1.0f},   // explosion
      {0.5f, 0.7f},  // bullet impact
  }};
  float threatening_threshold = 0.6f;  // threat >= this: OnHearThreateningSound
  float bullet_rain_radius_m = 5.f;    // bullet impact this close: OnBulletRain
  float bullet_rain_cooldown_s = 1.f;  // at most one OnBulletRain per agent per this
  float sound_merge_radius_m = 2.f;    // an anonymous sound this close refreshes a target
  bool hear_friendly_movement = false; // false: non-threatening noise of own-species NPCs
                                       // is ignored (a squad does not react to itself)
  FootstepConfig footsteps;

  // --- registered object types ----------------------------------------------------------
  std::vector<VisibilityTypeConfig> visibility_types;
};

struct SensorConfig {
  bool vision = true;
  bool hearing = true;
  bool signals = true;             // receive signals sent by others (postSignal)
  float sight_range_m = 50.f;      // sphere around the eye (CE VisionMap default 50 m)
  float fov_deg = 160.f;           // full cone angle; 180 sees ±90°; [Limit: (0, 360]]
  float hearing_scale = 1.f;       // heard when distance / hearing_scale <= radius; 0 = deaf
  float soft_cover_min_s = 3.f;    // a living target behind soft cover stays visible for a
  float soft_cover_max_s = 5.f;    // per-agent time drawn in [min, max] (seed: 3–5 s)
  bool operator==(const SensorConfig&) const = default;
};

// Read `j` (an object) into `out`, keeping defaults for missing keys. `j` is checked against
// its schema first, and nothing is read when it does not conform. Problems go to `reader`
// with JSON paths under `path`; `out` is only meaningful when reader.ok().
void readPerceptionConfig(const nlohmann::json& j, std::string_view path, JsonReader& reader,
                          PerceptionConfig& out);
// Its keys and types are checked by the archetype schema (config/schema/archetype.schema.json)
// before; this reads values and checks ranges.
void readSensorConfig(const nlohmann::json& j, std::string_view path, JsonReader& reader,
                      SensorConfig& out);

}  // namespace npc
