// Raoul in the demo world (config/demo.json, tree config/behavior_trees/RaoulDay.xml): with
// the daemon playing the game's part (DemoGame), he lives seed 004's examples by himself —
// picks the meadow's flowers (Take inside the daemon), fails to reach the cliff's (Go too
// steep, then Take out of reach), and bakes: opens the door, mixes, shapes, carries breads
// to the oven, waits 10 minutes and tells Gertrude. The daemon's perception tuning is the
// demo's (config/npcd.json registers flowers as a neutral visibility type), so Take checks
// Raoul's memory: he takes only flowers he has seen.
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "demo/demo_game.h"
#include "demo_world.h"

using namespace npc;

namespace {

constexpr EntityId kRaoul{1601}, kGertrude{1602}, kMeadowFlowers{2101}, kCliffFlowers{2102},
    kDoor{2103}, kOven{2105};

// The demo world run once, until Raoul's day is over; everything Raoul and Gertrude did kept.
struct RaoulDemo {
  struct Sent {
    std::string name;
    IntentionId intention;
    EntityId entity;  // its first entity parameter
    double time_s;
  };
  std::vector<Sent> actions;     // Raoul's client-side actions, in order
  std::vector<EventOut> events;  // Raoul's intention events and Gertrude's behavior changes
  std::string raoul_view;        // GetAgent at the end
  bool meadow_flowers_in_world = true;
  bool cliff_flowers_in_world = false;
  bool saw_meadow_flowers = false;  // in his visibility list before they were taken
  // blind: Raoul's vision is switched off before his day starts.
  explicit RaoulDemo(bool blind = false) {
    std::vector<std::string> problems;
    const SimConfig config = test::demoSimConfig(problems);
    REQUIRE(problems.empty());
    test::DemoWorld demo_world(config);
    Simulation& sim = *demo_world.sim;
    const WorldFile& world = demo_world.world;
    DemoGame demo(world.players);
    std::vector<Command> pending;
    if (blind) {
      SetSensors eyes_shut;
      eyes_shut.agent = kRaoul;
      eyes_shut.vision = false;
      eyes_shut.reply = [](const Status& s) { REQUIRE(s.isOk()); };
      REQUIRE(sim.submit({ClientId{1}, 0, eyes_shut}));
    }
    // About 650 s of his day; a margin, and stop once he told Gertrude.
    for (int t = 0; t < 8000 && !toldGertrude(); ++t) {
      sim.tick();
      record(sim);
      noteMeadowFlowersSeen(sim);
      demo.step(sim, pending);
      REQUIRE(sim.submit(pending));
    }
    for (int t = 0; t < 5; ++t) {  // Gertrude hears it on a later tick
      sim.tick();
      record(sim);
    }
    REQUIRE(sim.describeAgent(kRaoul, raoul_view).isOk());
    meadow_flowers_in_world = sim.world().entities().get(kMeadowFlowers) != nullptr;
    cliff_flowers_in_world = sim.world().entities().get(kCliffFlowers) != nullptr;
  }

  void record(const Simulation& sim) {
    for (const ActionOut& a : sim.output().actions) {
      if (a.agent != kRaoul) continue;
      EntityId entity = EntityId::kNone;
      for (uint8_t i = 0; i < a.param_count && entity == EntityId::kNone; ++i) {
        if (a.params[i].type == ActionParam::Type::kEntity) entity = a.params[i].entity;
      }
      actions.push_back({sim.names().name(a.name), a.intention, entity, sim.timeS()});
    }
    for (const EventOut& e : sim.output().events) {
      if (e.agent == kRaoul || (e.agent == kGertrude && e.kind == EventKind::kBehavior)) {
        events.push_back(e);
      }
    }
  }

  void noteMeadowFlowersSeen(const Simulation& sim) {
    if (saw_meadow_flowers || !sim.world().entities().get(kMeadowFlowers)) return;
    std::string view;
    REQUIRE(sim.describeAgent(kRaoul, view).isOk());
    const nlohmann::json perception = nlohmann::json::parse(view).at("perception");
    for (const nlohmann::json& t : perception.at("visible")) {
      saw_meadow_flowers = saw_meadow_flowers || t.at("target") == raw(kMeadowFlowers);
    }
    // Neutral: seen, yet never what he attends to.
    if (!perception.at("attention").is_null()) {
      REQUIRE(perception.at("attention").at("target") != raw(kMeadowFlowers));
    }
  }

  bool toldGertrude() const { return completedWithSubject(kGertrude).has_value(); }

  // The first completed intention of Raoul's whose event names `subject`.
  std::optional<EventOut> completedWithSubject(EntityId subject) const {
    for (const EventOut& e : events) {
      if (e.kind == EventKind::kIntentionCompleted && e.subject == subject) return e;
    }
    return std::nullopt;
  }
  std::vector<EventOut> failures() const {
    std::vector<EventOut> out;
    for (const EventOut& e : events) {
      if (e.kind == EventKind::kIntentionFailed) out.push_back(e);
    }
    return out;
  }
  std::vector<std::string> actionNames() const {
    std::vector<std::string> out;
    for (const Sent& s : actions) out.push_back(s.name);
    return out;
  }
  const Sent* sent(const std::string& name, EntityId entity) const {
    for (const Sent& s : actions) {
      if (s.name == name && s.entity == entity) return &s;
    }
    return nullptr;
  }
  std::optional<EventOut> completion(IntentionId id) const {
    for (const EventOut& e : events) {
      if (e.kind == EventKind::kIntentionCompleted && e.intention == id) return e;
    }
    return std::nullopt;
  }
};

const RaoulDemo& demo() {
  static const RaoulDemo run;  // one run (about 6,500 ticks) serves every section
  return run;
}

}  // namespace

TEST_CASE("Raoul lives seed 004's examples by himself in the demo world", "[sim][demo][raoul]") {
  const RaoulDemo& d = demo();

  SECTION("Should pick the meadow's flowers: walked there by the game, taken by the daemon") {
    const nlohmann::json raoul = nlohmann::json::parse(d.raoul_view);
    REQUIRE(raoul.at("inventory") == nlohmann::json{{"key", 1}, {"flowers", 1}});
    REQUIRE_FALSE(d.meadow_flowers_in_world);  // gone from the place
    REQUIRE(d.completedWithSubject(kMeadowFlowers));  // Take's event names the flowers
    REQUIRE(d.actions.at(0).name == "Go");
    REQUIRE(d.actions.at(0).entity == kMeadowFlowers);
    REQUIRE(d.saw_meadow_flowers);  // what Take's memory check found
  }
  SECTION("Should fail both actions on the cliff's flowers, each with its reason") {
    const std::vector<EventOut> failed = d.failures();
    REQUIRE(failed.size() == 2);
    REQUIRE(failed[0].intention == d.actions.at(1).intention);  // Go to the cliff
    REQUIRE(d.actions.at(1).entity == kCliffFlowers);
    REQUIRE(failed[0].text == "agent 1601: intention " + std::to_string(raw(failed[0].intention)) +
                                  " \"Go\" failed: the game reported failure: too steep to climb");
    REQUIRE(failed[1].subject == kCliffFlowers);  // then Take
    REQUIRE(failed[1].text.find("\"Take\" failed: the action failed (out_of_reach)") !=
            std::string::npos);
    REQUIRE(d.cliff_flowers_in_world);
  }
  SECTION("Should bake with the seed's actions in order, the game playing its part") {
    REQUIRE(d.actionNames() == std::vector<std::string>{"Go", "Go", "Go", "Open", "Cooking/Mix",
                                                        "Cooking/Setup", "Move", "Go"});
    REQUIRE(d.sent("Go", kDoor));
    REQUIRE(d.sent("Open", kDoor));
    REQUIRE(d.sent("Move", kOven));
  }
  SECTION("Should wait 10 minutes inside the daemon before going to Gertrude") {
    const RaoulDemo::Sent* to_oven = d.sent("Move", kOven);
    const RaoulDemo::Sent* to_gertrude = d.sent("Go", kGertrude);
    REQUIRE(to_oven);
    REQUIRE(to_gertrude);
    REQUIRE(d.completion(to_oven->intention));
    // Carrying the breads to the oven takes a few seconds, then the Wait: 600 s.
    const double between = to_gertrude->time_s - to_oven->time_s;
    REQUIRE(between > 600.0);
    REQUIRE(between < 620.0);
  }
  SECTION("Should tell Gertrude the breads are ready: her selection tree hears it") {
    REQUIRE(d.toldGertrude());
    bool fetching = false;
    for (const EventOut& e : d.events) {
      fetching = fetching || (e.agent == kGertrude && e.text == "Idle -> FetchBread");
    }
    REQUIRE(fetching);
  }
}

TEST_CASE("Raoul takes only flowers he remembers: with his eyes shut, Take fails",
          "[sim][demo][raoul]") {
  // Seed 004: "the flowers he remembers; not seen, the action fails". The game still walks
  // him there (Go completes), but the daemon's Take finds no memory of them.
  const RaoulDemo blind(true);
  const nlohmann::json raoul = nlohmann::json::parse(blind.raoul_view);
  REQUIRE(raoul.at("inventory") == nlohmann::json{{"key", 1}});
  REQUIRE(blind.meadow_flowers_in_world);
  REQUIRE_FALSE(blind.saw_meadow_flowers);
  const std::vector<EventOut> failed = blind.failures();
  REQUIRE_FALSE(failed.empty());
  REQUIRE(failed[0].subject == kMeadowFlowers);
  REQUIRE(failed[0].text.find("\"Take\" failed: the action failed (not_seen)") != std::string::npos);
}
