// The bad-input catalogue (README.md "Bad input, by category"): one row per category of
// hostile or broken input over the gRPC API, and per path for bad numbers (the values a
// hostile client tried: a 1e30 m sound or signal, a 1e30 m sight range, delays of 1e300 s,
// Wait of -5 minutes or of 1e300 "parsec", a negative Drop count, a spawn at (3.4e38, 3.4e38)).
// Each row's outcome is the documented code and message naming the field; after every row
// the daemon still ticks, the world holds no entity the row was refused, and another
// client's agent and its running action are untouched.
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;
using Stub = v1::NpcSim::Stub;

namespace {

constexpr uint64_t kVictimAgent = 100;
constexpr uint64_t kSharedAgent = 40;  // spawned by an admin: the admin rows' target
constexpr size_t kMaxClients = 5;
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

ServerSetup catalogueSetup() {
  ServerSetup setup;
  setup.max_receive_bytes = 64 * 1024;
  setup.handshake_timeout_ms = 300;
  setup.limits.max_clients = kMaxClients;
  setup.credentials = {{"victim", "token-v", "", Role::kGame},
                       {"intruder", "token-i", "", Role::kGame},
                       {"dashboard", "token-o", "", Role::kObserver},
                       {"ops", "token-x", "", Role::kAdmin}};
  return setup;
}

std::string outcome(const grpc::Status& status) {
  static const char* const kNames[] = {
      "OK",        "CANCELLED",         "UNKNOWN",          "INVALID_ARGUMENT",
      "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",   "PERMISSION_DENIED",
      "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
      "UNIMPLEMENTED", "INTERNAL",      "UNAVAILABLE",      "DATA_LOSS",
      "UNAUTHENTICATED"};
  const int code = status.error_code();
  const std::string name = code >= 0 && code <= 16 ? kNames[code] : std::to_string(code);
  return name + ": " + status.error_message();
}

// The hostile side of the table: an intruder's stream and credentials, and the victim's
// agent with the action it is performing.
struct Catalogue {
  TestServer server{catalogueSetup()};
  Admin ops{server.channel(), "token-x"};
  StreamClient victim{server.channel(), true, "token-v"};
  StreamClient intruder{server.channel(), true, "token-i"};
  uint64_t victim_intention = 0;
  uint64_t seq = 1;

  Catalogue() {
    REQUIRE(victim.waitWelcome() != 0);
    REQUIRE(intruder.waitWelcome() != 0);
    REQUIRE(ops.spawn(kSharedAgent, "statue", v1::ENTITY_KIND_NPC).ok());
    v1::WorldUpdate update;
    update.set_seq(seq++);
    addEntity(update, kVictimAgent, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager");
    REQUIRE(victim.send(update));
    const auto action = victim.waitAction(
        [](const v1::Action& a) { return a.agent() == kVictimAgent && a.intention() > 0; });
    REQUIRE(action);
    victim_intention = action->intention();
  }

  // Sends `update` from the intruder; its first error event's text, as "error: <text>".
  std::string intrude(v1::WorldUpdate update) {
    const uint64_t s = seq++;
    update.set_seq(s);
    if (!intruder.send(update)) return "send failed";
    const auto error = intruder.waitEvent(
        [&](const v1::Event& e) { return e.kind() == v1::EVENT_KIND_ERROR && e.seq() == s; });
    return error ? "error: " + error->text() : "no error";
  }

  v1::ActionResult* result(v1::WorldUpdate& u, uint64_t agent, uint64_t intention) {
    v1::ActionResult* r = u.add_results();
    r->set_agent(agent);
    r->set_intention(intention);
    r->set_outcome(v1::ActionResult::OUTCOME_FAILED);
    return r;
  }

  uint64_t tick() {
    v1::GetStatsResponse stats;
    return ops.stats(&stats).ok() ? stats.tick() : 0;
  }
  uint64_t entities() {
    v1::GetStatsResponse stats;
    return ops.stats(&stats).ok() ? stats.entities() : 0;
  }
};

struct Row {
  std::string category;
  std::function<std::string(Catalogue&)> act;
  std::string expected;  // "error: <event text>" on the stream, or "<CODE>: <message>"
  uint64_t entities_added = 0;  // what the row leaves in the world on purpose
};

std::string sendSignal(Admin& admin, float radius) {
  v1::SendSignalRequest r;
  r.mutable_signal()->set_name("Alarm");
  r.mutable_signal()->set_radius(radius);
  setVec(r.mutable_signal()->mutable_position(), 0.f, 0.f, 0.f);
  return outcome(admin.call(&Stub::SendSignal, r));
}

std::string sightRange(Admin& admin, float range) {
  v1::SetSensorsRequest r;
  r.set_agent(kSharedAgent);
  r.set_sight_range(range);
  return outcome(admin.call(&Stub::SetSensors, r));
}

// ProgramIntention of `action` on the shared agent with one number parameter (and an item
// first, for Drop).
std::string program(Admin& admin, const std::string& action, double delay_s, double number,
                    const std::string& unit, const std::string& item = {}) {
  v1::ProgramIntentionRequest r;
  r.set_agent(kSharedAgent);
  r.set_action(action);
  r.set_delay_s(delay_s);
  if (!item.empty()) r.add_params()->set_text(item);
  v1::Param* p = r.add_params();
  p->set_number(number);
  p->set_unit(unit);
  v1::ProgramIntentionResponse reply;
  return outcome(admin.call(&Stub::ProgramIntention, r, &reply));
}

// The intruder sends one sound, or one signal, of `radius` at the origin.
std::function<std::string(Catalogue&)> soundOf(float radius) {
  return [radius](Catalogue& c) {
    v1::WorldUpdate u;
    v1::Sound* s = u.add_sounds();
    setVec(s->mutable_position(), 0.f, 0.f, 0.f);
    s->set_radius(radius);
    return c.intrude(u);
  };
}
std::function<std::string(Catalogue&)> signalOf(float radius) {
  return [radius](Catalogue& c) {
    v1::WorldUpdate u;
    v1::Signal* s = u.add_signals();
    s->set_name("Alarm");
    setVec(s->mutable_position(), 0.f, 0.f, 0.f);
    s->set_radius(radius);
    return c.intrude(u);
  };
}

// Bad numbers: NaN, inf, huge, negative and outside the world, per path (admin calls and
// stream items). Each names the field and the bound.
std::vector<Row> numberRows() {
  return {
      {"NaN: SetSensors", [](Catalogue& c) { return sightRange(c.ops, kNaN); },
       "INVALID_ARGUMENT: sight_range: must be finite and >= 0"},
      {"NaN: stream position",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         setVec(addEntity(u, 900, v1::ENTITY_KIND_PLAYER, 0.f, 0.f)->mutable_position(), kNaN,
                0.f, 0.f);
         return c.intrude(u);
       },
       "error: upserts[0] (id 900).position: must be finite"},
      {"inf: SendSignal", [](Catalogue& c) { return sendSignal(c.ops, kInf); },
       "INVALID_ARGUMENT: signal.radius: must be finite and >= 0"},
      {"inf: stream sound", soundOf(kInf), "error: sounds[0].radius: must be finite and > 0"},
      {"huge: SendSignal", [](Catalogue& c) { return sendSignal(c.ops, 1e30f); },
       "INVALID_ARGUMENT: signal.radius: must be at most 10000 m (got 1e+30)"},
      {"huge: SetSensors", [](Catalogue& c) { return sightRange(c.ops, 1e30f); },
       "INVALID_ARGUMENT: sight_range: must be at most 1000 m (got 1e+30)"},
      {"huge: ProgramIntention delay",
       [](Catalogue& c) { return program(c.ops, "Wait", 1e300, 1, "s"); },
       "INVALID_ARGUMENT: delay_s: must be at most 604800 s (got 1e+300)"},
      {"huge: WakePlace delay",
       [](Catalogue& c) {
         v1::WakePlaceRequest r;
         r.set_place("square");
         r.set_delay_s(1e300);
         return outcome(c.ops.call(&Stub::WakePlace, r));
       },
       "INVALID_ARGUMENT: delay_s: must be at most 604800 s (got 1e+300)"},
      {"huge: Wait in an unknown unit",
       [](Catalogue& c) { return program(c.ops, "Wait", 0, 1e300, "parsec"); },
       "INVALID_ARGUMENT: params[0].unit: \"parsec\" is not a unit of time (ms, s, min or h)"},
      {"huge: Wait", [](Catalogue& c) { return program(c.ops, "Wait", 0, 1e300, "s"); },
       "INVALID_ARGUMENT: params[0].number: must be within 0..604800 s (got 1e+300 s)"},
      {"huge: stream sound", soundOf(1e30f),
       "error: sounds[0].radius: must be at most 2000 m (got 1e+30)"},
      {"huge: stream signal", signalOf(1e30f),
       "error: signals[0].radius: must be at most 10000 m (got 1e+30)"},
      {"negative: Wait", [](Catalogue& c) { return program(c.ops, "Wait", 0, -5, "min"); },
       "INVALID_ARGUMENT: params[0].number: must be within 0..604800 s (got -5 min)"},
      {"negative count: Drop",
       [](Catalogue& c) { return program(c.ops, "Drop", 0, -3, "", "bread"); },
       "INVALID_ARGUMENT: params[1].number: a count must be a whole number within 1..1000000 "
       "(got -3)"},
      {"negative: stream progress",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         v1::ActionResult* r = u.add_results();
         r->set_agent(kSharedAgent);
         r->set_intention(1);
         r->set_outcome(v1::ActionResult::OUTCOME_PROGRESS);
         r->set_progress(-1.f);
         return c.intrude(u);
       },
       "error: results[0] (agent 40).progress: must be within 0..1"},
      {"outside the world: SpawnAgent",
       [](Catalogue& c) {
         v1::SpawnAgentRequest r;
         r.mutable_agent()->set_id(41);
         r.mutable_agent()->set_archetype("statue");
         setVec(r.mutable_agent()->mutable_position(), 3.4e38f, 3.4e38f, 0.f);
         return outcome(c.ops.call(&Stub::SpawnAgent, r));
       },
       "INVALID_ARGUMENT: agent.position: x 3.4e+38 is outside the world bounds (+-100000 m)"},
      {"outside the world: stream position",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         addEntity(u, 901, v1::ENTITY_KIND_PLAYER, 3.4e38f, 3.4e38f);
         return c.intrude(u);
       },
       "error: upserts[0] (id 901).position: x 3.4e+38 is outside the world bounds (+-100000 "
       "m)"},
  };
}

std::vector<Row> rows() {
  std::vector<Row> all = numberRows();
  std::vector<Row> others = {
      {"unknown id",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         c.result(u, 999, 5);
         return c.intrude(u);
       },
       "error: action result: entity 999 is not an agent"},
      {"stale id (a despawned agent)",
       [](Catalogue& c) {
         Admin intruder(c.server.channel(), "token-i");
         v1::WorldUpdate spawn;
         spawn.set_seq(c.seq++);
         addEntity(spawn, 120, v1::ENTITY_KIND_NPC, 5.f, 5.f, "statue");
         REQUIRE(c.intruder.send(spawn));
         REQUIRE(eventually([&] { return intruder.get(120).ok(); }));
         v1::WorldUpdate remove;
         remove.set_seq(c.seq++);
         remove.add_removals(120);
         REQUIRE(c.intruder.send(remove));
         REQUIRE(eventually([&] { return !intruder.get(120).ok(); }));
         CHECK(outcome(intruder.get(120)) == "NOT_FOUND: entity 120: no such agent");
         v1::WorldUpdate u;
         c.result(u, 120, 7);
         return c.intrude(u);
       },
       "error: action result: entity 120 is not an agent"},
      {"result for an action never sent",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         c.result(u, kVictimAgent, 99999);
         return c.intrude(u);
       },
       "error: results[0] (agent 100, intention 99999): intention was not sent to this client"},
      {"result for an action sent to another client",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         c.result(u, kVictimAgent, c.victim_intention);
         return c.intrude(u);
       },
       "error: results[0] (agent 100, intention {victim}): intention was not sent to this "
       "client"},
      {"update of an entity owned by another client",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         addEntity(u, kVictimAgent, v1::ENTITY_KIND_NPC, 50.f, 50.f);
         return c.intrude(u);
       },
       "error: upserts[0] (id 100): owned by another client"},
      {"removal of an entity owned by another client",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         u.add_removals(kVictimAgent);
         return c.intrude(u);
       },
       "error: removals[0] (id 100): owned by another client"},
      {"DespawnAgent of a foreign agent",
       [](Catalogue& c) {
         return outcome(Admin(c.server.channel(), "token-i").despawn(kVictimAgent));
       },
       "PERMISSION_DENIED: entity 100: owned by another client"},
      {"unknown enum",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         addEntity(u, 130, static_cast<v1::EntityKind>(42), 1.f, 1.f);
         return c.intrude(u);
       },
       "error: upserts[0] (id 130).kind: unknown value 42"},
      {"duplicate ids in one update",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         addEntity(u, 131, v1::ENTITY_KIND_OBJECT, 1.f, 1.f);
         addEntity(u, 131, v1::ENTITY_KIND_OBJECT, 2.f, 2.f);
         return c.intrude(u);
       },
       "error: upserts[1] (id 131): id repeated in this update (first at upserts[0])",
       1},  // the first of the two is taken
      {"oversized string",
       [](Catalogue& c) {
         v1::WorldUpdate u;
         addEntity(u, 132, v1::ENTITY_KIND_OBJECT, 1.f, 1.f)->set_species(std::string(300, 's'));
         return c.intrude(u);
       },
       "error: upserts[0] (id 132).species: must be at most 256 bytes (got 300)"},
      {"oversized message",
       [](Catalogue& c) {
         StreamClient big(c.server.channel(), true, "token-i");
         REQUIRE(big.waitWelcome() != 0);
         v1::WorldUpdate u;
         addEntity(u, 133, v1::ENTITY_KIND_OBJECT, 1.f, 1.f)->set_species(std::string(100000, 's'));
         big.send(u);
         const auto done = big.waitDone();
         return done ? outcome(*done).substr(0, 52) : "still open";
       },
       "RESOURCE_EXHAUSTED: Received message larger than max"},
      {"a client that vanishes mid-stream",
       [](Catalogue& c) {
         auto gone = std::make_unique<StreamClient>(c.server.channel(), true, "token-i");
         REQUIRE(gone->waitWelcome() != 0);
         v1::WorldUpdate u;
         u.set_seq(1);
         addEntity(u, 134, v1::ENTITY_KIND_NPC, 3.f, 3.f, "statue");
         gone->send(u);
         REQUIRE(eventually([&] { return c.ops.owner(134) > 0; }));
         gone->vanish();
         gone.reset();
         const bool left = eventually([&] { return c.server.hub().clientCount() == 2; });
         return std::string(left ? "left" : "still counted") + "; its agent " +
                (c.ops.get(134).ok() ? "kept" : "lost");
       },
       "left; its agent kept", 1},
      {"a thousand idle connections",
       [](Catalogue& c) {
         return std::to_string(idleConnectionsClosed(c.server.port(), 1000, 10000ms)) +
                " of 1000 closed";
       },
       "1000 of 1000 closed"},
      {"missing credential",
       [](Catalogue& c) {
         v1::GetStatsResponse stats;
         return outcome(Admin(c.server.channel()).stats(&stats));
       },
       "UNAUTHENTICATED: missing or invalid bearer token (metadata \"authorization: Bearer "
       "<token>\") or client certificate"},
      {"wrong-role credential",
       [](Catalogue& c) {
         return outcome(Admin(c.server.channel(), "token-o").spawn(135, "statue",
                                                                   v1::ENTITY_KIND_NPC));
       },
       "PERMISSION_DENIED: SpawnAgent: role observer (client \"dashboard\") may not call it"},
      {"more Connect streams than max_clients",
       [](Catalogue& c) {
         std::vector<std::unique_ptr<StreamClient>> open;
         while (c.server.hub().clientCount() < kMaxClients) {
           open.push_back(std::make_unique<StreamClient>(c.server.channel(), true, "token-i"));
           REQUIRE(open.back()->waitWelcome() != 0);
         }
         StreamClient one_more(c.server.channel(), true, "token-i");
         const auto done = one_more.waitDone();
         // The open streams carry on: the newest still gets its replies.
         v1::WorldUpdate u;
         u.set_seq(5);
         u.add_removals(0);
         REQUIRE(open.back()->send(u));
         const bool served = open.back()->waitError(5, "removals[0]: id must not be 0").has_value();
         return (done ? outcome(*done) : "still open") + (served ? "; open streams served" : "");
       },
       "RESOURCE_EXHAUSTED: npcd already has 5 Connect streams open (max_clients); retry "
       "later; open streams served"},
  };
  all.insert(all.end(), others.begin(), others.end());
  return all;
}

std::string substitute(std::string text, const std::string& key, uint64_t value) {
  const auto at = text.find(key);
  if (at != std::string::npos) text.replace(at, key.size(), std::to_string(value));
  return text;
}

size_t errorEvents(const StreamClient& client) {
  size_t n = 0;
  for (const auto& m : client.messages()) {
    for (const auto& e : m.events()) n += e.kind() == v1::EVENT_KIND_ERROR;
  }
  return n;
}

}  // namespace

TEST_CASE("Bad input gets its documented answer and disturbs nobody else", "[catalogue]") {
  Catalogue c;
  const nlohmann::json before = c.ops.view(kVictimAgent);
  REQUIRE_FALSE(before.is_null());

  for (const Row& row : rows()) {
    INFO(row.category);
    const uint64_t tick = c.tick();
    const uint64_t entities = c.entities();
    CHECK(row.act(c) == substitute(row.expected, "{victim}", c.victim_intention));
    // The daemon keeps ticking, and what it refused left nothing behind.
    // An error refused at the edge can come back before the tick has applied the update's
    // accepted items, so the count is read once two more ticks have run (and, for a row that
    // adds, until the tick has taken its item).
    CHECK(eventually([&] { return c.tick() > tick + 1; }));
    CHECK(eventually([&] { return c.entities() == entities + row.entities_added; }));
    CHECK(c.entities() == entities + row.entities_added);
    // The victim's agent is where it was, still its own, still on the same action.
    const nlohmann::json after = c.ops.view(kVictimAgent);
    REQUIRE_FALSE(after.is_null());
    CHECK(after["position"] == before["position"]);
    CHECK(after["owner"] == before["owner"]);
    CHECK(after["intentions"]["queue"]["current"] == c.victim_intention);
  }
  // Its action was never failed by anybody else: the victim completes it now.
  v1::WorldUpdate done;
  done.set_seq(c.seq++);
  v1::ActionResult* r = c.result(done, kVictimAgent, c.victim_intention);
  r->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);
  REQUIRE(c.victim.send(done));
  const auto completed = c.victim.waitEvent([&](const v1::Event& e) {
    return e.kind() == v1::EVENT_KIND_INTENTION_COMPLETED && e.intention() == c.victim_intention;
  });
  CHECK(completed);
  CHECK(errorEvents(c.victim) == 0);

  SECTION("Should accept the same calls with sane values afterwards") {
    CHECK(sendSignal(c.ops, 50.f) == "OK: ");
    CHECK(sightRange(c.ops, 40.f) == "OK: ");
    CHECK(program(c.ops, "Wait", 0, 10, "min") == "OK: ");
  }
}

TEST_CASE("The errors counter equals the error events clients received", "[catalogue]") {
  Catalogue c;
  StreamClient other(c.server.channel(), true, "token-i");
  REQUIRE(other.waitWelcome() != 0);
  for (const Row& row : rows()) {
    if (row.expected.rfind("error: ", 0) == 0) row.act(c);  // refused items, both kinds
  }
  v1::WorldUpdate bad;  // one more input error, on another stream
  bad.set_seq(77);
  bad.add_removals(0);
  REQUIRE(other.send(bad));
  REQUIRE(other.waitError(77, "removals[0]: id must not be 0"));

  // A refused item may answer after the row has seen its first error: compare once both
  // sides have settled.
  size_t received = 0;
  v1::GetStatsResponse stats;
  CHECK(eventually([&] {
    received = errorEvents(c.intruder) + errorEvents(c.victim) + errorEvents(other);
    return c.ops.stats(&stats).ok() && stats.errors() == received;
  }));
  CHECK(received >= 20);
  CHECK(stats.errors() == received);
}
