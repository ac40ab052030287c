#include "mbt_codec.h"

#include "mbt/tree.h"

namespace npc {

void encodeMbt(const MbtInstance& instance, bool runs, pb::MbtState& out) {
  if (!runs || !instance.bound()) return;
  out.set_tree(instance.tree()->name());
  for (uint64_t word : instance.variables().words) out.add_variables(word);
  for (size_t i = 0; i < instance.tree()->timestamps().size(); ++i) {
    const MbtTimestamp& t = instance.timestamp(i);
    pb::MbtTimestampState& o = *out.add_timestamps();
    o.set_time_s(t.time_s);
    o.set_valid(t.valid);
    o.set_ever_set(t.ever_set);
  }
  out.set_stopped(instance.stopped());
}

void decodeMbt(const pb::MbtState& in, AgentRecord& out) {
  for (int i = 0; i < in.variables_size() && i < 2; ++i) out.mbt_variables.words[i] = in.variables(i);
  out.mbt_timestamps.clear();
  for (const pb::MbtTimestampState& t : in.timestamps()) {
    out.mbt_timestamps.push_back({t.time_s(), t.valid(), t.ever_set()});
  }
  out.mbt_stopped = in.stopped();
}

}  // namespace npc
