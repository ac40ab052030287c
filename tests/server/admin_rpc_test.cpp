// End-to-end tests of the admin RPCs that reach perception and selection trees (SendSignal,
// SetBehaviorVariable, SetSensors, SetPerceptionTuning, RegisterVisibilityType,
// SetAttributePrincipal, GetStealthMeter, ReloadDefinitions) over real gRPC on 127.0.0.1
// (fixture: grpc_fixture.h). Malformed requests are refused before anything is queued; the
// rest is answered by the tick thread with the core's message, mapped to a gRPC code by
// toGrpcStatus().
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

using Stub = v1::NpcSim::Stub;

// A sentry idles until "Alarm" is set, by SetBehaviorVariable or by the signal OnAlarm.
constexpr const char* kSentryTree = R"(<SelectionTree name="Sentry" type="BehaviorSelectionTree">
<Variables>
  <Variable name="Alarm"/>
</Variables>
<SignalVariables>
  <Signal name="OnAlarm" variable="Alarm" value="true"/>
</SignalVariables>
<Priority name="Root">
  <Leaf name="Alert" condition="Alarm"/>
  <Leaf name="Idle"/>
</Priority>
</SelectionTree>)";

// The fixture's archetypes plus "sentry" (a statue driven by the Sentry tree); the tree is
// loaded from memory unless the caller points selection_tree_dir somewhere.
ServerSetup sentrySetup() {
  ServerSetup setup;
  Archetype sentry = setup.archetypes.at(*setup.archetypes.find("statue"));
  sentry.name = "sentry";
  sentry.selection_tree = "Sentry";
  sentry.behavior.clear();
  sentry.behaviors = {behaviorDef("Idle", BehaviorMode::kIdle),
                      behaviorDef("Alert", BehaviorMode::kIdle)};
  setup.archetypes.add(sentry);
  setup.selection_trees = {{"Sentry.xml", kSentryTree}};
  return setup;
}

std::string selectedBehavior(Admin& admin, uint64_t agent) {
  const nlohmann::json view = admin.view(agent);
  return view.is_null() ? "" : view.at("selection").at("behavior").get<std::string>();
}

grpc::Status setVariable(Admin& admin, uint64_t agent, const std::string& name, bool value) {
  v1::SetBehaviorVariableRequest r;
  r.set_agent(agent);
  r.set_name(name);
  r.set_value(value);
  return admin.call(&Stub::SetBehaviorVariable, r);
}

grpc::Status sendSignal(Admin& admin, const v1::Signal& signal) {
  v1::SendSignalRequest r;
  *r.mutable_signal() = signal;
  return admin.call(&Stub::SendSignal, r);
}

grpc::Status registerType(Admin& admin, const std::string& type, bool remove) {
  v1::RegisterVisibilityTypeRequest r;
  r.set_type(type);
  r.set_remove(remove);
  return admin.call(&Stub::RegisterVisibilityType, r);
}

grpc::Status setPrincipal(Admin& admin, uint64_t attribute, uint64_t principal) {
  v1::SetAttributePrincipalRequest r;
  r.set_attribute(attribute);
  r.set_principal(principal);
  return admin.call(&Stub::SetAttributePrincipal, r);
}

grpc::Status stealthMeter(Admin& admin, uint64_t player, v1::GetStealthMeterResponse* reply) {
  v1::GetStealthMeterRequest r;
  r.set_player(player);
  return admin.call(&Stub::GetStealthMeter, r, reply);
}

grpc::Status reload(Admin& admin, v1::ReloadDefinitionsResponse* reply) {
  return admin.call(&Stub::ReloadDefinitions, v1::ReloadDefinitionsRequest(), reply);
}

// Upserts `update` through a stream and waits until the world holds `entities` entities.
void upsertAndWait(TestServer& server, StreamClient& client, v1::WorldUpdate update,
                   uint64_t entities) {
  Admin admin(server.channel());
  REQUIRE(client.waitWelcome() != 0);
  REQUIRE(client.send(update));
  v1::GetStatsResponse stats;
  REQUIRE(eventually([&] { return admin.stats(&stats).ok() && stats.entities() == entities; }));
}

// A directory of selection tree files that disappears with the test.
class TreeDir {
 public:
  TreeDir()
      : path_(std::filesystem::temp_directory_path() /
              ("npcd-admin-rpc-test-" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TreeDir() { std::filesystem::remove_all(path_); }
  void write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

}  // namespace

TEST_CASE("SetBehaviorVariable sets a variable of the agent's selection tree", "[grpc][admin]") {
  TestServer server(sentrySetup());
  Admin admin(server.channel());
  REQUIRE(admin.spawn(1, "sentry", v1::ENTITY_KIND_NPC).ok());
  REQUIRE(admin.spawn(2, "statue", v1::ENTITY_KIND_NPC).ok());
  REQUIRE(eventually([&] { return selectedBehavior(admin, 1) == "Idle"; }));

  SECTION("Should set the variable, and the tree should select what it now implies") {
    CHECK(setVariable(admin, 1, "alarm", true).ok());  // variable names are case-insensitive
    CHECK(eventually([&] { return selectedBehavior(admin, 1) == "Alert"; }));
  }

  SECTION("Should answer NOT_FOUND naming the variable and the tree") {
    grpc::Status s = setVariable(admin, 1, "Hungry", true);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "selection tree \"Sentry\" has no variable \"Hungry\"");
  }

  SECTION("Should answer FAILED_PRECONDITION for an agent without a selection tree") {
    grpc::Status s = setVariable(admin, 2, "Alarm", true);
    CHECK(s.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
    CHECK(s.error_message() == "entity 2 has no selection tree");
  }

  SECTION("Should answer NOT_FOUND for an unknown agent") {
    grpc::Status s = setVariable(admin, 999, "Alarm", true);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "entity 999: no such agent");
  }

  SECTION("Should refuse a request without agent or name before queuing it") {
    grpc::Status s = setVariable(admin, 0, "", true);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "agent: must not be 0; name: must be set");
  }
}

TEST_CASE("SetSensors switches an agent's senses at run time", "[grpc][admin]") {
  TestServer server;
  Admin admin(server.channel());
  REQUIRE(admin.spawn(1, "villager", v1::ENTITY_KIND_NPC).ok());
  v1::SetSensorsRequest r;
  r.set_agent(1);

  SECTION("Should change the senses given and keep the others") {
    r.set_vision(false);
    r.set_sight_range(20.f);
    r.set_fov_deg(90.f);
    r.set_hearing_scale(0.5f);

    REQUIRE(admin.call(&Stub::SetSensors, r).ok());

    const nlohmann::json sensors = admin.view(1).at("perception").at("sensors");
    CHECK(sensors.at("vision") == false);
    CHECK(sensors.at("hearing") == true);
    CHECK(sensors.at("signals") == true);
    CHECK(sensors.at("sight_range_m").get<double>() == Approx(20.0));
    CHECK(sensors.at("fov_deg").get<double>() == Approx(90.0));
    CHECK(sensors.at("hearing_scale").get<double>() == Approx(0.5));
  }

  SECTION("Should answer NOT_FOUND for an unknown agent") {
    r.set_agent(999);
    r.set_hearing(false);
    grpc::Status s = admin.call(&Stub::SetSensors, r);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "entity 999: no such agent");
  }

  SECTION("Should refuse a field of view outside (0, 360] before queuing it") {
    r.set_fov_deg(400.f);
    grpc::Status s = admin.call(&Stub::SetSensors, r);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "fov_deg: must be within (0, 360]");
  }
}

TEST_CASE("SendSignal reaches the agents its scope names", "[grpc][admin]") {
  TestServer server(sentrySetup());
  Admin admin(server.channel());
  REQUIRE(admin.spawn(1, "sentry", v1::ENTITY_KIND_NPC).ok());
  REQUIRE(eventually([&] { return selectedBehavior(admin, 1) == "Idle"; }));
  v1::Signal signal;
  signal.set_name("OnAlarm");

  SECTION("Should deliver to a known agent, whose tree then reacts") {
    signal.set_target(1);
    CHECK(sendSignal(admin, signal).ok());
    CHECK(eventually([&] { return selectedBehavior(admin, 1) == "Alert"; }));
  }

  SECTION("Should deliver to every agent of a place") {
    signal.set_place("square");
    CHECK(sendSignal(admin, signal).ok());
    CHECK(eventually([&] { return selectedBehavior(admin, 1) == "Alert"; }));
  }

  SECTION("Should deliver to every agent of a group named by its archetype") {
    signal.set_group_name("sentry");
    CHECK(sendSignal(admin, signal).ok());
    CHECK(eventually([&] { return selectedBehavior(admin, 1) == "Alert"; }));
  }

  SECTION("Should answer NOT_FOUND for an unknown group name") {
    signal.set_group_name("night_watch");
    grpc::Status s = sendSignal(admin, signal);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "signal OnAlarm: group \"night_watch\" is unknown");
  }

  SECTION("Should answer NOT_FOUND for an unknown target agent") {
    signal.set_target(999);
    grpc::Status s = sendSignal(admin, signal);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "signal OnAlarm: entity 999 is not an agent");
  }

  SECTION("Should answer NOT_FOUND for an unknown place") {
    signal.set_place("nowhere");
    grpc::Status s = sendSignal(admin, signal);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "signal OnAlarm: place \"nowhere\" is unknown");
  }

  SECTION("Should refuse a signal without receivers before queuing it") {
    grpc::Status s = sendSignal(admin, signal);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() ==
          "signal: one of target, place, species, group, group_name or radius must be set");
  }
}

TEST_CASE("RegisterVisibilityType registers and removes object types", "[grpc][admin]") {
  TestServer server;
  Admin admin(server.channel());

  SECTION("Should register a type, then remove it once") {
    CHECK(registerType(admin, "crate", false).ok());
    CHECK(registerType(admin, "crate", true).ok());
    grpc::Status again = registerType(admin, "crate", true);
    CHECK(again.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(again.error_message() == "visibility type \"crate\" is not registered");
  }

  SECTION("Should answer NOT_FOUND for removing a type never registered") {
    grpc::Status s = registerType(admin, "barrel", true);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "visibility type \"barrel\" is not registered");
  }

  SECTION("Should refuse a multiplier that is not > 0 before queuing it") {
    v1::RegisterVisibilityTypeRequest r;
    r.set_type("crate");
    r.set_multiplier(0.f);
    grpc::Status s = admin.call(&Stub::RegisterVisibilityType, r);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "multiplier: must be finite and > 0");
  }
}

TEST_CASE("SetPerceptionTuning changes perception tuning live", "[grpc][admin]") {
  TestServer server;
  Admin admin(server.channel());
  v1::SetPerceptionTuningRequest r;

  SECTION("Should accept new values and keep the fields left unset") {
    v1::SetPerceptionTuningResponse before, after, read;
    REQUIRE(admin.call(&Stub::SetPerceptionTuning, r, &before).ok());  // empty: a read
    CHECK(before.som_speed() == 1.5f);
    r.set_som_speed(4.f);
    r.set_suspicious_threshold(3.f);
    REQUIRE(admin.call(&Stub::SetPerceptionTuning, r, &after).ok());
    CHECK(after.som_speed() == 4.f);
    CHECK(after.suspicious_threshold() == 3.f);
    CHECK(after.decay_per_update() == before.decay_per_update());
    REQUIRE(admin.call(&Stub::SetPerceptionTuning, v1::SetPerceptionTuningRequest(), &read).ok());
    CHECK(read.som_speed() == 4.f);
  }
  SECTION("Should refuse a value out of range, naming the field") {
    r.set_som_speed(2.f);
    r.set_decay_per_update(-0.5f);
    grpc::Status s = admin.call(&Stub::SetPerceptionTuning, r);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "perception tuning: decay_per_update must be finite and >= 0");
    v1::SetPerceptionTuningResponse read;
    REQUIRE(admin.call(&Stub::SetPerceptionTuning, v1::SetPerceptionTuningRequest(), &read).ok());
    CHECK(read.som_speed() == 1.5f);  // nothing changed
  }
}

TEST_CASE("SetAttributePrincipal links an attribute entity to its principal", "[grpc][admin]") {
  TestServer server;
  Admin admin(server.channel());
  StreamClient client(server.channel());
  v1::WorldUpdate world;
  world.set_seq(1);
  addEntity(world, 20, v1::ENTITY_KIND_PLAYER, 1.f, 1.f);
  addEntity(world, 21, v1::ENTITY_KIND_ATTRIBUTE, 2.f, 1.f)->set_species("torch");
  addEntity(world, 22, v1::ENTITY_KIND_ATTRIBUTE, 3.f, 1.f)->set_species("footprint");
  upsertAndWait(server, client, world, 3);

  SECTION("Should link an attribute to a player, and principal 0 should unlink it") {
    CHECK(setPrincipal(admin, 21, 20).ok());
    CHECK(setPrincipal(admin, 21, 0).ok());
  }

  SECTION("Should answer NOT_FOUND for an unknown attribute or principal") {
    grpc::Status attribute = setPrincipal(admin, 999, 20);
    CHECK(attribute.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(attribute.error_message() == "attribute entity 999: unknown");
    grpc::Status principal = setPrincipal(admin, 21, 998);
    CHECK(principal.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(principal.error_message() == "principal entity 998: unknown");
  }

  SECTION("Should answer INVALID_ARGUMENT when the attribute is not of kind attribute") {
    grpc::Status s = setPrincipal(admin, 20, 21);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "entity 20: is not an attribute");
  }

  SECTION("Should answer INVALID_ARGUMENT when the principal is itself an attribute") {
    grpc::Status s = setPrincipal(admin, 21, 22);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "entity 21: the principal entity 22 must not be an attribute");
  }

  SECTION("Should refuse attribute 0 before queuing it") {
    grpc::Status s = setPrincipal(admin, 0, 20);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "attribute: must not be 0");
  }
}

TEST_CASE("GetStealthMeter tells how aware the agents are of a player", "[grpc][admin]") {
  TestServer server;
  Admin admin(server.channel());
  StreamClient client(server.channel());
  REQUIRE(admin.spawn(1, "villager", v1::ENTITY_KIND_NPC).ok());  // at (7, 8), sees 10 m
  v1::WorldUpdate world;
  world.set_seq(1);
  addEntity(world, 20, v1::ENTITY_KIND_PLAYER, 90.f, 90.f);
  upsertAndWait(server, client, world, 2);
  v1::GetStealthMeterResponse reply;

  SECTION("Should report 0 and no agent for a player nobody perceives") {
    REQUIRE(stealthMeter(admin, 20, &reply).ok());
    CHECK(reply.player() == 20);
    CHECK(reply.agent() == 0);
    CHECK(reply.value() == 0.f);
  }

  SECTION("Should name the agent that perceives a player close by") {
    v1::SetSensorsRequest all_round;
    all_round.set_agent(1);
    all_round.set_fov_deg(360.f);
    REQUIRE(admin.call(&Stub::SetSensors, all_round).ok());
    v1::WorldUpdate near;
    near.set_seq(2);
    addEntity(near, 20, v1::ENTITY_KIND_PLAYER, 8.f, 8.f);
    REQUIRE(client.send(near));

    CHECK(eventually([&] {
      return stealthMeter(admin, 20, &reply).ok() && reply.agent() == 1 && reply.value() > 0.f;
    }));
    CHECK(reply.player() == 20);
    CHECK(reply.value() <= 10.f);
  }

  SECTION("Should answer NOT_FOUND for an unknown player and for an entity that is no player") {
    grpc::Status unknown = stealthMeter(admin, 999, &reply);
    CHECK(unknown.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(unknown.error_message() == "entity 999: no such player");
    grpc::Status npc = stealthMeter(admin, 1, &reply);
    CHECK(npc.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(npc.error_message() == "entity 1: no such player");
  }

  SECTION("Should refuse player 0 before queuing it") {
    grpc::Status s = stealthMeter(admin, 0, &reply);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "player: must not be 0");
  }
}

TEST_CASE("ReloadDefinitions re-reads the selection tree directory", "[grpc][admin]") {
  v1::ReloadDefinitionsResponse reply;

  SECTION("Should answer FAILED_PRECONDITION when no directory is configured") {
    TestServer server(sentrySetup());  // trees loaded from memory: nothing to re-read
    Admin admin(server.channel());
    grpc::Status s = reload(admin, &reply);
    CHECK(s.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
    CHECK(s.error_message() == "no definitions directory configured");
  }

  SECTION("Should swap in a good set and refuse a bad one, keeping the loaded set") {
    TreeDir dir;
    dir.write("Sentry.xml", kSentryTree);
    ServerSetup setup = sentrySetup();
    setup.selection_trees.clear();
    setup.selection_tree_dir = dir.path();
    TestServer server(setup);
    Admin admin(server.channel());
    REQUIRE(admin.spawn(1, "sentry", v1::ENTITY_KIND_NPC).ok());
    REQUIRE(setVariable(admin, 1, "Hungry", true).error_code() == grpc::StatusCode::NOT_FOUND);

    std::string with_hungry = kSentryTree;
    with_hungry.replace(with_hungry.find("</Variables>"), 0, "  <Variable name=\"Hungry\"/>\n");
    dir.write("Sentry.xml", with_hungry);
    REQUIRE(reload(admin, &reply).ok());
    CHECK(reply.report().empty());
    CHECK(setVariable(admin, 1, "Hungry", true).ok());

    std::string broken = kSentryTree;
    broken.replace(broken.find("condition=\"Alarm\""), 17, "condition=\"Alarm and Missing\"");
    dir.write("Sentry.xml", broken);
    grpc::Status refused = reload(admin, &reply);
    CHECK(refused.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK_THAT(refused.error_message(),
               Catch::Contains("Sentry.xml:9: condition \"Alarm and Missing\": unknown "
                               "variable \"Missing\""));
    CHECK(setVariable(admin, 1, "Hungry", false).ok());  // the previous set stays
  }
}

TEST_CASE("Snapshot answers FAILED_PRECONDITION when no snapshot directory is set",
          "[grpc][admin][snapshot]") {
  TestServer server;
  Admin admin(server.channel());
  v1::SnapshotResponse reply;
  const grpc::Status s = admin.call(&v1::NpcSim::Stub::Snapshot, v1::SnapshotRequest(), &reply);
  CHECK(s.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
  CHECK(s.error_message() == "snapshots are off: the config names no snapshot.dir");
}
