// The stream path: WorldUpdates from two clients, converted as the Connect handler does
// (server/proto_convert), submitted to a Simulation running the demo world with its
// stand-in game, one tick after each update, then both clients vanish. Input format and
// mutations: world_update_mutator.h.
//
// One world keeps running across inputs, as the daemon's does across clients: building the
// demo world (trees, planner domains, 29 entities) cost more than most inputs' ticks. Each
// input comes from two new clients; when they are gone, what they created (entities,
// obstacles) is removed by the daemon, so the next input finds the demo world again, give
// or take what its agents perceived and did. Every kInputsPerWorld inputs the world is
// built afresh, which bounds that drift. An input that fails only after earlier ones
// replays with them: run the target over the corpus (README.md "Reproducing").
#include <algorithm>
#include <cstdlib>
#include <memory>
#include <string>
#include <variant>
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
// NPCD_FUZZ_INPUTS_PER_WORLD overrides it (1: a fresh world for every input).
constexpr uint32_t kInputsPerWorld = 256;

// The demo's definitions, read once; each world is built from them.
struct DemoDefinitions {
  npc::ArchetypeSet archetypes;
  npc::WorldFile world;
  std::vector<npc::SourceFile> behavior_trees;
  std::vector<npc::SourceFile> selection_trees;
  std::vector<std::pair<std::string, std::string>> goap_domains;

  DemoDefinitions() {
    std::vector<std::string> errors;
    archetypes.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors);
    npc::loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, errors);
    behavior_trees = npc::readSourceDir(NPCD_SOURCE_DIR "/config/behavior_trees", ".xml").files;
    selection_trees = npc::readSourceDir(NPCD_SOURCE_DIR "/config/selection_trees", ".xml").files;
    for (npc::SourceFile& f : npc::readSourceDir(NPCD_SOURCE_DIR "/config/goap", ".json").files) {
      goap_domains.emplace_back(std::move(f.name), std::move(f.text));
    }
    if (!errors.empty()) __builtin_trap();  // the shipped demo must load
  }

  std::unique_ptr<npc::Simulation> build() const {
    auto sim = std::make_unique<npc::Simulation>(npc::SimConfig{}, npc::ArchetypeSet(archetypes));
    std::vector<std::string> errors;
    const bool ok = sim->loadBehaviorTrees(behavior_trees).ok() &&
                    sim->loadPlannerDomains(goap_domains).ok() &&
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

uint32_t inputsPerWorld() {
  static const uint32_t n = [] {
    const char* text = std::getenv("NPCD_FUZZ_INPUTS_PER_WORLD");
    const long v = text ? std::strtol(text, nullptr, 10) : 0;
    return v > 0 ? static_cast<uint32_t>(v) : kInputsPerWorld;
  }();
  return n;
}

// The world inputs share, and the demo's own ids (never cleaned up).
struct RunningWorld {
  std::unique_ptr<npc::Simulation> sim;
  std::unique_ptr<npc::DemoGame> game;
  uint32_t inputs = 0;       // since the world was built
  uint32_t next_client = 1;  // ClientIds of the next input's two clients

  npc::Simulation& next() {
    if (!sim || inputs >= inputsPerWorld()) {
      sim = demo().build();
      game = std::make_unique<npc::DemoGame>(demo().world.players);
      inputs = 0;
      next_client = 1;
    }
    ++inputs;
    return *sim;
  }
};

bool demoEntity(npc::EntityId id) {
  const npc::WorldFile& w = demo().world;
  return std::any_of(w.entities.begin(), w.entities.end(),
                     [&](const auto& e) { return e.id == id; }) ||
         std::any_of(w.players.begin(), w.players.end(),
                     [&](const auto& p) { return p.id == id; });
}

bool demoObstacle(npc::ObstacleId id) {
  const auto& obstacles = demo().world.obstacles;
  return std::any_of(obstacles.begin(), obstacles.end(), [&](const auto& o) { return o.id == id; });
}

// What an input created, for the daemon to remove once its clients are gone.
struct Created {
  std::vector<npc::EntityId> entities;
  std::vector<npc::ObstacleId> obstacles;

  void note(const std::vector<npc::Command>& commands) {
    for (const npc::Command& c : commands) {
      if (const auto* u = std::get_if<npc::UpsertEntity>(&c.body)) {
        if (!demoEntity(u->state.id)) entities.push_back(u->state.id);
      } else if (const auto* o = std::get_if<npc::UpsertObstacle>(&c.body)) {
        if (!demoObstacle(o->obstacle.id)) obstacles.push_back(o->obstacle.id);
      }
    }
  }
  std::vector<npc::Command> removals() {
    std::sort(entities.begin(), entities.end());
    entities.erase(std::unique(entities.begin(), entities.end()), entities.end());
    std::sort(obstacles.begin(), obstacles.end());
    obstacles.erase(std::unique(obstacles.begin(), obstacles.end()), obstacles.end());
    std::vector<npc::Command> out;
    for (npc::EntityId id : entities) {
      out.push_back({npc::ClientId::kDaemon, 0, npc::RemoveEntity{id}});
    }
    for (npc::ObstacleId id : obstacles) {
      out.push_back({npc::ClientId::kDaemon, 0, npc::RemoveObstacle{id}});
    }
    return out;
  }
};

RunningWorld& world() {
  static RunningWorld running;
  return running;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::vector<npc::v1::WorldUpdate> updates = npc::fuzz::decodeUpdates(data, size);
  if (updates.empty()) return 0;
  RunningWorld& w = world();
  npc::Simulation& sim = w.next();
  const auto first = static_cast<npc::ClientId>(w.next_client);
  const auto second = static_cast<npc::ClientId>(w.next_client + 1);
  w.next_client += 2;
  Created created;
  std::vector<npc::Command> commands;
  for (const npc::v1::WorldUpdate& update : updates) {
    const npc::ClientId client = update.seq() & 1 ? second : first;
    npc::ConvertedUpdate converted = npc::convertUpdate(update, client, kMaxItemsPerUpdate);
    created.note(converted.commands);
    sim.submit(converted.commands);
    w.game->step(sim, commands);
    sim.submit(commands);
    commands.clear();
    sim.tick();
  }
  // The first client vanishes mid-game: its agents live on, their actions go to others.
  sim.submit(npc::Command{first, 0, npc::ClientGone{}});
  for (int t = 0; t < 2; ++t) sim.tick();
  sim.submit(npc::Command{second, 0, npc::ClientGone{}});
  std::vector<npc::Command> removals = created.removals();
  sim.submit(removals);
  sim.tick();
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
