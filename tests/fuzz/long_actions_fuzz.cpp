// The long action file (config/long_actions.json, core/hibernation/long_action.h), then
// handed to a Simulation as the daemon does.
#include "hibernation/long_action.h"
#include "json_fuzz_input.h"
#include "sim/simulation.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::LongActionLibrary library;
  if (!npc::fuzz::loadInput(data, size, "long_actions.json", library)) return 0;
  npc::Simulation sim(npc::SimConfig{}, npc::ArchetypeSet{});
  sim.setLongActions(std::move(library));
  sim.tick();
  return 0;
}
