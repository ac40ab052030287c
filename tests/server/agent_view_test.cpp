// GetAgent's and GetPlanTrace's typed fields (server/agent_view.h) against the JSON views
// they are read from: on hand-made views (missing and null keys) and on every agent of the
// running demo daemon.
#include <fstream>

#include <catch2/catch.hpp>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "agent_view.h"
#include "daemon.h"
#include "daemon_test_support.h"
#include "npc/v1/npc.grpc.pb.h"

using namespace npc;
using nlohmann::json;

namespace {

void checkVec(const json& j, const v1::Vec3& v) {
  REQUIRE(j.is_array());
  CHECK(v.x() == j[0].get<float>());
  CHECK(v.y() == j[1].get<float>());
  CHECK(v.z() == j[2].get<float>());
}

void checkPlanner(const json& p, const v1::PlannerView& view) {
  CHECK(view.name() == p.at("name").get<std::string>());
  CHECK(view.domain() == p.at("domain").get<std::string>());
  CHECK(view.phase() == p.at("phase").get<std::string>());
  CHECK(view.facts() == p.at("facts").get<std::string>());
  REQUIRE(static_cast<size_t>(view.plan().steps_size()) == p.at("plan").at("steps").size());
  for (int i = 0; i < view.plan().steps_size(); ++i) {
    CHECK(view.plan().steps(i).action() == p["plan"]["steps"][static_cast<size_t>(i)].at("action").get<std::string>());
  }
}

// Every typed field of `view` equals what the JSON view says (or is empty where it is
// absent), key by key.
void checkMatches(const json& j, const v1::AgentView& view) {
  INFO(j.dump(1));
  CHECK(view.id() == j.at("id").get<uint64_t>());
  CHECK(view.archetype() == j.at("archetype").get<std::string>());
  CHECK(view.group() == j.at("group").get<std::string>());
  CHECK(view.group_number() == j.at("group_number").get<uint32_t>());
  CHECK(!view.group().empty());
  CHECK(view.asleep() == j.at("asleep").get<bool>());
  CHECK(view.place() == (j.at("place").is_null() ? "" : j.at("place").get<std::string>()));
  checkVec(j.at("position"), view.position());
  CHECK(view.tick() == j.at("tick").get<uint64_t>());
  const json& sel = j.at("selection");
  CHECK(view.selection().behavior() == sel.at("behavior").get<std::string>());
  CHECK(static_cast<size_t>(view.selection().variables_size()) == sel.at("variables").size());
  for (const auto& [name, value] : sel.at("variables").items()) {
    CHECK(view.selection().variables().at(name) == value.get<bool>());
  }
  REQUIRE(static_cast<size_t>(view.selection().path_size()) == sel.at("path").size());
  for (size_t i = 0; i < sel.at("path").size(); ++i) {
    CHECK(view.selection().path(static_cast<int>(i)).at() == sel["path"][i].at("at").get<std::string>());
  }
  CHECK(static_cast<size_t>(view.inventory_size()) == j.at("inventory").size());
  for (const auto& [item, count] : j.at("inventory").items()) {
    CHECK(view.inventory().at(item) == count.get<int64_t>());
  }
  if (view.asleep()) {
    CHECK(view.asleep_for_s() == j.at("asleep_for_s").get<double>());
    return;
  }
  CHECK(view.kind() == v1::ENTITY_KIND_NPC);
  CHECK(view.species() == j.at("species").get<std::string>());
  CHECK(view.owner() == j.at("owner").get<uint64_t>());
  checkVec(j.at("forward"), view.forward());
  checkVec(j.at("home"), view.home());
  CHECK(view.behavior().name() == j.at("behavior").at("name").get<std::string>());
  CHECK(view.behavior().tree() == j["behavior"].value("tree", ""));
  CHECK(view.behavior().mode() == j["behavior"].value("mode", ""));
  const json& perception = j.at("perception");
  CHECK(view.has_attention() == !perception.at("attention").is_null());
  if (view.has_attention()) {
    CHECK(view.attention().target() == perception["attention"].at("target").get<uint64_t>());
    CHECK(view.attention().kind() == perception["attention"].at("class").get<std::string>());
  }
  REQUIRE(static_cast<size_t>(view.visible_size()) == perception.at("visible").size());
  REQUIRE(static_cast<size_t>(view.memory_size()) == perception.at("memory").size());
  for (int i = 0; i < view.visible_size(); ++i) {
    CHECK(view.visible(i).target() == perception["visible"][i].at("target").get<uint64_t>());
  }
  const json& queue = j.at("intentions").at("queue");
  CHECK(view.current_intention() == (queue.at("current").is_null() ? 0 : queue["current"].get<uint64_t>()));
  REQUIRE(static_cast<size_t>(view.intentions_size()) == queue.at("intentions").size());
  for (int i = 0; i < view.intentions_size(); ++i) {
    const json& in = queue["intentions"][static_cast<size_t>(i)];
    CHECK(view.intentions(i).id() == in.at("id").get<uint64_t>());
    CHECK(view.intentions(i).action() == in.at("action").get<std::string>());
    CHECK(view.intentions(i).phase() == in.at("phase").get<std::string>());
    CHECK(view.intentions(i).depends_on() ==
          (in.at("depends_on").is_null() ? 0 : in.at("depends_on").get<uint64_t>()));
  }
  CHECK(view.has_planner() == j.contains("planner"));
  if (view.has_planner()) checkPlanner(j["planner"], view.planner());
  REQUIRE(static_cast<size_t>(view.planners_size()) == (j.contains("planners") ? j["planners"].size() : 0));
  for (int i = 0; i < view.planners_size(); ++i) checkPlanner(j["planners"][static_cast<size_t>(i)], view.planners(i));
  CHECK(view.long_action() == (j.at("work").is_null() ? "" : j["work"].at("action").get<std::string>()));
  CHECK(view.actions_completed() == j.at("actions_completed").get<uint64_t>());
  CHECK(view.actions_failed() == j.at("actions_failed").get<uint64_t>());
}

}  // namespace

TEST_CASE("The typed agent view leaves out what the JSON view leaves out", "[grpc][agent_view]") {
  SECTION("Should read a sleeping agent's short view") {
    const json sleeping = {{"id", 1501}, {"archetype", "pyromaniac"}, {"group", "pyromaniac"},
                           {"group_number", 3}, {"asleep", true},
                           {"place", "guard_post"}, {"asleep_for_s", 3.5},
                           {"position", {5.0, 52.0, 0.0}}, {"work", nullptr},
                           {"inventory", {{"torch", 1}}}, {"tick", 40},
                           {"selection", {{"tree", "Grunt"}, {"behavior", "GruntIdle"},
                                          {"leaf", "Idle"}, {"variables", {{"AwareOfEnemy", false}}},
                                          {"path", json::array()}}}};
    v1::AgentView view;
    toAgentView(sleeping, view);
    checkMatches(sleeping, view);
    CHECK_FALSE(view.has_attention());
    CHECK_FALSE(view.has_planner());
    CHECK(view.kind() == v1::ENTITY_KIND_UNSPECIFIED);
  }
  SECTION("Should leave fields empty for nulls, wrong types and text that is not JSON") {
    const json odd = {{"id", 7}, {"place", nullptr}, {"position", {1, "two", 3}},
                      {"perception", {{"attention", nullptr}}}, {"inventory", {{"key", "one"}}}};
    v1::AgentView view;
    toAgentView(odd, view);
    CHECK(view.id() == 7);
    CHECK(view.place().empty());
    CHECK_FALSE(view.has_position());
    CHECK_FALSE(view.has_attention());
    CHECK(view.inventory().at("key") == 0);
    v1::GetAgentResponse reply;
    addTypedView("not json", reply);
    CHECK_FALSE(reply.has_agent());
  }
}

TEST_CASE("GetAgent's typed fields agree with its JSON view for every demo agent",
          "[grpc][agent_view][daemon]") {
  Daemon daemon(test::demoDaemonConfig());
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  // Long enough for Raoul's day to take him somewhere and the planners to plan.
  REQUIRE(test::waitFor([&] { return daemon.stats().load().sim.actions_emitted >= 10; }));
  auto stub = v1::NpcSim::NewStub(grpc::CreateChannel(
      "127.0.0.1:" + std::to_string(daemon.port()), grpc::InsecureChannelCredentials()));
  std::ifstream in(NPCD_SOURCE_DIR "/config/demo.json");
  const json world = json::parse(in);
  size_t agents = 0, with_planner = 0, with_planners = 0;
  for (const json& e : world.at("entities")) {
    if (e.at("kind") != "npc") continue;
    grpc::ClientContext ctx;
    v1::GetAgentRequest req;
    req.set_id(e.at("id").get<uint64_t>());
    v1::GetAgentResponse reply;
    REQUIRE(stub->GetAgent(&ctx, req, &reply).ok());
    REQUIRE(reply.has_agent());
    checkMatches(json::parse(reply.json()), reply.agent());
    ++agents;
    with_planner += reply.agent().has_planner();
    with_planners += reply.agent().planners_size() > 0;
  }
  CHECK(agents == 16);
  CHECK(with_planner >= 2);   // the raider's and the skirmisher's (the pyromaniac may sleep)
  CHECK(with_planners == 1);  // the skirmisher's two
  daemon.shutdown();
}
