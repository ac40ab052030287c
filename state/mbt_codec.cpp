#include "mbt_codec.h"

#include "mbt/tree.h"

namespace npc {

void encodeMbt(const AgentCopy& row, const SimStateCopy& copy, pb::MbtState& out) {
  if (row.tree == AgentCopy::kNone) return;
  out.set_tree(copy.tree_names[row.tree]);
  for (uint64_t word : row.mbt_variables.words) out.add_variables(word);
  for (uint32_t i = 0; i < row.timestamps_count; ++i) {
    const MbtTimestamp& t = copy.timestamps[row.timestamps_begin + i];
    pb::MbtTimestampState& o = *out.add_timestamps();
    o.set_time_s(t.time_s);
    o.set_valid(t.valid);
    o.set_ever_set(t.ever_set);
  }
  out.set_stopped(row.mbt_stopped);
  pb::MbtRunState& run = *out.mutable_run();
  run.set_rng_state(row.mbt_rng_state);
  for (const Vec3& r : row.registers) {
    run.add_registers(r.x);
    run.add_registers(r.y);
    run.add_registers(r.z);
  }
  run.set_registers_set(row.registers_set);
  run.set_changed(row.changed);
  run.set_changed_before_tick(row.changed_before_tick);
  run.set_root_finishes(row.root_finishes);
  for (uint32_t i = 0; i < row.running_count; ++i) {
    const RunningNodeCopy& r = copy.running[row.running_begin + i];
    pb::MbtRunningNode& node = *run.add_running();
    node.set_slot(r.slot);
    node.set_node(r.node);
    node.set_data(copy.node_data.data() + r.data_begin, r.data_size);
  }
}

std::optional<MbtInstance::RunImage> decodeMbtRun(const pb::MbtState& in) {
  if (!in.has_run() || in.run().registers_size() != 6) return std::nullopt;
  const pb::MbtRunState& run = in.run();
  MbtInstance::RunImage image;
  image.rng_state = run.rng_state();
  for (int i = 0; i < 2; ++i) {
    image.registers[i] = {run.registers(3 * i), run.registers(3 * i + 1), run.registers(3 * i + 2)};
  }
  image.registers_set = static_cast<uint8_t>(run.registers_set());
  image.changed = run.changed();
  image.changed_before_tick = run.changed_before_tick();
  image.root_finishes = run.root_finishes();
  for (const pb::MbtRunningNode& node : run.running()) {
    if (node.slot() > 0xffff || node.node() > 0xffff) return std::nullopt;
    image.running.push_back({static_cast<uint16_t>(node.slot()),
                             static_cast<uint16_t>(node.node()), node.data()});
  }
  return image;
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
