#include "goap/pacing.h"

#include <cmath>

namespace npc::goap {

void PacingMemory::record(PacingTagId tag, double now_s) {
  if (tag == PacingTagId::kNone) return;
  int at = -1;
  for (int i = 0; i < count_; ++i)
    if (entries_[i].tag == tag) at = i;
  if (at < 0) {
    if (count_ < kSlots) {
      at = count_++;
    } else {
      // Evict the oldest record; ties resolve to the lowest slot (deterministic).
      at = 0;
      for (int i = 1; i < count_; ++i)
        if (entries_[i].time_s < entries_[at].time_s) at = i;
    }
  }
  entries_[at] = {now_s, tag};
}

bool PacingMemory::lastUsed(PacingTagId tag, double& out_s) const {
  for (int i = 0; i < count_; ++i) {
    if (entries_[i].tag == tag) {
      out_s = entries_[i].time_s;
      return true;
    }
  }
  return false;
}

namespace {
float decayed(float penalty, const PacingMemory* memory, PacingTagId tag, double now_s,
              float half_life_s) {
  double t = 0.0;
  if (penalty <= 0.f || memory == nullptr || !memory->lastUsed(tag, t)) return 0.f;
  const double age = now_s > t ? now_s - t : 0.0;
  return static_cast<float>(penalty * std::exp2(-age / half_life_s));
}
}  // namespace

float pacingCost(const PacingSpec& spec, const PacingMemory* agent, const PacingMemory* group,
                 double now_s) {
  if (spec.tag == PacingTagId::kNone) return 0.f;
  return decayed(spec.agent_penalty, agent, spec.tag, now_s, spec.half_life_s) +
         decayed(spec.group_penalty, group, spec.tag, now_s, spec.half_life_s);
}

}  // namespace npc::goap
