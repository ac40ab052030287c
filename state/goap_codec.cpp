#include "goap_codec.h"

#include <algorithm>

namespace npc {

void encodeGoap(const PlannerMemory& m, pb::GoapState& out) {
  for (uint64_t word : m.facts[0].w) out.add_facts(word);
  for (uint8_t i = 1; i < m.planners; ++i) {
    pb::PlannerFacts& facts = *out.add_other_planners();
    for (uint64_t word : m.facts[i].w) facts.add_facts(word);
  }
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
  m.planners = static_cast<uint8_t>(std::min<size_t>(1u + in.other_planners_size(), kMaxPlannersPerAgent));
  for (int i = 0; i < in.facts_size() && i < goap::kStateWords; ++i) m.facts[0].w[i] = in.facts(i);
  for (uint8_t p = 1; p < m.planners; ++p) {
    const pb::PlannerFacts& facts = in.other_planners(p - 1);
    for (int i = 0; i < facts.facts_size() && i < goap::kStateWords; ++i) m.facts[p].w[i] = facts.facts(i);
  }
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
