// Archetype files (config/archetypes/*.json, core/agent/archetype.h), then a Simulation
// built from whatever loaded, ticked once with one agent of each archetype.
#include "agent/archetype.h"
#include "json_fuzz_input.h"
#include "sim/simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::ArchetypeSet set;
  if (!npc::fuzz::loadInput(data, size, "archetypes/fuzz.json", set) || set.size() == 0) return 0;
  npc::Simulation sim(npc::SimConfig{}, std::move(set));
  const auto& types = sim.archetypes();
  for (uint16_t i = 0; i < types.size() && i < 16; ++i) {
    npc::EntityState agent;
    agent.id = npc::EntityId{100u + i};
    agent.kind = npc::EntityKind::kNpc;
    agent.position = npc::Vec3{static_cast<float>(i), 0.f, 0.f};
    agent.archetype = types.at(i).name;
    sim.submit({npc::ClientId::kDaemon, 0, npc::SpawnAgent{agent, nullptr}});
  }
  for (int t = 0; t < 3; ++t) sim.tick();
  return 0;
}
