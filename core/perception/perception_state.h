// Per-agent perception state: what one agent currently sees, remembers and has heard.
//
// A plain struct with fixed inline arrays (≈ 1.6 KB), meant to be embedded in the agent's
// row (core/agent/agent.h) and moved with it; it owns no heap memory and the tick never
// allocates for it. Only PerceptionSystem writes it during a tick; between ticks the API may
// switch `sensors` and set `group`.
//
// Target tracks (one per target entity, at most kMaxTracks):
//   kPotential  passed the visibility tests but its coefficient is still below the maximum
//               (players and coefficient types only); dropped when the coefficient decays to 0
//   kVisible    the visibility list: must pass the tests every full update
//   kMemory     was visible, now is not; forgotten at memory_expires_s
// Sound targets (at most kMaxSoundTargets) last until heard_s + the kind's lifetime.
// Attention target: visible beats remembered beats heard; within a class the higher threat
// index wins, then the nearer, then the lower entity id (so the choice is deterministic).
// When a list is full, the lowest-ranked entry is replaced if the newcomer ranks higher;
// otherwise the newcomer is dropped. Both cases are counted in the *_dropped fields.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <span>

#include "perception/perception_config.h"
#include "perception/sounds.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

inline constexpr size_t kMaxTracks = 16;
inline constexpr size_t kMaxSoundTargets = 8;
inline constexpr float kMaxCoefficient = 10.f;

enum class TrackState : uint8_t { kPotential, kVisible, kMemory };
// Ordered: a higher class always wins the attention target.
enum class AttentionClass : uint8_t { kNone, kHeard, kRemembered, kVisible };

std::string_view toString(TrackState state);
std::string_view toString(AttentionClass cls);

struct TargetTrack {
  enum Flags : uint8_t {
    kUsesCoefficient = 1,  // perceived through the coefficient (players, flagged types)
    kPlayer = 2,           // counted by the stealth meter
    kSuspicious = 4,       // OnSuspicious already sent for this track
    kNeutral = 8,          // a neutral type: remembered, never an enemy or attention target
  };
  EntityId target = EntityId::kNone;  // the principal (an attribute is never a target)
  EntityHandle handle;                // its entity row when last seen (stale when removed)
  Vec3 position;                      // last known position (entity position, not eye)
  float coefficient = 0.f;            // 0..10; 10 while visible
  float threat = 1.f;                 // threat index (assessment multiplier of its type)
  float distance_m = 0.f;             // eye to eye when last seen
  double visible_since_s = 0.0;       // kVisible: when it became visible
  double last_seen_s = 0.0;           // last full update it passed the tests
  // kVisible: when it went behind soft cover (< 0: not behind soft cover).
  // kMemory: when it will be forgotten.
  double timer_s = -1.0;
  TrackState state = TrackState::kPotential;
  uint8_t flags = 0;

  bool has(Flags f) const { return (flags & f) != 0; }
};

struct SoundTarget {
  EntityId source = EntityId::kNone;  // kNone: anonymous, merged by position and kind
  Vec3 position;
  float threat = 0.f;
  double heard_s = 0.0;
  double expires_s = 0.0;
  SoundKind kind = SoundKind::kGeneric;
};

struct AttentionTarget {
  AttentionClass cls = AttentionClass::kNone;
  EntityId target = EntityId::kNone;  // kNone for an anonymous sound
  Vec3 position;
  float threat = 0.f;
};

struct PerceptionState {
  SensorConfig sensors;              // the archetype's, switchable at run time
  GroupNumber group = GroupNumber::kNone;  // signal group
  float soft_cover_persist_s = 4.f;  // drawn in [soft_cover_min_s, soft_cover_max_s]
  static constexpr uint64_t kUnscheduled = std::numeric_limits<uint64_t>::max();
  uint64_t next_full_update_tick = kUnscheduled;  // set by the first update that sees it
  double last_full_update_s = -1.0;
  double last_bullet_rain_s = -1e300;
  uint32_t full_updates = 0;

  uint8_t track_count = 0;
  uint8_t sound_count = 0;
  std::array<TargetTrack, kMaxTracks> tracks{};
  std::array<SoundTarget, kMaxSoundTargets> sounds{};
  AttentionTarget attention;

  uint32_t tracks_dropped = 0;         // a track that could not be kept for lack of room
  uint32_t sound_targets_dropped = 0;
  uint32_t candidates_truncated = 0;   // full updates that saw more than max_candidates

  std::span<TargetTrack> activeTracks() { return {tracks.data(), track_count}; }
  std::span<const TargetTrack> activeTracks() const { return {tracks.data(), track_count}; }
  std::span<SoundTarget> activeSounds() { return {sounds.data(), sound_count}; }
  std::span<const SoundTarget> activeSounds() const { return {sounds.data(), sound_count}; }
};

// One agent as the perception phase sees it: its body in the world and its state. The caller
// builds a span of these each tick (e.g. from the agent table's rows, in row order, which
// keeps the order deterministic); the pointers need only live for that call.
struct Perceiver {
  EntityHandle entity;
  PerceptionState* state = nullptr;
  // False: a full update that falls due waits for a tick where this is true (an agent on a
  // reduced rate, core/sim/detail_tiers.h); signals and sounds still reach it.
  bool full_updates = true;
};

// Resets `state` for a new agent: copies `sensors` and draws its soft-cover persistence from
// a stream seeded by (world_seed, agent) — independent of the agent's own Rng.
void initPerceptionState(PerceptionState& state, const SensorConfig& sensors, EntityId agent,
                         uint64_t world_seed);

// Index of the track of `target`, or -1.
int findTrack(const PerceptionState& state, EntityId target);
// Adds `track` and returns its index; when full, replaces the lowest-ranked track if `track`
// ranks higher (a replaced index is returned), else counts the drop and returns -1.
// `becomes_visible`: rank the newcomer as visible (a switch-vision target seen this update).
int addTrack(PerceptionState& state, const TargetTrack& track, bool becomes_visible = false);
// Removes track `index` by moving the last track into its place.
void removeTrack(PerceptionState& state, int index);

// Index of the sound target for `source` (or, for kNone, the nearest anonymous one of `kind`
// within merge_radius_m of `position`), or -1.
int findSoundTarget(const PerceptionState& state, EntityId source, SoundKind kind,
                    Vec3 position, float merge_radius_m);
int addSoundTarget(PerceptionState& state, const SoundTarget& target);
// Drops sound targets that expired at or before now_s.
void expireSoundTargets(PerceptionState& state, double now_s);

// The attention target the rules above pick from the current lists.
AttentionTarget pickAttention(const PerceptionState& state);

}  // namespace npc
