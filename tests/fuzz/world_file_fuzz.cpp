// World files (config/demo.json, core/sim/world_file.h): parsed, then applied to a
// Simulation with the demo's archetypes and ticked, as npcd starts.
#include <string>
#include <vector>

#include "json_fuzz_input.h"
#include "sim/simulation.h"
#include "sim/world_file.h"

namespace {

const npc::ArchetypeSet& demoArchetypes() {
  static const npc::ArchetypeSet set = [] {
    npc::ArchetypeSet s;
    std::vector<std::string> errors;
    s.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors);
    return s;
  }();
  return set;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  npc::WorldFile world;
  std::vector<std::string> errors;
  if (!npc::parseWorldFile("fuzz.json", std::string(npc::fuzz::inputText(data, size)), world,
                           errors)) {
    return 0;
  }
  npc::Simulation sim(npc::SimConfig{}, npc::ArchetypeSet(demoArchetypes()));
  if (!npc::applyWorldFile(world, sim, errors)) return 0;
  for (int t = 0; t < 3; ++t) sim.tick();
  return 0;
}
