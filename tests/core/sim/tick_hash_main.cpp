// npcd_tick_hash: runs the demo world or a generated scale world with the daemon's stand-in
// game for a number of ticks and prints one line per tick, "<tick> <hash of its output>",
// so that runs in separate processes (with different tick.threads) can be compared line by
// line (tick_hash_compare.sh, registered with ctest).
//
//   npcd_tick_hash demo <ticks> <threads>
//   npcd_tick_hash scale:<agents> <ticks> <threads>
//   npcd_tick_hash scale-lod:<agents> <ticks> <threads>   (tick.lod on: near_m 40, period 4)
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "demo/demo_game.h"
#include "demo_definitions.h"
#include "sim/scale_world.h"
#include "tick_hash.h"

using namespace npc;

namespace {

int usage(const char* why) {
  return test::usageError("npcd_tick_hash", "demo|scale:<agents>|scale-lod:<agents>", why);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return usage("needs 3 arguments");
  const std::string_view world_name = argv[1];
  uint32_t ticks = 0, threads = 0, agents = 0;
  if (!test::parseCount(argv[2], ticks)) return usage("<ticks> must be a whole number");
  if (!test::parseCount(argv[3], threads) || threads == 0) {
    return usage("<threads> must be at least 1");
  }
  const bool lod = world_name.starts_with("scale-lod:");
  const bool scale = lod || world_name.starts_with("scale:");
  if (!scale && world_name != "demo") return usage("the world is demo or scale:<agents>");
  const std::string_view count = world_name.substr(world_name.find(':') + 1);
  if (scale && (!test::parseCount(count, agents) || agents == 0)) {
    return usage("scale:<agents> needs a positive count");
  }

  SimConfig config;
  config.threads = threads;
  config.detail.enabled = lod;
  config.detail.near_m = 40.f;
  config.detail.far_period_ticks = 4;
  WorldFile world;
  std::vector<std::string> problems;
  if (scale) {
    ScaleWorldSpec spec;
    spec.agents = agents;
    world = makeScaleWorld(spec);
    config.hibernation.enabled = false;  // every agent awake
    config.max_agents = agents;
    config.max_queued_commands = 4 * static_cast<size_t>(agents) + 10000;
  } else {
    loadWorldFile(NPCD_SOURCE_DIR "/config/demo.json", world, problems);
  }
  auto sim = test::makeDemoSimulation(config, problems);
  if (sim) applyWorldFile(world, *sim, problems);
  if (!sim || !problems.empty()) {
    for (const std::string& p : problems) std::fprintf(stderr, "npcd_tick_hash: %s\n", p.c_str());
    return 1;
  }
  DemoGame game(world.players);
  std::vector<Command> commands;
  for (uint32_t t = 0; t < ticks; ++t) {
    sim->tick();
    test::Fnv fnv;
    test::hashTickOutput(*sim, fnv);
    std::printf("%llu %016llx\n", static_cast<unsigned long long>(sim->tickCount()),
                static_cast<unsigned long long>(fnv.h));
    game.step(*sim, commands);
    if (!sim->submit(commands)) {
      std::fprintf(stderr, "npcd_tick_hash: the command queue is full at tick %u\n", t + 1);
      return 1;
    }
  }
  return 0;
}
