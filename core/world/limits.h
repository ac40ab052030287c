// Bounds on every number a game client, an admin call or a definition file controls.
//
// Why: a finite but absurd value is as hostile as a NaN. A sound of radius 1e30 m, a sight
// range of 1e30 m or a delay of 1e300 s passes "finite, >= 0" and then costs the tick, or
// never ends. Every such number is checked against the bound here at the edge (the gRPC
// conversion in server/proto_convert, the JSON loaders, action submission) and refused with
// an error naming the field, e.g.
//   sounds[0].radius: must be at most 2000 m (got 1e+30)
//   upserts[0] (id 5).position: x 3.4e+38 is outside the world bounds (+-100000 m)
// The bounds are generous for any game and small enough that one accepted value cannot blow
// a tick's budget. README.md ("Bounds") lists them with their errors; change both together.
//
// The spatial queries are bounded by construction as well (SpatialGrid, ObstacleIndex): the
// limits keep the work of one value proportionate, the indices keep it finite.
#pragma once

#include <cmath>

#include <cstdint>
#include <string>

#include "world/vec3.h"

namespace npc {

// --- distances (metres) ---------------------------------------------------------------------
inline constexpr double kMaxSoundRadiusM = 2000.0;    // Sound.radius: an explosion heard 2 km off
inline constexpr double kMaxSignalRadiusM = 10000.0;  // Signal.radius (SendSignal, updates)
inline constexpr double kMaxSightRangeM = 1000.0;     // sight_range (SetSensors, archetypes)
inline constexpr double kMaxEyeHeightM = 100.0;       // Entity.eye_height
inline constexpr double kMaxObstacleSizeM = 1000.0;   // an obstacle box's extent on each axis
inline constexpr double kMaxNoticeRadiusM = kMaxSightRangeM;  // archetype notice_radius_m

// --- speeds (metres per second) -------------------------------------------------------------
inline constexpr double kMaxEntitySpeedMps = 1000.0;  // each component of Entity.velocity
inline constexpr double kMaxAgentSpeedMps = 100.0;    // archetype / behavior speed_mps

// --- times (seconds of simulated time) ------------------------------------------------------
inline constexpr double kMaxDelayS = 7.0 * 24 * 3600;  // delay_s of intentions, game actions,
                                                       // WakePlace; a Wait's duration
inline constexpr double kMaxTimeoutS = 24.0 * 3600;    // action timeouts (archetypes)

// --- scales and counts ----------------------------------------------------------------------
inline constexpr double kMaxHearingScale = 10.0;       // multiplies every sound's radius
inline constexpr double kMaxVisibilityMultiplier = 100.0;  // RegisterVisibilityType.multiplier
inline constexpr double kMaxSignalValue = 1e9;         // |Signal.value|
inline constexpr int64_t kMaxItemCount = 1000000;      // Drop / Give count, inventories
inline constexpr uint32_t kMaxGroupId = 65535;         // Signal.group (0 = none)

// --- perception tuning (the global "perception" block: daemon config, world file) -----------
inline constexpr double kMaxPerceptionFactor = 100.0;  // som_speed
inline constexpr double kMaxCoefficientStep = 10.0;   // near_boost, decay_per_update (the
                                                      // coefficient runs 0..10)
inline constexpr double kMinGridCellM = 0.5;          // obstacle_cell_m, target_cell_m,
inline constexpr double kMaxGridCellM = 1000.0;       // config grid_cell_m
inline constexpr int64_t kMaxUpdatePeriodTicks = 1000;   // full_update_period_ticks
inline constexpr int64_t kMaxRaysPerTick = 10000000;     // max_rays_per_tick (0 = unlimited)
inline constexpr int64_t kMaxPerceptionCandidates = 4096;  // max_candidates (allocated once)
inline constexpr int64_t kMaxPendingPerTick = 1000000;  // max_pending_sounds / _signals
                                                        // (reserved once)
// Distances of the block use the bounds above: near_range_m <= kMaxSightRangeM; footstep
// radii, bullet_rain_radius_m and sound_merge_radius_m <= kMaxSoundRadiusM; eye heights
// <= kMaxEyeHeightM; speeds <= kMaxEntitySpeedMps; times (memory, sound lifetimes,
// cooldowns) <= kMaxDelayS; visibility multipliers <= kMaxVisibilityMultiplier.

// --- long actions (the long actions file) ---------------------------------------------------
inline constexpr double kMinLongActionTurnS = 0.1;  // turn_s: a year asleep stays < 2^32 turns
inline constexpr int64_t kMaxEveryTurns = 1000000;  // a recipe's every_turns
// consumes / produces / caps amounts: 1..kMaxItemCount; turn_s <= kMaxDelayS.
// Influences and actions (influences file, archetypes): emits sound_m <= kMaxSoundRadiusM,
// signal_m <= kMaxSignalRadiusM, timeout_s <= kMaxTimeoutS.

// --- the world ------------------------------------------------------------------------------
inline constexpr double kMaxWorldHalfExtentM = 1e7;  // config world_bounds_m (10,000 km)

// The box every position must lie in: a square of +-half_extent_m around the origin on x/y,
// and min_z_m..max_z_m in height (config "world_bounds_m"). Positions of entities, obstacles,
// sounds, signals, action parameters and world files outside it are refused.
struct WorldBounds {
  double half_extent_m = 100000.0;  // 100 km [Limit: > 0, <= kMaxWorldHalfExtentM]
  double min_z_m = -10000.0;        // [Limit: < max_z_m]
  double max_z_m = 10000.0;

  bool contains(Vec3 p) const {
    // Comparisons that are false for NaN, so that NaN is outside. Inline: every position a
    // client sends is checked.
    return std::fabs(p.x) <= half_extent_m && std::fabs(p.y) <= half_extent_m &&
           p.z >= min_z_m && p.z <= max_z_m;
  }
  // "" when p is inside; else what is outside, e.g. "x 3.4e+38 is outside the world bounds
  // (+-100000 m)" or "z -20000 is outside the world bounds (-10000..10000 m)". A NaN
  // coordinate is outside.
  std::string outside(Vec3 p) const;
};

// A number as messages print it ("%g": 2000, 1e+30, 0.25).
std::string formatNumber(double value);
// "" when value <= max; else "must be at most 2000 m (got 1e+30)" (+inf is above; NaN is
// the caller's own check and passes here).
std::string aboveMaximum(double value, double max, const char* unit);

}  // namespace npc
