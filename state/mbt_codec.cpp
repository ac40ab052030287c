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
  MbtInstance::RunImage image;
  instance.captureRun(image);
  pb::MbtRunState& run = *out.mutable_run();
  run.set_rng_state(image.rng_state);
  for (const Vec3& r : image.registers) {
    run.add_registers(r.x);
    run.add_registers(r.y);
    run.add_registers(r.z);
  }
  run.set_registers_set(image.registers_set);
  run.set_changed(image.changed);
  run.set_changed_before_tick(image.changed_before_tick);
  run.set_root_finishes(image.root_finishes);
  for (const MbtInstance::RunImage::Running& r : image.running) {
    pb::MbtRunningNode& node = *run.add_running();
    node.set_slot(r.slot);
    node.set_node(r.node);
    node.set_data(r.data);
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
