#include <cmath>
#include <limits>
#include <optional>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

SimConfig config() {
  SimConfig c;
  c.tick_dt_s = 0.1;
  c.seed = 42;
  return c;
}

double param(const ActionOut& a, const Simulation& sim, const char* name) {
  for (uint8_t i = 0; i < a.param_count; ++i) {
    if (sim.names().name(a.params[i].name) == name) return a.params[i].number;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

TEST_CASE("Agents spawn from client upserts and act", "[sim]") {
  Simulation sim(config(), testArchetypes());
  sim.submit(upsert(100, EntityKind::kNpc, {10, 10, 0}, "villager"));
  sim.tick();

  SECTION("Should announce the new agent and send its first action to the owning client") {
    REQUIRE(eventsOf(sim.output(), EventKind::kAgentSpawned).size() == 1);
    const ActionOut* a = findAction(sim.output(), 100);
    REQUIRE(a);
    REQUIRE(a->owner == ClientId{7});
    REQUIRE(a->intention != IntentionId::kNone);
    REQUIRE(sim.names().name(a->name) == "MoveTo");
    REQUIRE(a->params[0].type == ActionParam::Type::kPosition);
    REQUIRE(length(a->params[0].position - Vec3{10, 10, 0}) <= 5.f + 1e-4f);
    REQUIRE(param(*a, sim, "speed") == Approx(1.4));
  }
  SECTION("Should wait for the game's result before acting again, then greet a near player") {
    const IntentionId first = findAction(sim.output(), 100)->intention;
    sim.submit(upsert(1, EntityKind::kPlayer, {12, 10, 0}));
    sim.tick();
    REQUIRE(findAction(sim.output(), 100) == nullptr);  // still busy with MoveTo
    sim.submit(result(100, first, ActionOutcome::kCompleted));
    sim.tick();
    REQUIRE(eventsOf(sim.output(), EventKind::kIntentionCompleted).size() == 1);
    const ActionOut* greet = findAction(sim.output(), 100);
    REQUIRE(greet);
    REQUIRE(sim.names().name(greet->name) == "Greet");
    REQUIRE(greet->params[0].type == ActionParam::Type::kEntity);
    REQUIRE(greet->params[0].entity == EntityId{1});
    REQUIRE(param(*greet, sim, "duration") == Approx(1.0));
  }
  SECTION("Should not notice a player beyond the notice radius") {
    const IntentionId first = findAction(sim.output(), 100)->intention;
    sim.submit(upsert(1, EntityKind::kPlayer, {30, 10, 0}));
    sim.submit(result(100, first, ActionOutcome::kCompleted));
    sim.tick();
    std::string json;
    REQUIRE(sim.describeAgent(EntityId{100}, json).isOk());
    REQUIRE(nlohmann::json::parse(json)["noticed"].is_null());
  }
  SECTION("Should fail an action the game never reports on, then pick a new one") {
    const IntentionId first = findAction(sim.output(), 100)->intention;
    bool failed = false, acted_again = false;
    for (int i = 0; i < 60 && !acted_again; ++i) {
      sim.tick();
      failed = failed || !eventsOf(sim.output(), EventKind::kIntentionFailed).empty();
      const ActionOut* a = findAction(sim.output(), 100);
      acted_again = a && a->intention != first;
    }
    REQUIRE(failed);
    REQUIRE(acted_again);
    REQUIRE(sim.stats().actions_failed == 1);
  }
  SECTION("Should keep an action alive while the game reports progress, then time it out") {
    const IntentionId first = findAction(sim.output(), 100)->intention;
    bool failed = false;
    for (int i = 1; i <= 100; ++i) {  // 10 s of progress reports every 2 s (timeout 3 s)
      if (i % 20 == 0) {
        Command c = result(100, first, ActionOutcome::kProgress);
        std::get<ActionResult>(c.body).progress = 0.01f * static_cast<float>(i);
        sim.submit(c);
      }
      sim.tick();
      failed = failed || !eventsOf(sim.output(), EventKind::kIntentionFailed).empty();
    }
    REQUIRE_FALSE(failed);
    for (int i = 0; i < 40 && !failed; ++i) {  // silence: fails within the 3 s timeout
      sim.tick();
      failed = !eventsOf(sim.output(), EventKind::kIntentionFailed).empty();
    }
    REQUIRE(failed);
  }
  SECTION("Should route actions of a departed client's agents to nobody in particular") {
    sim.submit({ClientId{7}, 0, ClientGone{}});
    sim.submit(result(100, findAction(sim.output(), 100)->intention, ActionOutcome::kFailed));
    sim.tick();
    for (int i = 0; i < 20 && !findAction(sim.output(), 100); ++i) sim.tick();
    REQUIRE(findAction(sim.output(), 100));
    REQUIRE(findAction(sim.output(), 100)->owner == ClientId::kUnowned);
  }
}

TEST_CASE("Bad commands get a clear error and disturb nothing else", "[sim][errors]") {
  Simulation sim(config(), testArchetypes());
  sim.submit(upsert(100, EntityKind::kNpc, {0, 0, 0}, "villager"));
  sim.tick();
  const IntentionId running = findAction(sim.output(), 100)->intention;

  auto errorsAfter = [&](std::vector<Command> commands) {
    sim.submit(commands);
    sim.tick();
    return eventsOf(sim.output(), EventKind::kError);
  };

  SECTION("Should refuse a NaN position, naming entity and field, and apply the rest") {
    Command bad = upsert(5, EntityKind::kPlayer, {std::nanf(""), 0, 0}, {}, ClientId{9}, 77);
    auto errors = errorsAfter({bad, upsert(6, EntityKind::kPlayer, {1, 1, 0})});
    REQUIRE(errors.size() == 1);
    REQUIRE(errors[0].text == "entity 5: position must be finite");
    REQUIRE(errors[0].to == ClientId{9});
    REQUIRE(errors[0].seq == 77);
    REQUIRE(sim.world().entities().get(EntityId{5}) == nullptr);
    REQUIRE(sim.world().entities().get(EntityId{6}) != nullptr);
  }
  SECTION("Should refuse infinite velocity and a zero forward vector") {
    EntityState s;
    s.id = EntityId{100};
    s.kind = EntityKind::kNpc;
    s.velocity = Vec3{std::numeric_limits<float>::infinity(), 0, 0};
    EntityState t = s;
    t.velocity.reset();
    t.forward = Vec3{};
    auto errors = errorsAfter({{ClientId{7}, 1, UpsertEntity{s}}, {ClientId{7}, 2, UpsertEntity{t}}});
    REQUIRE(errors.size() == 2);
    REQUIRE(errors[0].text == "entity 100: velocity must be finite");
    REQUIRE(errors[1].text == "entity 100: forward must be a finite, non-zero direction");
  }
  SECTION("Should refuse an unknown archetype, an unknown place and a kind change") {
    EntityState placed;
    placed.id = EntityId{8};
    placed.kind = EntityKind::kObject;
    placed.position = Vec3{};
    placed.place = "moon";
    auto errors = errorsAfter({upsert(7, EntityKind::kNpc, {0, 0, 0}, "dragon"),
                               {ClientId{7}, 0, UpsertEntity{placed}},
                               upsert(100, EntityKind::kPlayer, {0, 0, 0})});
    REQUIRE(errors.size() == 3);
    REQUIRE(errors[0].text == "entity 7: archetype \"dragon\" is unknown");
    REQUIRE(errors[1].text == "entity 8: place \"moon\" is unknown");
    REQUIRE(errors[2].text == "entity 100: kind cannot change from npc to player");
  }
  SECTION("Should refuse results for unknown agents and for intentions not running") {
    auto errors = errorsAfter({result(999, running, ActionOutcome::kCompleted),
                               result(100, static_cast<IntentionId>(raw(running) + 1000), ActionOutcome::kCompleted)});
    REQUIRE(errors.size() == 2);
    REQUIRE(errors[0].text == "action result: entity 999 is not an agent");
    REQUIRE(errors[1].text == "action result: agent 100: intention " +
                                  std::to_string(raw(running) + 1000) +
                                  ": not in the agent's queue");
    // The real intention is untouched.
    std::string json;
    sim.describeAgent(EntityId{100}, json);
    REQUIRE(nlohmann::json::parse(json)["intentions"]["queue"]["current"] == raw(running));
  }
  SECTION("Should refuse progress outside 0..1") {
    Command c = result(100, running, ActionOutcome::kProgress);
    std::get<ActionResult>(c.body).progress = 1.5f;
    auto errors = errorsAfter({c});
    REQUIRE(errors.size() == 1);
    REQUIRE(errors[0].text == "action result: agent 100: intention " +
                                  std::to_string(raw(running)) + ": progress must be within 0..1");
  }
  SECTION("Should answer admin spawns and despawns with a status") {
    std::vector<Status> replies;
    EntityState s;
    s.id = EntityId{100};
    s.kind = EntityKind::kNpc;
    s.position = Vec3{};
    s.archetype = "villager";
    sim.submit({ClientId::kDaemon, 0, SpawnAgent{s, [&](const Status& st) { replies.push_back(st); }}});
    sim.submit({ClientId::kDaemon, 0, DespawnAgent{EntityId{555}, [&](const Status& st) { replies.push_back(st); }}});
    sim.submit({ClientId::kDaemon, 0, DespawnAgent{EntityId{100}, [&](const Status& st) { replies.push_back(st); }}});
    sim.tick();
    REQUIRE(replies.size() == 3);
    REQUIRE(replies[0].code() == StatusCode::kAlreadyExists);
    REQUIRE(replies[0].message() == "entity 100: already exists");
    REQUIRE(replies[1].code() == StatusCode::kNotFound);
    REQUIRE(replies[2].isOk());
    REQUIRE(eventsOf(sim.output(), EventKind::kAgentDespawned).size() == 1);
    REQUIRE(sim.stats().agents == 0);
  }
}

TEST_CASE("Simulation bounds its command queue", "[sim]") {
  SimConfig c = config();
  c.max_queued_commands = 3;
  Simulation sim(c, testArchetypes());
  REQUIRE(sim.submit(upsert(1, EntityKind::kPlayer, {0, 0, 0})));
  std::vector<Command> batch{upsert(2, EntityKind::kPlayer, {0, 0, 0}),
                             upsert(3, EntityKind::kPlayer, {0, 0, 0}),
                             upsert(4, EntityKind::kPlayer, {0, 0, 0})};
  REQUIRE_FALSE(sim.submit(batch));
  REQUIRE(batch.size() == 3);  // refused whole, nothing taken
  REQUIRE(sim.queuedCommands() == 1);
  sim.tick();
  REQUIRE(sim.queuedCommands() == 0);
  REQUIRE(sim.submit(batch));
}

TEST_CASE("Simulation advances time by a fixed step and describes agents", "[sim]") {
  Simulation sim(config(), testArchetypes());
  for (int i = 0; i < 25; ++i) sim.tick();
  REQUIRE(sim.tickCount() == 25);
  REQUIRE(sim.timeS() == Approx(2.5));
  sim.submit(upsert(100, EntityKind::kNpc, {1, 2, 3}, "statue"));
  sim.tick();
  std::string json;
  REQUIRE(sim.describeAgent(EntityId{100}, json).isOk());
  auto j = nlohmann::json::parse(json);
  REQUIRE(j["id"] == 100);
  REQUIRE(j["archetype"] == "statue");
  REQUIRE(j["species"] == "human");
  REQUIRE(j["position"] == nlohmann::json::array({1.0, 2.0, 3.0}));
  REQUIRE(j["action"].is_null());  // a statue neither wanders nor notices
  REQUIRE(sim.describeAgent(EntityId{5}, json).code() == StatusCode::kNotFound);
}

TEST_CASE("A sound or signal of radius 1e30 m reaches every listener and the tick ends",
          "[sim][bounds]") {
  // The spatial queries are bounded by construction: whatever reaches the core (the edges
  // refuse such radii), one sound costs one pass over the entities, not its area.
  Simulation sim(config(), testArchetypes());
  int listeners = 0;
  for (int i = 0; i < 200; ++i) {
    sim.submit(upsert(100 + i, EntityKind::kNpc, {50.f * (i % 20), 50.f * (i / 20), 0.f}, "villager"));
    ++listeners;
  }
  sim.submit(upsert(999, EntityKind::kNpc, {90000.f, -90000.f, 0.f}, "villager"));
  ++listeners;
  sim.tick();

  SECTION("Should let every hearing agent hear a 1e30 m sound") {
    SoundEvent sound;
    sound.position = {0.f, 0.f, 0.f};
    sound.radius_m = 1e30f;
    sound.kind = "gunshot";
    sim.submit({ClientId{1}, 0, sound});
    sim.tick();
    REQUIRE(sim.perception().lastTick().sounds_heard == static_cast<uint64_t>(listeners));
  }
  SECTION("Should deliver a 1e30 m signal to every agent") {
    SignalEvent signal;
    signal.name = "OnAlarm";
    signal.position = {0.f, 0.f, 0.f};
    signal.radius_m = 1e30f;
    sim.submit({ClientId{1}, 0, signal});
    sim.tick();
    REQUIRE(sim.perception().lastTick().signals_sent == static_cast<uint64_t>(listeners));
  }
}

namespace {

// Ticks until a standing player 12 m in front of a watcher is fully noticed (stealth 10),
// after SetPerceptionTuning with `som_speed`; -1 if not within 300 ticks.
int ticksToNotice(std::optional<float> som_speed, Status* reply_status = nullptr) {
  ArchetypeSet set;
  Archetype watcher;
  watcher.name = "watcher";
  watcher.species = "human";
  watcher.sensors.sight_range_m = 30.f;
  set.add(watcher);
  SimConfig config;
  config.derive_footsteps = false;
  Simulation sim(config, std::move(set));
  SetPerceptionTuning tuning;
  tuning.som_speed = som_speed;
  tuning.reply = [reply_status](const Status& s, const PerceptionTuning&) {
    if (reply_status) *reply_status = s;
  };
  sim.submit({ClientId{1}, 0, std::move(tuning)});
  sim.submit(test::upsert(10, EntityKind::kNpc, {0, 0, 0}, "watcher", ClientId{1}));
  sim.submit(test::upsert(1, EntityKind::kPlayer, {12, 0, 0}, "", ClientId{1}));
  for (int t = 0; t < 300; ++t) {
    sim.tick();
    for (const EventOut& e : sim.output().events) {
      if (e.kind == EventKind::kStealth && e.value >= 10.f) return t;
    }
  }
  return -1;
}

}  // namespace

TEST_CASE("Perception tuning changes live through SetPerceptionTuning", "[sim][perception]") {
  SECTION("Should notice players sooner with a higher som_speed (an easier game is slower)") {
    const int easy = ticksToNotice(1.2f);
    const int hard = ticksToNotice(4.f);
    REQUIRE(hard > 0);
    REQUIRE(easy > hard);
    REQUIRE(ticksToNotice(std::nullopt) < easy);  // the default, 1.5, is between the two
  }
  SECTION("Should refuse a value out of range, naming the field, and change nothing") {
    Status status;
    const int ticks = ticksToNotice(-1.f, &status);
    REQUIRE(status.code() == StatusCode::kInvalidArgument);
    REQUIRE(status.message() == "perception tuning: som_speed must be finite and > 0");
    REQUIRE(ticks == ticksToNotice(std::nullopt));
  }
}
