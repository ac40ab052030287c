#include "goap_codec.h"

namespace npc {

void encodeGoap(const PlannerMemory& m, pb::GoapState& out) {
  for (uint64_t word : m.facts.w) out.add_facts(word);
  for (int k = 0; k < goap::kMaxBlackboardKeys; ++k) {
    const auto key = static_cast<goap::BlackboardKeyId>(k);
    if (!m.blackboard.has(key)) continue;
    pb::BlackboardEntry& e = *out.add_blackboard();
    e.set_key(static_cast<uint32_t>(k));
    e.set_type(static_cast<uint32_t>(m.blackboard.rawType(key)));
    for (uint32_t word : m.blackboard.rawSlot(key)) e.add_value(word);
  }
  for (int i = 0; i < m.pacing.size(); ++i) {
    pb::PacingEntry& e = *out.add_pacing();
    e.set_tag(static_cast<uint32_t>(m.pacing.tagAt(i)));
    e.set_last_used_s(m.pacing.timeAt(i));
  }
}

PlannerMemory decodeGoap(const pb::GoapState& in) {
  PlannerMemory m;
  for (int i = 0; i < in.facts_size() && i < goap::kStateWords; ++i) m.facts.w[i] = in.facts(i);
  for (const pb::BlackboardEntry& e : in.blackboard()) {
    if (e.key() >= static_cast<uint32_t>(goap::kMaxBlackboardKeys)) continue;
    goap::Blackboard::Slot slot{};
    for (int i = 0; i < e.value_size() && i < 3; ++i) slot[static_cast<size_t>(i)] = e.value(i);
    m.blackboard.restoreRaw(static_cast<goap::BlackboardKeyId>(e.key()),
                            static_cast<goap::BlackboardType>(e.type()), slot);
  }
  for (const pb::PacingEntry& e : in.pacing()) {
    m.pacing.record(static_cast<goap::PacingTagId>(e.tag()), e.last_used_s());
  }
  return m;
}

}  // namespace npc
