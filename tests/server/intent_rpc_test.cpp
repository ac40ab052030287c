// Intentions end to end over real gRPC on 127.0.0.1 (fixture: grpc_fixture.h): the admin
// calls ProgramIntention, CancelIntention, AddInfluence and RemoveInfluence, and the
// WorldUpdate items external_actions and game_actions. Raoul (seed 004) belongs to the
// stream client, which performs his client-side actions (Go) and reports their results;
// Take runs inside the daemon, which owns inventories.
#include <cmath>
#include <functional>
#include <optional>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

using Stub = v1::NpcSim::Stub;

constexpr uint64_t kRaoul = 2001, kFlowers = 3001, kPlayer = 9, kWolf = 4001;

// Raoul acts only when told: his senses are off and he has no behavior.
constexpr const char* kRaoulArchetype = R"({
  "raoul": {
    "species": "human", "perception": { "vision": false, "hearing": false },
    "wander": { "radius_m": 0 }, "action_timeout_s": 1000,
    "actions": {
      "Go":     { "side": "client" },
      "Wait":   { "side": "daemon", "kind": "wait" },
      "Die":    { "side": "client", "game_only": true, "coercive": true },
      "Attack": { "side": "client", "coercive": true }
    }
  }
})";

constexpr const char* kInfluences = R"({
  "spell:levitate": { "priority": 10, "actions": { "Fly": { "side": "client" } } }
})";

template <class Set>
Set load(const char* name, const char* text) {
  JsonReader reader(name);
  nlohmann::json j;
  REQUIRE(reader.parse(text, j));
  Set set;
  set.loadObject(j, reader);
  INFO(reader.report());
  REQUIRE(reader.ok());
  return set;
}

ServerSetup raoulSetup() {
  ServerSetup setup;
  const ArchetypeSet raoul = load<ArchetypeSet>("raoul.json", kRaoulArchetype);
  setup.archetypes.add(raoul.at(0));
  setup.influences = load<InfluenceSet>("influences.json", kInfluences);
  return setup;
}

v1::Param* entityParam(google::protobuf::RepeatedPtrField<v1::Param>* params, const char* name,
                       uint64_t id) {
  v1::Param* p = params->Add();
  p->set_name(name);
  p->set_entity(id);
  return p;
}

// The stream client that owns Raoul, a player nearby (so the square never sleeps) and the
// flowers; the admin channel for the unary calls.
struct RaoulFixture {
  TestServer server{raoulSetup()};
  StreamClient client{server.channel()};
  Admin admin{server.channel()};
  uint64_t seq = 1;

  RaoulFixture() {
    REQUIRE(client.waitWelcome() != 0);
    v1::WorldUpdate update;
    update.set_seq(seq++);
    addEntity(update, kRaoul, v1::ENTITY_KIND_NPC, 0.f, 0.f, "raoul");
    addEntity(update, kPlayer, v1::ENTITY_KIND_PLAYER, 5.f, 5.f);
    addEntity(update, kFlowers, v1::ENTITY_KIND_OBJECT, 20.f, 0.f)->set_species("flowers");
    REQUIRE(client.send(update));
    REQUIRE(client.waitEvent([](const v1::Event& e) {
      return e.kind() == v1::EVENT_KIND_AGENT_SPAWNED && e.agent() == kRaoul;
    }));
  }

  grpc::Status program(const std::string& action, v1::ProgramIntentionResponse* reply,
                       const std::function<void(v1::ProgramIntentionRequest&)>& fill = {}) {
    v1::ProgramIntentionRequest r;
    r.set_agent(kRaoul);
    r.set_action(action);
    if (fill) fill(r);
    return admin.call(&Stub::ProgramIntention, r, reply);
  }
  uint64_t programOk(const std::string& action,
                     const std::function<void(v1::ProgramIntentionRequest&)>& fill = {}) {
    v1::ProgramIntentionResponse reply;
    const grpc::Status s = program(action, &reply, fill);
    INFO(s.error_message());
    REQUIRE(s.ok());
    REQUIRE(reply.intention() != 0);
    return reply.intention();
  }
  // Go to the flowers, then Take them; `chained`: Take runs only if Go completes.
  std::pair<uint64_t, uint64_t> goThenTake(bool chained) {
    const uint64_t go = programOk("Go", [](v1::ProgramIntentionRequest& r) {
      entityParam(r.mutable_params(), "target", kFlowers);
    });
    const uint64_t take = programOk("Take", [&](v1::ProgramIntentionRequest& r) {
      entityParam(r.mutable_params(), "object", kFlowers);
      if (chained) r.set_depends_on(go);
    });
    return {go, take};
  }
  uint64_t waitTenMinutes() {
    return programOk("Wait", [](v1::ProgramIntentionRequest& r) {
      v1::Param* p = r.add_params();
      p->set_name("delay");
      p->set_number(10);
      p->set_unit("min");
    });
  }
  void report(uint64_t intention, v1::ActionResult::Outcome outcome, const std::string& reason = {}) {
    v1::WorldUpdate update;
    update.set_seq(seq++);
    v1::ActionResult* r = update.add_results();
    r->set_agent(kRaoul);
    r->set_intention(intention);
    r->set_outcome(outcome);
    r->set_reason(reason);
    REQUIRE(client.send(update));
  }
  std::optional<v1::Event> waitIntention(v1::EventKind kind, uint64_t intention) {
    return client.waitEvent([&](const v1::Event& e) {
      return e.kind() == kind && e.intention() == intention;
    });
  }
  std::optional<v1::Action> waitAction(uint64_t intention) {
    return client.waitAction([&](const v1::Action& a) { return a.intention() == intention; });
  }
};

grpc::Status cancel(Admin& admin, uint64_t agent, uint64_t intention) {
  v1::CancelIntentionRequest r;
  r.set_agent(agent);
  r.set_intention(intention);
  return admin.call(&Stub::CancelIntention, r);
}

grpc::Status influence(Admin& admin, uint64_t agent, const std::string& name, bool add) {
  if (add) {
    v1::AddInfluenceRequest r;
    r.set_agent(agent);
    r.set_influence(name);
    return admin.call(&Stub::AddInfluence, r);
  }
  v1::RemoveInfluenceRequest r;
  r.set_agent(agent);
  r.set_influence(name);
  return admin.call(&Stub::RemoveInfluence, r);
}

}  // namespace

TEST_CASE("Raoul picks the flowers through a real gRPC client", "[grpc][intent]") {
  RaoulFixture f;
  const std::pair<uint64_t, uint64_t> ids = f.goThenTake(false);
  const uint64_t go = ids.first, take = ids.second;  // not bindings: lambdas capture these
  REQUIRE(take > go);
  auto go_action = f.waitAction(go);
  REQUIRE(go_action);
  CHECK(go_action->agent() == kRaoul);
  CHECK(go_action->name() == "Go");
  CHECK(go_action->place() == "square");
  CHECK(hasEntityParam(*go_action, "target", kFlowers));
  REQUIRE(f.waitIntention(v1::EVENT_KIND_INTENTION_STARTED, go));

  SECTION("Should complete Go, then take the flowers inside the daemon") {
    // The game walked Raoul to the flowers: it streams his new position with the result.
    v1::WorldUpdate walked;
    walked.set_seq(f.seq++);
    addEntity(walked, kRaoul, v1::ENTITY_KIND_NPC, 19.5f, 0.f);
    REQUIRE(f.client.send(walked));
    f.report(go, v1::ActionResult::OUTCOME_COMPLETED);
    REQUIRE(f.waitIntention(v1::EVENT_KIND_INTENTION_COMPLETED, go));
    auto done = f.waitIntention(v1::EVENT_KIND_INTENTION_COMPLETED, take);
    REQUIRE(done);
    CHECK(done->agent() == kRaoul);
    CHECK(done->value() == 1.f);
    CHECK(done->subject() == kFlowers);  // the game removes them from its scene
    const nlohmann::json raoul = f.admin.view(kRaoul);
    CHECK(raoul["inventory"] == nlohmann::json{{"flowers", 1}});
    CHECK(raoul["intentions"]["queue"]["size"] == 0);
    CHECK(raoul["actions_completed"] == 2);
    // Take was never sent to the game (messages up to its completion hold no Take action).
    bool take_sent = false;
    REQUIRE(f.client.waitMessage([&](const v1::ServerMessage& m) {
      for (const auto& a : m.actions()) take_sent = take_sent || a.intention() == take;
      for (const auto& e : m.events()) {
        if (e.intention() == take && e.kind() == v1::EVENT_KIND_INTENTION_COMPLETED) return true;
      }
      return false;
    }));
    CHECK_FALSE(take_sent);
  }
  SECTION("Should fail Go when the climb is too hard, then fail Take too") {
    f.report(go, v1::ActionResult::OUTCOME_FAILED, "too steep for a beginner alpinist");
    auto go_failed = f.waitIntention(v1::EVENT_KIND_INTENTION_FAILED, go);
    REQUIRE(go_failed);
    CHECK(go_failed->text() == "agent 2001: intention " + std::to_string(go) +
                                   " \"Go\" failed: the game reported failure: too steep for a "
                                   "beginner alpinist");
    // Raoul is still at the foot of the cliff: the daemon finds the flowers out of reach.
    auto take_failed = f.waitIntention(v1::EVENT_KIND_INTENTION_FAILED, take);
    REQUIRE(take_failed);
    CHECK(take_failed->text() == "agent 2001: intention " + std::to_string(take) +
                                     " \"Take\" failed: the action failed (out_of_reach)");
    CHECK(take_failed->subject() == kFlowers);
    const nlohmann::json raoul = f.admin.view(kRaoul);
    CHECK(raoul["inventory"].empty());
    CHECK(raoul["actions_failed"] == 2);
  }
}

TEST_CASE("A chain programmed over gRPC: Take only if Go completed", "[grpc][intent]") {
  RaoulFixture f;
  const std::pair<uint64_t, uint64_t> ids = f.goThenTake(true);
  const uint64_t go = ids.first, take = ids.second;
  REQUIRE(f.waitIntention(v1::EVENT_KIND_INTENTION_STARTED, go));
  v1::GetAgentRequest get;
  get.set_id(kRaoul);
  v1::GetAgentResponse agent;
  REQUIRE(f.admin.call(&Stub::GetAgent, get, &agent).ok());
  REQUIRE(agent.agent().intentions_size() == 2);
  CHECK(agent.agent().intentions(1).id() == take);
  CHECK(agent.agent().intentions(1).depends_on() == go);
  CHECK(agent.agent().intentions(0).depends_on() == 0);

  f.report(go, v1::ActionResult::OUTCOME_FAILED, "too steep for a beginner alpinist");
  auto dropped = f.waitIntention(v1::EVENT_KIND_INTENTION_FAILED, take);
  REQUIRE(dropped);
  CHECK(dropped->text() == "agent 2001: intention " + std::to_string(take) +
                               " \"Take\" failed: dropped: the intention it depended on did not "
                               "complete");

  SECTION("Should refuse a dependency on an intention that has ended") {
    v1::ProgramIntentionResponse reply;
    const grpc::Status s = f.program("Take", &reply, [&](v1::ProgramIntentionRequest& r) {
      entityParam(r.mutable_params(), "object", kFlowers);
      r.set_depends_on(go);
    });
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message().find("depends_on: intention " + std::to_string(go)) != std::string::npos);
  }
}

TEST_CASE("Game and external actions arrive on the stream", "[grpc][intent]") {
  RaoulFixture f;
  const uint64_t wait = f.waitTenMinutes();
  REQUIRE(f.waitIntention(v1::EVENT_KIND_INTENTION_STARTED, wait));

  SECTION("Should interrupt the wait at once for the wolf's attack, naming the wolf") {
    v1::WorldUpdate update;
    update.set_seq(50);
    v1::ExternalAction* x = update.add_external_actions();
    x->set_agent(kRaoul);
    x->set_from(kWolf);
    x->set_action("Attack");
    REQUIRE(f.client.send(update));
    auto interrupted = f.waitIntention(v1::EVENT_KIND_INTENTION_INTERRUPTED, wait);
    REQUIRE(interrupted);
    CHECK(interrupted->subject() == kWolf);
  }
  SECTION("Should preempt the wait with Die and send Die to the game") {
    v1::WorldUpdate update;
    update.set_seq(51);
    v1::GameAction* g = update.add_game_actions();
    g->set_agent(kRaoul);
    g->set_action("Die");
    g->set_coercive(true);
    v1::Param* cause = g->add_params();
    cause->set_name("cause");
    cause->set_text("fall");
    REQUIRE(f.client.send(update));
    auto die = f.client.waitAction([](const v1::Action& a) { return a.name() == "Die"; });
    REQUIRE(die);
    CHECK(die->agent() == kRaoul);
    REQUIRE(die->params_size() == 1);
    CHECK(die->params(0).text() == "fall");
    auto interrupted = f.waitIntention(v1::EVENT_KIND_INTENTION_INTERRUPTED, wait);
    REQUIRE(interrupted);
    CHECK(interrupted->text().find("preempted by a coercive game action") != std::string::npos);
  }
  SECTION("Should name the bad items and fields, and leave the wait alone") {
    v1::WorldUpdate update;
    update.set_seq(52);
    update.add_external_actions()->set_agent(kRaoul);  // neither an action nor coercive
    v1::GameAction* g = update.add_game_actions();
    g->set_agent(kRaoul);
    g->set_action("Die");
    g->set_delay_s(-1);
    g->add_params()->set_number(std::nan(""));
    v1::GameAction* unknown = update.add_game_actions();
    unknown->set_agent(kRaoul);
    unknown->set_action("Explode");
    v1::GameAction* negative = update.add_game_actions();  // checked by the tick thread
    negative->set_agent(kRaoul);
    negative->set_action("Wait");
    v1::Param* minutes = negative->add_params();
    minutes->set_number(-5);
    minutes->set_unit("min");
    REQUIRE(f.client.send(update));
    CHECK(f.client.waitError(52, "external_actions[0] (agent 2001).action: must be set unless "
                                 "coercive"));
    CHECK(f.client.waitError(52, "game_actions[0] (agent 2001).delay_s: must be finite and >= 0"));
    CHECK(f.client.waitError(52, "game_actions[0] (agent 2001).params[0].number: must be finite"));
    CHECK(f.client.waitError(52, "entity 2001: game action \"Explode\" is not registered"));
    CHECK(f.client.waitError(52, "game_actions[2] (agent 2001).params[0].number: must be within "
                                 "0..604800 s (got -5 min)"));
    CHECK(f.admin.view(kRaoul)["intentions"]["queue"]["current"] == wait);
  }
}

TEST_CASE("ProgramIntention answers with the error codes of the API", "[grpc][intent]") {
  RaoulFixture f;
  v1::ProgramIntentionResponse reply;

  SECTION("Should refuse a malformed request, naming the fields") {
    v1::ProgramIntentionRequest r;
    r.set_delay_s(-1);
    r.add_params()->set_name("nothing");
    const grpc::Status s = f.admin.call(&Stub::ProgramIntention, r, &reply);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() ==
          "agent: must not be 0; action: must be set; delay_s: must be finite and >= 0; "
          "params[0]: needs a value (entity, number, position or text)");
  }
  SECTION("Should say NOT_FOUND for an unknown agent or action") {
    v1::ProgramIntentionRequest r;
    r.set_agent(777);
    r.set_action("Go");
    grpc::Status s = f.admin.call(&Stub::ProgramIntention, r, &reply);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "entity 777: no such agent");
    s = f.program("Juggle", &reply);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "entity 2001: action \"Juggle\" is not registered");
  }
  SECTION("Should say FAILED_PRECONDITION for an action only the game may schedule") {
    const grpc::Status s = f.program("Die", &reply);
    CHECK(s.error_code() == grpc::StatusCode::FAILED_PRECONDITION);
    CHECK(s.error_message() == "agent 2001: this action is scheduled by the game only");
  }
  SECTION("Should say RESOURCE_EXHAUSTED once the queue is full") {
    for (int i = 0; i < 7; ++i) f.waitTenMinutes();
    const grpc::Status s = f.program("Take", &reply);
    CHECK(s.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
    CHECK(s.error_message() == "agent 2001: intention queue full (8)");
  }
}

TEST_CASE("CancelIntention interrupts or removes, with the error codes of the API",
          "[grpc][intent]") {
  RaoulFixture f;
  const uint64_t wait = f.waitTenMinutes();
  const uint64_t go = f.programOk("Go");

  SECTION("Should remove the pending one and interrupt the running one") {
    REQUIRE(cancel(f.admin, kRaoul, go).ok());
    REQUIRE(cancel(f.admin, kRaoul, wait).ok());
    auto interrupted = f.waitIntention(v1::EVENT_KIND_INTENTION_INTERRUPTED, wait);
    REQUIRE(interrupted);
    CHECK(interrupted->text().find("cancelled by the controller") != std::string::npos);
    CHECK(f.admin.view(kRaoul)["intentions"]["queue"]["size"] == 0);
  }
  SECTION("Should refuse malformed requests and say NOT_FOUND for what is not there") {
    grpc::Status s = cancel(f.admin, kRaoul, 0);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "intention: must not be 0");
    s = cancel(f.admin, kRaoul, go + 1000);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() ==
          "agent 2001: intention " + std::to_string(go + 1000) + ": not in the agent's queue");
    s = cancel(f.admin, 777, go);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
  }
}

TEST_CASE("AddInfluence and RemoveInfluence change what an agent can do", "[grpc][intent]") {
  RaoulFixture f;

  SECTION("Should let Raoul fly under the spell and stop him when it ends") {
    REQUIRE(influence(f.admin, kRaoul, "spell:levitate", true).ok());
    const uint64_t fly = f.programOk("Fly");
    REQUIRE(f.waitAction(fly));
    REQUIRE(influence(f.admin, kRaoul, "spell:levitate", false).ok());
    auto stopped = f.waitIntention(v1::EVENT_KIND_INTENTION_INTERRUPTED, fly);
    REQUIRE(stopped);
    CHECK(stopped->text().find("the influence providing \"Fly\" was removed") != std::string::npos);
    const uint64_t again = f.programOk("Fly");
    auto failed = f.waitIntention(v1::EVENT_KIND_INTENTION_FAILED, again);
    REQUIRE(failed);
    CHECK(failed->text().find("cannot perform \"Fly\"") != std::string::npos);
  }
  SECTION("Should refuse malformed requests and say NOT_FOUND for unknown names") {
    grpc::Status s = influence(f.admin, 0, "", true);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == "agent: must not be 0; influence: must be set");
    s = influence(f.admin, kRaoul, "spell:invisibility", true);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "influence \"spell:invisibility\" is not defined");
    s = influence(f.admin, kRaoul, "spell:levitate", false);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(s.error_message() == "entity 2001 is not under influence \"spell:levitate\"");
    s = influence(f.admin, 777, "spell:levitate", true);
    CHECK(s.error_code() == grpc::StatusCode::NOT_FOUND);
  }
}
