// Variety and pacing: a cost modifier from how recently this agent (or its group) executed
// an action, decaying over time. Replaces the random cost component the seed warns about:
// the modifier is a pure function of (tag, last-use times, now), fixed for the whole search,
// so one action on one state always costs the same within a search, and the same history
// gives the same choice on every run.
//
//   modifier = agent_penalty · 2^(−(now − t_agent)/half_life) + group_penalty · 2^(−(now − t_group)/half_life)
//
// where t_* is the last time the tag was recorded in that memory (no record ⇒ term 0).
// Actions name a pacing tag (several actions may share one, e.g. "melee"); executing a step
// records its tag (PlanRunner::onStepSucceeded) and goals may end with a pacing action
// ("end_with") whose "records" list tags explicitly.
//
// Memory: a PacingMemory is a fixed inline LRU of kSlots (tag, time) pairs, 8 + 16·kSlots
// bytes, no heap; the oldest record is dropped when full. One per agent, one per group.
#pragma once

#include <array>
#include <cstdint>

#include "goap/goap_types.h"

namespace npc::goap {

struct PacingSpec {
  PacingTagId tag = PacingTagId::kNone;
  float agent_penalty = 0.f;  // cost added right after this agent used the tag [≥ 0]
  float group_penalty = 0.f;  // cost added right after anyone in the group used it [≥ 0]
  float half_life_s = 10.f;   // [> 0]
};

class PacingMemory {
 public:
  static constexpr int kSlots = 8;

  // Records that `tag` was used at `now_s` (replaces an older record of the same tag).
  void record(PacingTagId tag, double now_s);
  // Last time `tag` was recorded, or false when it never was (or was evicted).
  bool lastUsed(PacingTagId tag, double& out_s) const;
  void clear() { count_ = 0; }
  int size() const { return count_; }
  // Snapshots: the i-th record (i < size()); record() in this order rebuilds the memory.
  PacingTagId tagAt(int i) const { return entries_[static_cast<size_t>(i)].tag; }
  double timeAt(int i) const { return entries_[static_cast<size_t>(i)].time_s; }

 private:
  struct Entry {
    double time_s = 0.0;
    PacingTagId tag = PacingTagId::kNone;
  };
  std::array<Entry, kSlots> entries_{};
  int count_ = 0;
};

// The modifier above; either memory may be null.
float pacingCost(const PacingSpec& spec, const PacingMemory* agent, const PacingMemory* group,
                 double now_s);

}  // namespace npc::goap
