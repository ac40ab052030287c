#include "mbt_codec.h"

#include "mbt/tree.h"

namespace npc {

namespace {

void encodeLuaTable(const LuaSaved& table, pb::LuaTable& out);

void encodeLuaValue(const LuaSaved& v, pb::LuaValue& out) {
  switch (v.kind) {
    case LuaSaved::Kind::kBoolean: out.set_boolean(v.boolean); break;
    case LuaSaved::Kind::kInteger: out.set_integer(v.integer); break;
    case LuaSaved::Kind::kNumber: out.set_number(v.number); break;
    case LuaSaved::Kind::kText: out.set_text(v.text); break;
    case LuaSaved::Kind::kTable: encodeLuaTable(v, *out.mutable_table()); break;
  }
}

void encodeLuaTable(const LuaSaved& table, pb::LuaTable& out) {
  for (size_t i = 0; i < table.keys.size(); ++i) {
    pb::LuaField& field = *out.add_fields();
    encodeLuaValue(table.keys[i], *field.mutable_key());
    encodeLuaValue(table.values[i], *field.mutable_value());
  }
}

// Protobuf's parser bounds the nesting (100 messages), so the recursion is bounded too.
// A field without a value (an empty oneof) is dropped, as Lua drops a nil.
bool decodeLuaValue(const pb::LuaValue& in, LuaSaved& out);

LuaSaved decodeLuaTable(const pb::LuaTable& in) {
  LuaSaved table;
  for (const pb::LuaField& field : in.fields()) {
    LuaSaved key, value;
    if (!decodeLuaValue(field.key(), key) || key.kind == LuaSaved::Kind::kTable) continue;
    if (!decodeLuaValue(field.value(), value)) continue;
    table.keys.push_back(std::move(key));
    table.values.push_back(std::move(value));
  }
  return table;
}

bool decodeLuaValue(const pb::LuaValue& in, LuaSaved& out) {
  switch (in.value_case()) {
    case pb::LuaValue::kBoolean: out = LuaSaved::ofBoolean(in.boolean()); return true;
    case pb::LuaValue::kInteger: out = LuaSaved::ofInteger(in.integer()); return true;
    case pb::LuaValue::kNumber: out = LuaSaved::ofNumber(in.number()); return true;
    case pb::LuaValue::kText: out = LuaSaved::ofText(in.text()); return true;
    case pb::LuaValue::kTable: out = decodeLuaTable(in.table()); return true;
    case pb::LuaValue::VALUE_NOT_SET: return false;
  }
  return false;
}

}  // namespace

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
  if (row.lua != AgentCopy::kNone) encodeLua(copy.lua[row.lua], *out.mutable_lua());
}

void encodeLua(const LuaEnvImage& in, pb::MbtLuaState& out) {
  encodeLuaTable(in.globals, *out.mutable_globals());
  encodeLuaTable(in.entity, *out.mutable_entity());
  out.set_left_out(in.left_out);
}

std::optional<LuaEnvImage> decodeLua(const pb::MbtLuaState& in) {
  LuaEnvImage lua;
  lua.globals = decodeLuaTable(in.globals());
  lua.entity = decodeLuaTable(in.entity());
  lua.left_out = in.left_out();
  if (lua.empty()) return std::nullopt;
  return lua;
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
  out.mbt_lua = in.has_lua() ? decodeLua(in.lua()) : std::nullopt;
}

}  // namespace npc
