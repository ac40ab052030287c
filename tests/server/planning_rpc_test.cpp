// SetPlannerValue and GetPlanTrace over real gRPC (fixture: grpc_fixture.h): the planner
// monitor as a game studio's tools would read it, and facts / blackboard values set by the
// game changing what an agent plans.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

// A lamplighter lights the lamp when it is dark (a blackboard value the game sets).
constexpr const char* kLampDomain = R"({
  "domain": "lamp",
  "facts": [ { "name": "lamp_on", "type": "bool" }, { "name": "has_match", "type": "bool" } ],
  "blackboard": { "dark": "bool" },
  "actions": [
    { "name": "StrikeMatch", "pre": [ { "fact": "has_match", "value": false } ],
      "effects": [ { "fact": "has_match", "set": true } ], "cost": 1 },
    { "name": "LightLamp", "pre": [ { "fact": "has_match", "value": true } ],
      "effects": [ { "fact": "lamp_on", "set": true } ], "cost": 1 }
  ],
  "goals": [ { "name": "Lit", "priority": 1, "desired": [ { "fact": "lamp_on", "value": true } ],
               "relevant": [ { "blackboard": "dark", "value": true } ] } ]
})";

ServerSetup lampSetup() {
  ServerSetup setup;
  Archetype lighter = setup.archetypes.at(*setup.archetypes.find("statue"));
  lighter.name = "lighter";
  lighter.behaviors = {behaviorDef("default", BehaviorMode::kPlan)};
  lighter.behavior = "default";
  PlannerDef planner;
  planner.name = planner.domain = "lamp";
  planner.blackboard = {{"dark", 1.0}};
  lighter.planners.push_back(planner);
  setup.archetypes.add(lighter);
  setup.planner_domains = {{"lamp.json", kLampDomain}};
  return setup;
}

grpc::Status setValue(Admin& admin, uint64_t agent, const std::string& name, const std::string& value,
                      bool blackboard, const std::string& planner = {}) {
  v1::SetPlannerValueRequest r;
  r.set_agent(agent);
  r.set_name(name);
  r.set_value(value);
  r.set_blackboard(blackboard);
  r.set_planner(planner);
  return admin.call(&v1::NpcSim::Stub::SetPlannerValue, r);
}

grpc::Status trace(Admin& admin, uint64_t agent, std::optional<bool> on, nlohmann::json* out,
                   v1::GetPlanTraceResponse* typed = nullptr, const std::string& planner = {}) {
  v1::GetPlanTraceRequest r;
  r.set_agent(agent);
  r.set_planner(planner);
  if (on) r.set_trace(*on);
  v1::GetPlanTraceResponse reply;
  grpc::Status s = admin.call(&v1::NpcSim::Stub::GetPlanTrace, r, &reply);
  if (s.ok() && out) *out = nlohmann::json::parse(reply.json());
  if (typed) *typed = reply;
  return s;
}

}  // namespace

TEST_CASE("GetPlanTrace and SetPlannerValue reach an agent's planner", "[grpc][planning]") {
  TestServer server(lampSetup());
  Admin admin(server.channel());
  REQUIRE(admin.spawn(1, "lighter", v1::ENTITY_KIND_NPC).ok());
  REQUIRE(admin.spawn(2, "statue", v1::ENTITY_KIND_NPC).ok());
  nlohmann::json j;
  REQUIRE(eventually([&] {
    return trace(admin, 1, std::nullopt, &j).ok() && j["planner"]["phase"] == "executing";
  }));
  CHECK(j["planner"]["goal"] == "Lit");
  CHECK(j["planner"]["plan"]["steps"][0]["action"] == "StrikeMatch");
  CHECK(j["planner"]["plan"]["steps"][1]["action"] == "LightLamp");
  CHECK(j["trace"].is_null());  // nothing traced yet
  // GetAgent shows the same planner view.
  CHECK(admin.view(1)["planner"]["domain"] == "lamp");

  SECTION("Should trace the next search once tracing is on") {
    REQUIRE(trace(admin, 1, true, &j).ok());
    CHECK(j["traced"] == true);
    // Daylight: the goal is no longer relevant and the plan stops; dark again: it replans.
    REQUIRE(setValue(admin, 1, "dark", "false", true).ok());
    REQUIRE(eventually([&] { return trace(admin, 1, std::nullopt, &j).ok() && j["planner"]["phase"] == "idle"; }));
    REQUIRE(setValue(admin, 1, "dark", "true", true).ok());
    REQUIRE(eventually([&] { return trace(admin, 1, std::nullopt, &j).ok() && j["trace"].is_object(); }));
    CHECK_FALSE(j["trace"]["expansions"].empty());
    CHECK(j["trace"]["result"]["status"] == "found");
    CHECK(j["trace"]["result"]["goal"] == "Lit");

    // The typed fields of the same reply say the same.
    v1::GetPlanTraceResponse typed;
    REQUIRE(trace(admin, 1, std::nullopt, &j, &typed).ok());
    CHECK(typed.agent() == 1);
    CHECK(typed.traced());
    CHECK(typed.planner().domain() == "lamp");
    CHECK(typed.planner().goal() == j["planner"]["goal"].get<std::string>());
    REQUIRE(typed.has_trace());
    const v1::PlanSearchView& search = typed.trace();
    CHECK(search.domain() == "lamp");
    CHECK(search.goals_size() == static_cast<int>(j["trace"]["goals"].size()));
    CHECK(search.result().status() == "found");
    CHECK(search.result().goal() == "Lit");
    CHECK(search.generated() == j["trace"]["result"]["generated"].get<uint64_t>());
    REQUIRE(search.result().steps_size() == 2);
    CHECK(search.result().steps(0).action() == "StrikeMatch");
    CHECK(search.result().steps(1).action() == "LightLamp");
    REQUIRE(search.expansions_size() == static_cast<int>(j["trace"]["expansions"].size()));
    for (int i = 0; i < search.expansions_size(); ++i) {
      const nlohmann::json& e = j["trace"]["expansions"][static_cast<size_t>(i)];
      const v1::PlanExpansion& x = search.expansions(i);
      CHECK(x.node() == e["node"].get<uint32_t>());
      CHECK(x.has_parent() == e.contains("parent"));
      CHECK(x.g() == e["g"].get<float>());
      CHECK(x.via() == e.value("via", ""));
      CHECK(x.children_size() == static_cast<int>(e["children"].size()));
      CHECK(x.rejected_size() == static_cast<int>(e["rejected"].size()));
      CHECK(x.open_conditions_size() == static_cast<int>(e["open_conditions"].size()));
    }
    CHECK_FALSE(search.expansions(0).has_parent());  // the start node
  }

  SECTION("Should plan from a fact the game set") {
    REQUIRE(setValue(admin, 1, "dark", "false", true).ok());
    REQUIRE(eventually([&] { return trace(admin, 1, std::nullopt, &j).ok() && j["planner"]["phase"] == "idle"; }));
    REQUIRE(setValue(admin, 1, "has_match", "true", false).ok());
    REQUIRE(setValue(admin, 1, "dark", "true", true).ok());
    REQUIRE(eventually([&] {
      return trace(admin, 1, std::nullopt, &j).ok() && j["planner"]["phase"] == "executing" &&
             j["planner"]["plan"]["steps"].size() == 1;
    }));
    CHECK(j["planner"]["plan"]["steps"][0]["action"] == "LightLamp");
    CHECK_THAT(j["planner"]["facts"].get<std::string>(), Catch::Contains("has_match=true"));
  }

  SECTION("Should name what is wrong") {
    grpc::Status s = setValue(admin, 1, "colour", "red", false);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "name/value: domain \"lamp\" has no fact \"colour\" taking \"red\"");
    s = setValue(admin, 1, "dark", "maybe", true);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "value: \"maybe\" is not true, false or a number");
    s = setValue(admin, 1, "sunny", "true", true);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    s = setValue(admin, 2, "dark", "true", true);
    CHECK(s.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
    CHECK(s.error_message() == "entity 2: has no planner");
    s = trace(admin, 999, std::nullopt, nullptr);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    s = setValue(admin, 0, "", "", false);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "agent: must not be 0; name: must be set");
  }

  SECTION("Should name the planner an agent does not have") {
    // The lighter's one planner is named after its domain.
    CHECK(setValue(admin, 1, "has_match", "true", false, "lamp").ok());
    CHECK(trace(admin, 1, std::nullopt, &j, nullptr, "lamp").ok());
    CHECK(j["planner"]["name"] == "lamp");
    grpc::Status s = setValue(admin, 1, "has_match", "true", false, "helm");
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "planner: archetype \"lighter\" has no planner \"helm\"");
    s = trace(admin, 1, std::nullopt, nullptr, nullptr, "helm");
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    s = setValue(admin, 1, "has_match", "true", false, std::string(300, 'p'));
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "planner: must be at most 256 bytes (got 300)");
    s = trace(admin, 1, std::nullopt, nullptr, nullptr, std::string(300, 'p'));
    CHECK(s.error_message() == "planner: must be at most 256 bytes (got 300)");
  }
}
