// The stream path: WorldUpdates from two clients, converted as the Connect handler does
// (server/proto_convert), submitted to a Simulation running the demo world with its
// stand-in game, one tick after each update, then the first client vanishes. Input format
// and mutations: world_update_mutator.h. Each input starts from a fresh demo world.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "base/source_dir.h"
#include "demo/demo_game.h"
#include "proto_convert.h"
#include "sim/simulation.h"
#include "sim/world_file.h"
#include "world_update_mutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t max_size);

namespace {

constexpr size_t kMaxItemsPerUpdate = 256;  // the daemon's default max_items_per_update

// The demo's definitions, read once; every input gets its own Simulation built from them.
struct DemoDefinitions {
  npc::ArchetypeSet archetypes;
  npc::WorldFile world;
  std::vector<npc::SourceFile> behavior_trees;
  std::vector<npc::SourceFile> selection_trees;

  DemoDefinitions() {
    std::vector<std::string> errors;
    archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors);
    npc::loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, errors);
    behavior_trees = npc::readSourceDir(NPCD_SOURCE_DIR "/config/behavior_trees", ".xml").files;
    selection_trees = npc::readSourceDir(NPCD_SOURCE_DIR "/config/selection_trees", ".xml").files;
    if (!errors.empty()) __builtin_trap();  // the shipped demo must load
  }

  std::unique_ptr<npc::Simulation> build() const {
    auto sim = std::make_unique<npc::Simulation>(npc::SimConfig{}, npc::ArchetypeSet(archetypes));
    std::vector<std::string> errors;
    const bool ok = sim->loadBehaviorTrees(behavior_trees).ok() &&
                    sim->loadPlannerDomains(NPCD_SOURCE_DIR "/config/goap").ok() &&
                    sim->loadSelectionTrees(selection_trees).ok() &&
                    npc::applyWorldFile(world, *sim, errors);
    if (!ok) __builtin_trap();
    return sim;
  }
};

const DemoDefinitions& demo() {
  static const DemoDefinitions definitions;
  return definitions;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<npc::v1::WorldUpdate> updates = npc::fuzz::decodeUpdates(data, size);
  if (updates.empty()) return 0;
  std::unique_ptr<npc::Simulation> sim = demo().build();
  npc::DemoGame game(demo().world.players);
  std::vector<npc::Command> commands;
  for (const npc::v1::WorldUpdate& update : updates) {
    const auto client = static_cast<npc::ClientId>(1 + (update.seq() & 1));
    npc::ConvertedUpdate converted = npc::convertUpdate(update, client, kMaxItemsPerUpdate);
    sim->submit(converted.commands);
    game.step(*sim, commands);
    sim->submit(commands);
    commands.clear();
    sim->tick();
  }
  sim->submit(npc::Command{static_cast<npc::ClientId>(1), 0, npc::ClientGone{}});
  for (int t = 0; t < 3; ++t) sim->tick();
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  std::mt19937_64 rng(seed);
  if (rng() % 8 == 0) return LLVMFuzzerMutate(data, size, max_size);
  std::vector<npc::v1::WorldUpdate> updates = npc::fuzz::decodeUpdates(data, size);
  if (updates.empty() || (updates.size() < npc::fuzz::kMaxUpdatesPerInput && rng() % 6 == 0)) {
    npc::v1::WorldUpdate fresh;
    fresh.set_seq(updates.size() + 1 + (rng() & 1) * 1000);
    updates.push_back(std::move(fresh));
  } else if (updates.size() > 1 && rng() % 12 == 0) {
    updates.erase(updates.begin() + static_cast<long>(rng() % updates.size()));
  }
  npc::fuzz::mutateMessage(updates[rng() % updates.size()], rng);
  const std::string out = npc::fuzz::encodeUpdates(updates);
  if (out.size() > max_size) return size;
  std::copy(out.begin(), out.end(), data);
  return out.size();
}
