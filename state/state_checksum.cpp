#include "state_checksum.h"

#include <bit>

#include "sim/sim_state_access.h"
#include "world/world.h"

namespace npc {

namespace {

class Mix {
 public:
  void add(uint64_t word) {
    h_ ^= word + 0x9E3779B97F4A7C15ull + (h_ << 6) + (h_ >> 2);
    h_ *= 0xBF58476D1CE4E5B9ull;
  }
  void add(float v) { add(static_cast<uint64_t>(std::bit_cast<uint32_t>(v))); }
  void add(double v) { add(std::bit_cast<uint64_t>(v)); }
  void add(Vec3 v) {
    add(v.x);
    add(v.y);
    add(v.z);
  }
  void add(const Entity& e) {
    add(raw(e.id));
    add(e.position);
    add(e.forward);
    add(static_cast<uint64_t>(raw(e.place)));
  }
  void add(const BstAgentState& bst, uint8_t behavior_def) {
    add(bst.values.words[0]);
    add(bst.values.words[1]);
    add(static_cast<uint64_t>(raw(bst.behavior)) << 8 | behavior_def);
  }
  void add(const Inventory& inventory) {
    for (uint8_t slot = 0; slot < inventory.size(); ++slot) {
      add(static_cast<uint64_t>(raw(inventory.itemAt(slot))) << 32 |
          static_cast<uint32_t>(inventory.countAt(slot)));
    }
  }
  void add(const LongActionRun& run) {
    add(static_cast<uint64_t>(run.action) << 32 | run.turns_done);
    add(run.started_s);
  }
  uint64_t value() const { return h_ ^ (h_ >> 31); }

 private:
  uint64_t h_ = 0x243F6A8885A308D3ull;
};

}  // namespace

uint64_t stateChecksum(Simulation& sim) {
  const SimStateAccess access(sim);
  const World& world = access.world();
  Mix mix;
  mix.add(access.tick());
  for (const Agent& agent : access.agents()) {
    if (const Entity* body = world.entities().get(agent.entity)) mix.add(*body);
    mix.add(agent.rng.state());
    mix.add(agent.bst, agent.behavior_def);
    mix.add(agent.inventory);
    mix.add(agent.work);
    for (const TargetTrack& track : agent.perception.activeTracks()) {
      mix.add(raw(track.target));
      mix.add(track.coefficient);
    }
    mix.add(raw(agent.perception.attention.target));
  }
  for (const SleeperList& sleepers : access.dormant()) {
    for (const DormantAgent& d : sleepers) {
      mix.add(d.body);
      mix.add(d.rng_state);
      mix.add(d.bst, d.behavior_def);
      mix.add(d.inventory);
      mix.add(d.work);
    }
  }
  return mix.value();
}

}  // namespace npc
