// The influences file (config/actions/influences.json, InfluenceSet in
// core/agent/archetype.h), then handed to a Simulation as the daemon does.
#include "agent/archetype.h"
#include "json_fuzz_input.h"
#include "sim/simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::InfluenceSet set;
  if (!npc::fuzz::loadInput(data, size, "actions/fuzz.json", set)) return 0;
  npc::Simulation sim(npc::SimConfig{}, npc::ArchetypeSet{});
  sim.setInfluences(set);
  sim.tick();
  return 0;
}
