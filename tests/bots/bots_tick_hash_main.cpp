// npcd_bots_tick_hash: plays a bot scenario against a simulation in this process, with no
// network in between, and prints one line per tick, "<tick> <hash of its output>", like
// npcd_tick_hash, so that runs with different tick.threads, each in its own process, can
// be compared line by line (tests/core/sim/tick_hash_compare.sh, registered with ctest).
//
// Each tick, every client's game makes its frame (BotGame: players walking, footsteps,
// gunshots, fights, NPCs spawned and moved, results of the actions it performs), which is
// converted as the server converts a stream's WorldUpdate; the simulation ticks; then every
// action goes to the game of its owner and every daemon-failed intention to all games, as a
// client reads them. One frame per tick; the demo's archetypes, an empty world, hibernation
// off.
//
//   npcd_bots_tick_hash <scenario.json> <ticks> <threads>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "bot_game.h"
#include "demo_definitions.h"
#include "proto_convert.h"
#include "scenario.h"
#include "tick_hash.h"

using namespace npc;

namespace {

int usage(const char* why) {
  return test::usageError("npcd_bots_tick_hash", "<scenario.json>", why);
}

void report(const std::vector<std::string>& problems) {
  for (const std::string& p : problems) {
    std::fprintf(stderr, "npcd_bots_tick_hash: %s\n", p.c_str());
  }
}

// Client ids as the daemon would hand them out: the harness's client c is c + 1.
ClientId clientOf(uint32_t c) { return static_cast<ClientId>(c + 1); }

// A frame is converted whole here: splitting it (frame_split.h) changes nothing the tick sees.
constexpr size_t kMaxItems = 1'000'000;

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return usage("needs 3 arguments");
  uint32_t ticks = 0, threads = 0;
  if (!test::parseCount(argv[2], ticks)) return usage("<ticks> must be a whole number");
  if (!test::parseCount(argv[3], threads) || threads == 0) {
    return usage("<threads> must be at least 1");
  }
  bots::Scenario scenario;
  std::vector<std::string> problems;
  if (!bots::loadScenario(argv[1], scenario, problems)) {
    report(problems);
    return 1;
  }

  SimConfig config;
  config.threads = threads;
  config.hibernation.enabled = false;
  config.max_agents = scenario.totalNpcs() + 1;
  config.max_queued_commands = 8 * static_cast<size_t>(scenario.totalNpcs() +
                                                       scenario.totalPlayers()) + 10000;
  auto sim = test::makeDemoSimulation(config, problems);
  if (!sim || !problems.empty()) {
    report(problems);
    return 1;
  }
  std::vector<bots::BotGame> games;
  games.reserve(scenario.clients);
  for (uint32_t c = 0; c < scenario.clients; ++c) games.emplace_back(scenario, c);

  const double dt = config.tick_dt_s;
  ConvertedUpdate converted;
  v1::WorldUpdate update;
  v1::Action action;
  bots::FrameCounts sent;
  uint64_t actions_started = 0;
  for (uint32_t t = 0; t < ticks; ++t) {
    const double now = t * dt;
    for (uint32_t c = 0; c < scenario.clients; ++c) {
      update.Clear();
      bots::FrameCounts counts;
      games[c].frame(now, t == 0 ? 0.0 : dt, update, counts);
      sent += counts;
      update.set_seq(t + 1);
      convertUpdate(update, clientOf(c), kMaxItems, WorldBounds{}, converted);
      for (const std::string& e : converted.errors) {
        std::fprintf(stderr, "npcd_bots_tick_hash: tick %u, client %u: %s\n", t, c, e.c_str());
      }
      if (!converted.errors.empty()) return 1;
      if (!sim->submit(converted.commands)) {
        std::fprintf(stderr, "npcd_bots_tick_hash: the command queue is full at tick %u\n", t);
        return 1;
      }
    }
    sim->tick();
    test::Fnv fnv;
    test::hashTickOutput(*sim, fnv);
    std::printf("%llu %016llx\n", static_cast<unsigned long long>(sim->tickCount()),
                static_cast<unsigned long long>(fnv.h));
    // As a client reads a message: the daemon's own failures first, then the actions.
    const TickOutput& out = sim->output();
    for (const EventOut& e : out.events) {
      if (e.kind != EventKind::kIntentionFailed || e.agent == EntityId::kNone) continue;
      bots::ActionOrder ended;
      ended.agent = raw(e.agent);
      ended.ended_by_daemon = true;
      for (bots::BotGame& game : games) game.start(ended, now);
    }
    for (const ActionOut& a : out.actions) {
      const uint32_t owner = raw(a.owner);
      if (owner == 0 || owner > scenario.clients) continue;
      toProto(a, sim->names(), sim->world(), action);
      actions_started += games[owner - 1].start(bots::toOrder(action), now) ? 1 : 0;
    }
  }
  // On stderr, so that the hashes alone are compared: what the run exercised.
  std::fprintf(stderr,
               "npcd_bots_tick_hash: %u ticks, %llu items sent (%llu upserts, %llu sounds, "
               "%llu results), %llu actions performed\n",
               ticks, static_cast<unsigned long long>(sent.items()),
               static_cast<unsigned long long>(sent.upserts),
               static_cast<unsigned long long>(sent.sounds),
               static_cast<unsigned long long>(sent.completed + sent.failed + sent.progress),
               static_cast<unsigned long long>(actions_started));
  return 0;
}
