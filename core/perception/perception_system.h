// PerceptionSystem: the perception phase of the tick (ARCHITECTURE.md step 3).
//
// Per tick the simulation calls, after ingest and World::refreshSpatialIndex():
//   update(world, perceivers, tick, now_s, out)
// which, in order:
//   1. rebuilds the obstacle ray grid if obstacles changed (markObstaclesChanged() or a
//      different obstacle count);
//   2. delivers the signals posted since the last update (postSignal) to their receivers;
//   3. delivers the sounds added since the last update (addSound/addFootstep) to every
//      listener within earshot: heard when distance / hearing_scale <= radius, hearing on,
//      not the source itself; creates or refreshes a sound target and sends OnHearSound /
//      OnHearThreateningSound / OnBulletRain;
//   4. rebuilds the potential-target grid (players, other-species NPCs, registered objects,
//      attributes with a principal; one grid per species that may not see them, TargetGrid)
//      — the candidates for every agent come from it;
//   5. runs the full update of each agent that is due (every full_update_period_ticks ticks,
//      phase = hash(agent id) % period) while the tick's ray budget lasts; agents past the
//      budget stay due and go first next tick (counted as deferred);
//   6. recomputes the stealth meter.
// Full update of one agent: candidates within sight range that its species may see (grid
// query, capped at max_candidates) → same-species rule → field of view → one ray eye to eye through the
// obstacle grid → coefficient / switch vision → track transitions (see perception_state.h)
// → sound-target expiry → attention target. Signals go to `out` as they happen.
//
// Inputs between ticks (tick thread, during ingest): addSound, addFootstep, postSignal,
// markObstaclesChanged, visibility registration, attribute principals, setSomSpeed; agents'
// sensors and groups are fields of their PerceptionState.
//
// Determinism: agents are visited in the span's order starting at a cursor that only moves
// when the ray budget runs out; candidates, listeners and receivers are visited in ascending
// entity-row order; no clock, no unordered containers, random draws only in
// initPerceptionState. Design note and measured costs: core/perception/README.md.
// Thread: tick thread only.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "perception/obstacle_index.h"
#include "perception/perception_config.h"
#include "perception/perceiver_index.h"
#include "perception/perception_state.h"
#include "perception/signals.h"
#include "perception/sounds.h"
#include "perception/stealth_meter.h"
#include "perception/target_grid.h"
#include "perception/visibility.h"

namespace npc {

class World;
template <class Id>
class NameTable;
class WorkerPool;

struct PerceptionStats {
  uint64_t full_updates = 0;
  uint64_t deferred_updates = 0;      // due but past the ray budget
  uint64_t candidates = 0;            // potential targets examined (never own species)
  uint64_t candidates_truncated = 0;  // full updates that hit max_candidates
  uint64_t rays = 0;
  uint64_t rays_hard = 0;             // blocked by hard cover
  uint64_t rays_soft = 0;             // crossed soft cover only
  uint64_t tracks_dropped = 0;
  uint64_t sounds_delivered = 0;      // sound events processed
  uint64_t sounds_heard = 0;          // (sound, listener) pairs that heard it
  uint64_t sounds_refused = 0;        // addSound past max_pending_sounds (totals only)
  uint64_t sound_targets_dropped = 0;
  uint64_t signal_requests_refused = 0;  // postSignal past the cap (totals only)
  uint64_t signals_sent = 0;          // deliveries pushed to the output queue
  uint64_t obstacle_rebuilds = 0;
  void add(const PerceptionStats& o);
};

class PerceptionSystem {
 public:
  // Registers config.visibility_types under their names in `species` (World::species()).
  PerceptionSystem(PerceptionConfig config, NameTable<SpeciesId>& species);
  PerceptionSystem(const PerceptionSystem&) = delete;
  PerceptionSystem& operator=(const PerceptionSystem&) = delete;

  // The perception phase; see the file comment. `perceivers` must not hold one entity twice;
  // a perceiver whose entity is gone or inactive perceives nothing (its tracks still age).
  // With a `pool` of more than one thread, step 5 runs on it (perception_full_updates.cpp):
  // each worker writes only its agents' states, and `out`, the states and the counters come
  // out exactly as on one thread. [Limit: call at most once per tick, with non-decreasing
  // tick and now_s]
  void update(const World& world, std::span<const Perceiver> perceivers, uint64_t tick,
              double now_s, SignalQueue& out, WorkerPool* pool = nullptr);

  // --- inputs, applied by the next update() --------------------------------------------
  // False (and counted) when max_pending_sounds sounds are already queued, or the sound is
  // malformed (non-finite position, radius <= 0).
  bool addSound(const Sound& sound);
  // Derives a footstep from `mover`'s velocity and eye height (sounds.h); false when it makes
  // none or the queue is full.
  bool addFootstep(const Entity& mover, float noise_suppression = 0.f);
  // False (and counted) when max_pending_signals requests are queued or the id is kNone.
  bool postSignal(const SignalRequest& request);
  // What the next update() will deliver (snapshots capture it, restore posts it again).
  std::span<const Sound> pendingSounds() const { return pending_sounds_; }
  std::span<const SignalRequest> pendingSignals() const { return pending_signals_; }
  void clearPending() {
    pending_sounds_.clear();
    pending_signals_.clear();
  }
  // The world's obstacles were upserted or removed: rebuild the ray grid at the next update.
  void markObstaclesChanged() { obstacles_dirty_ = true; }

  // --- run-time settings -----------------------------------------------------------------
  void setSomSpeed(float som_speed) { config_.som_speed = som_speed; }
  void setDecayPerUpdate(float decay) { config_.decay_per_update = decay; }
  void setSuspiciousThreshold(float coefficient) { config_.suspicious_threshold = coefficient; }
  const PerceptionConfig& config() const { return config_; }
  VisibilityRegistry& visibility() { return visibility_; }
  const VisibilityRegistry& visibility() const { return visibility_; }
  // Interns custom signal names (call at load/ingest time, not per tick).
  SignalNames& signalNames() { return signal_names_; }
  const SignalNames& signalNames() const { return signal_names_; }

  // --- outputs ---------------------------------------------------------------------------
  const StealthMeter& stealth() const { return stealth_; }
  StealthMeter& stealth() { return stealth_; }  // snapshot restore
  // The ray grid as of the last update (other systems may use it for line of sight).
  const ObstacleIndex& obstacles() const { return obstacles_; }
  const PerceptionStats& lastTick() const { return last_; }
  const PerceptionStats& totals() const { return totals_; }

 private:
  // What one potential target looks like this tick, shared by every observer.
  struct TargetItem {
    uint32_t row;             // the entity seen (a target or an attribute)
    uint32_t principal_row;   // the entity tracked (== row unless an attribute)
    float multiplier;         // coefficient-rate factor of what is seen
    float threat;             // threat index of the principal
    SpeciesId principal_species;
    bool principal_is_player;
    bool track_uses_coefficient;  // the principal is perceived through the coefficient
    bool instant;                 // seeing this makes the principal visible at once
    bool neutral;                 // the principal's type is neutral (never an enemy)
  };
  // A track's evidence gathered during one full update.
  struct Evidence {
    SightBlock best = SightBlock::kHardCover;  // kHardCover: not seen this update
    bool instant = false;
    float increment = 0.f;
    float distance_m = 0.f;
  };

  // What one thread of the full updates writes besides its agents' states: its signals
  // (lane 0: the caller's queue; the others their own, appended in lane order), counters
  // and scratch. Lanes live as long as the system, so a tick allocates nothing.
  struct Lane {
    SignalQueue* out = nullptr;
    SignalQueue own{0};
    uint64_t dropped_before = 0;  // own.dropped() already passed on to the caller's queue
    PerceptionStats stats;
    std::array<Evidence, kMaxTracks> evidence{};
    std::vector<uint32_t> candidates;  // sized max_candidates
    std::vector<uint32_t> sight_lines;  // pool path: targets listed by listSightLines
    ObstacleIndex::RayStamps stamps;
  };
  // The sight lines of one due agent, listed when the pool path counts rays against the
  // budget and followed by that agent's full update, so the grid is queried once per agent
  // (counting and then gathering used to query it twice: 40 % of the full updates' time).
  struct ListedSight {
    uint32_t lane = 0;        // whose Lane::sight_lines holds them
    uint32_t begin = 0;       // the first there
    uint32_t rays = 0;        // how many: one ray each
    uint32_t candidates = 0;  // what the grid gave (PerceptionStats::candidates)
    bool truncated = false;   // the grid gave max_candidates
  };

  // One perceiver as this tick's gather found it, by perceiver index.
  // Delivery reads these rather than the agent's row: a group signal reaches hundreds.
  struct RosterEntry {
    static constexpr uint32_t kAbsent = 0xffffffffu;
    EntityId id = EntityId::kNone;
    uint32_t row = kAbsent;  // its entity's row; kAbsent: no body or no state, not a perceiver
    GroupNumber group = GroupNumber::kNone;
    SpeciesId species = SpeciesId::kNone;
    PlaceIndex place = PlaceIndex::kNone;
    bool hears = false;
    bool takes_signals = false;
    bool due = false;  // a full update falls due this tick (and it takes full updates)
    float hearing_scale = 0.f;
  };

  // Fills roster_ on the workers (each perceiver's row is a page apart from the next, so this
  // pass is the phase's memory-bound part) and schedules perceivers seen for the first time.
  void gatherRoster(const World& world, std::span<const Perceiver> perceivers, uint64_t tick,
                    WorkerPool* pool);
  void rebuildTargets(const World& world);
  void fullUpdatesInline(const World& world, std::span<const Perceiver> perceivers,
                         uint64_t tick, double now_s);
  void fullUpdatesOnPool(const World& world, std::span<const Perceiver> perceivers,
                         uint64_t tick, double now_s, WorkerPool& pool, SignalQueue& out);
  std::optional<TargetItem> classify(const World& world, const Entity& e, uint32_t row) const;
  void deliverSignals(const World& world, SignalQueue& out);
  void deliverSounds(const World& world, std::span<const Perceiver> perceivers, double now_s,
                     Lane& lane);
  void hear(const Entity& self, PerceptionState& st, const Sound& sound, float threat,
            float distance_m, double now_s, Lane& lane);
  // `listed`: the sight lines listSightLines found for this agent this tick (null: query).
  void fullUpdate(const World& world, const Entity& self, uint32_t self_row,
                  PerceptionState& st, double now_s, Lane& lane,
                  const ListedSight* listed = nullptr);
  // Calls visit(target) (an index in targets_) for each candidate that passes the tests
  // before the ray (self, same species, field of view); returns how many candidates the grid
  // gave.
  template <class Visit>
  uint32_t forEachSightLine(const Entity& self, uint32_t self_row, const PerceptionState& st,
                            Lane& lane, bool* truncated, Visit&& visit) const;
  // The sight lines a full update of this agent would follow now, appended to
  // lane.sight_lines (reads the agent only); their count is the rays it would cast.
  ListedSight listSightLines(const Entity& self, uint32_t self_row, const PerceptionState& st,
                             Lane& lane, uint32_t lane_index) const;
  void gatherSight(const World& world, const Entity& self, uint32_t self_row,
                   PerceptionState& st, double now_s, Lane& lane, const ListedSight* listed);
  void advanceTracks(const World& world, const Entity& self, PerceptionState& st,
                     double now_s, Lane& lane);
  void updateAttention(const Entity& self, PerceptionState& st, Lane& lane);
  void emit(Lane& lane, SignalId id, EntityId receiver, EntityId subject, Vec3 position,
            float value);

  PerceptionConfig config_;
  VisibilityRegistry visibility_;
  SignalNames signal_names_;
  ObstacleIndex obstacles_;
  bool obstacles_dirty_ = true;
  size_t indexed_obstacles_ = 0;  // World::obstacles().size() at the last rebuild
  StealthMeter stealth_;

  std::vector<Sound> pending_sounds_;
  std::vector<SignalRequest> pending_signals_;

  // Per-tick scratch, sized once and reused.
  TargetGrid target_grid_;
  std::vector<TargetItem> targets_;
  std::vector<Vec3> target_eyes_;
  std::vector<RosterEntry> roster_;         // by perceiver index
  std::vector<uint32_t> perceiver_of_row_;  // entity row → index in perceivers, or kNoPerceiver
  PerceiverIndex by_key_;                   // perceivers by group, species and place
  std::vector<uint32_t> receivers_;
  std::vector<std::unique_ptr<Lane>> lanes_;  // [0]: the tick thread's; one per worker
  std::vector<uint32_t> due_;       // pool path: perceivers due this tick, in visiting order
  std::vector<ListedSight> due_sight_;  // pool path with a ray budget: each one's sight lines
  float max_hearing_scale_ = 0.f;
  bool single_species_ = false;  // every perceiver has species only_species_
  SpeciesId only_species_{0};
  size_t cursor_ = 0;

  PerceptionStats last_;
  PerceptionStats totals_;
};

}  // namespace npc
