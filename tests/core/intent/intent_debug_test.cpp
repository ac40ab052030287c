#include <memory>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "intent/intent_debug.h"
#include "intent_fixture.h"

using namespace npc;
using namespace npc::test;

TEST_CASE("describe shows the queue with states, progress and arguments", "[intent][debug]") {
  IntentFixture f;
  const ActionListId own = f.registry.createOwnList("Baker");
  const ActionListId spell = f.registry.createInfluence("spell:levitate", 10);
  f.registry.addTo(own, "Dig", std::make_unique<TimedAction>(4.f));
  f.registry.addTo(own, "MoveTo", std::make_unique<ClientAction>());
  f.agent.access.setOwn(own);
  f.registry.addInfluence(f.agent.access, spell);
  f.tree().program(0, f.name("Dig"),
                   std::vector{ActionArg::ofValue(4, f.name("s"), f.name("duration"))});
  f.tree().program(5, f.name("MoveTo"),
                   std::vector{ActionArg::ofEntity(EntityId{42}, ArgRole::kReceiver)});
  f.game().programGame(9, f.name("Dig"), {}, true);
  f.tick();

  const nlohmann::json j = describe(f.agent, f.registry, f.now);
  SECTION("Should name the agent's action lists") {
    REQUIRE(j["actions"]["own"] == "Baker");
    REQUIRE(j["actions"]["influences"][0]["name"] == "spell:levitate");
    REQUIRE(j["actions"]["influences"][0]["priority"] == 10);
  }
  SECTION("Should list intentions chronologically with phase and progress") {
    const nlohmann::json& q = j["queue"];
    REQUIRE(q["current"] == 1);
    REQUIRE(q["size"] == 3);
    REQUIRE(q["capacity"] == kMaxIntentions);
    REQUIRE(q["overflow"] == 0);
    const nlohmann::json& dig = q["intentions"][0];
    REQUIRE(dig["action"] == "Dig");
    REQUIRE(dig["phase"] == "running");
    REQUIRE(dig["progress"].get<double>() == Approx(0.25));
    REQUIRE(dig["side"] == "daemon");
    REQUIRE(dig["source"] == "Baker");
    REQUIRE(dig["started_s"] == 0.0);
    REQUIRE(dig["args"][0] ==
            nlohmann::json::parse(
                R"({"type":"value","role":"param","name":"duration","value":4.0,"unit":"s"})"));
    const nlohmann::json& move = q["intentions"][1];
    REQUIRE(move["phase"] == "pending");
    REQUIRE(move["started_s"].is_null());
    REQUIRE(move["args"][0]["entity"] == 42);
    REQUIRE(move["args"][0]["role"] == "receiver");
    REQUIRE_FALSE(move.contains("side"));
    REQUIRE(q["intentions"][2]["game"] == true);
    REQUIRE(q["intentions"][2]["coercive"] == true);
  }
  SECTION("Should show the time left before a client-side action times out") {
    f.tree().cancel(IntentionId{1});
    f.now = 5;
    f.tick();
    const nlohmann::json q = describe(f.agent.queue, f.registry, 10.0);
    REQUIRE(q["intentions"][0]["phase"] == "awaiting_client");
    REQUIRE(q["intentions"][0]["timeout_in_s"].get<double>() == Approx(25.0));
  }
}
