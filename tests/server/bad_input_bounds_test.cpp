// Bad numbers over the gRPC API, one row per category (NaN, inf, huge, negative, outside the
// world) and path: each is refused with INVALID_ARGUMENT or an ERROR event naming the field
// and the bound, and the daemon's tick keeps advancing afterwards. The values are those a
// hostile client tried: a 1e30 m sound or signal, a 1e30 m sight range, delays of 1e300 s,
// Wait of -5 minutes or of 1e300 "parsec", a negative Drop count, a spawn at (3.4e38, 3.4e38).
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;
using Stub = v1::NpcSim::Stub;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr uint64_t kAgent = 40;

struct AdminRow {
  const char* category;
  std::function<grpc::Status(Admin&)> call;
  std::string error;  // the status message, naming the field
};

struct StreamRow {
  const char* category;
  std::function<void(v1::WorldUpdate&)> fill;
  std::string error;  // the ERROR event's text
};

grpc::Status sendSignal(Admin& admin, float radius) {
  v1::SendSignalRequest r;
  r.mutable_signal()->set_name("Alarm");
  r.mutable_signal()->set_radius(radius);
  setVec(r.mutable_signal()->mutable_position(), 0.f, 0.f, 0.f);
  return admin.call(&Stub::SendSignal, r);
}

grpc::Status sightRange(Admin& admin, float range) {
  v1::SetSensorsRequest r;
  r.set_agent(kAgent);
  r.set_sight_range(range);
  return admin.call(&Stub::SetSensors, r);
}

// ProgramIntention of `action` on the test agent with one number parameter (and an item
// first, for Drop).
grpc::Status program(Admin& admin, const std::string& action, double delay_s, double number,
                     const std::string& unit, const std::string& item = {}) {
  v1::ProgramIntentionRequest r;
  r.set_agent(kAgent);
  r.set_action(action);
  r.set_delay_s(delay_s);
  if (!item.empty()) r.add_params()->set_text(item);
  v1::Param* p = r.add_params();
  p->set_number(number);
  p->set_unit(unit);
  v1::ProgramIntentionReply reply;
  return admin.call(&Stub::ProgramIntention, r, &reply);
}

// Fills an update with one sound, or one signal, of `radius` at the origin.
std::function<void(v1::WorldUpdate&)> soundOf(float radius) {
  return [radius](v1::WorldUpdate& u) {
    v1::Sound* s = u.add_sounds();
    setVec(s->mutable_position(), 0.f, 0.f, 0.f);
    s->set_radius(radius);
  };
}
std::function<void(v1::WorldUpdate&)> signalOf(float radius) {
  return [radius](v1::WorldUpdate& u) {
    v1::Signal* s = u.add_signals();
    s->set_name("Alarm");
    setVec(s->mutable_position(), 0.f, 0.f, 0.f);
    s->set_radius(radius);
  };
}

uint64_t tickNow(Admin& admin) {
  v1::Stats stats;
  REQUIRE(admin.stats(&stats).ok());
  return stats.tick();
}

}  // namespace

TEST_CASE("Absurd numbers in admin calls are refused with the field named",
          "[server][bounds]") {
  TestServer server;
  Admin admin(server.channel());
  REQUIRE(admin.spawn(kAgent, "statue", v1::ENTITY_KIND_NPC).ok());

  const std::vector<AdminRow> rows = {
      {"NaN", [](Admin& a) { return sightRange(a, kNaN); }, "sight_range: must be finite and >= 0"},
      {"inf", [](Admin& a) { return sendSignal(a, kInf); }, "signal.radius: must be finite and >= 0"},
      {"huge", [](Admin& a) { return sendSignal(a, 1e30f); },
       "signal.radius: must be at most 10000 m (got 1e+30)"},
      {"huge", [](Admin& a) { return sightRange(a, 1e30f); },
       "sight_range: must be at most 1000 m (got 1e+30)"},
      {"huge", [](Admin& a) { return program(a, "Wait", 1e300, 1, "s"); },
       "delay_s: must be at most 604800 s (got 1e+300)"},
      {"huge",
       [](Admin& a) {
         v1::WakePlaceRequest r;
         r.set_place("square");
         r.set_delay_s(1e300);
         return a.call(&Stub::WakePlace, r);
       },
       "delay_s: must be at most 604800 s (got 1e+300)"},
      {"huge", [](Admin& a) { return program(a, "Wait", 0, 1e300, "parsec"); },
       "params[0].unit: \"parsec\" is not a unit of time (ms, s, min or h)"},
      {"huge", [](Admin& a) { return program(a, "Wait", 0, 1e300, "s"); },
       "params[0].number: must be within 0..604800 s (got 1e+300 s)"},
      {"negative", [](Admin& a) { return program(a, "Wait", 0, -5, "min"); },
       "params[0].number: must be within 0..604800 s (got -5 min)"},
      {"negative", [](Admin& a) { return program(a, "Drop", 0, -3, "", "bread"); },
       "params[1].number: a count must be a whole number within 1..1000000 (got -3)"},
      {"out of world",
       [](Admin& a) {
         v1::SpawnAgentRequest r;
         r.mutable_agent()->set_id(41);
         r.mutable_agent()->set_archetype("statue");
         setVec(r.mutable_agent()->mutable_position(), 3.4e38f, 3.4e38f, 0.f);
         return a.call(&Stub::SpawnAgent, r);
       },
       "agent.position: x 3.4e+38 is outside the world bounds (+-100000 m)"},
  };
  for (const AdminRow& row : rows) {
    INFO(row.category << ": " << row.error);
    const grpc::Status s = row.call(admin);
    CHECK(s.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(s.error_message() == row.error);
  }

  SECTION("Should keep ticking and accept the same calls with sane values") {
    const uint64_t before = tickNow(admin);
    REQUIRE(eventually([&] { return tickNow(admin) >= before + 3; }));
    CHECK(sendSignal(admin, 50.f).ok());
    CHECK(sightRange(admin, 40.f).ok());
    CHECK(program(admin, "Wait", 0, 10, "min").ok());
    v1::Stats stats;
    REQUIRE(admin.stats(&stats).ok());
    CHECK(stats.agents() == 1);  // the spawn outside the world left nothing behind
  }
}

TEST_CASE("Absurd numbers in a WorldUpdate are refused item by item", "[server][bounds]") {
  TestServer server;
  Admin admin(server.channel());
  StreamClient client(server.channel());
  REQUIRE(client.waitWelcome() != 0);

  const std::vector<StreamRow> rows = {
      {"NaN",
       [](v1::WorldUpdate& u) {
         setVec(addEntity(u, 900, v1::ENTITY_KIND_PLAYER, 0.f, 0.f)->mutable_position(), kNaN,
                0.f, 0.f);
       },
       "upserts[0] (id 900).position: must be finite"},
      {"inf", soundOf(kInf), "sounds[0].radius: must be finite and > 0"},
      {"huge", soundOf(1e30f), "sounds[0].radius: must be at most 2000 m (got 1e+30)"},
      {"huge", signalOf(1e30f), "signals[0].radius: must be at most 10000 m (got 1e+30)"},
      {"negative",
       [](v1::WorldUpdate& u) {
         v1::ActionResult* r = u.add_results();
         r->set_agent(kAgent);
         r->set_intention(1);
         r->set_progress(-1.f);
       },
       "results[0] (agent 40).progress: must be within 0..1"},
      {"out of world",
       [](v1::WorldUpdate& u) { addEntity(u, 901, v1::ENTITY_KIND_PLAYER, 3.4e38f, 3.4e38f); },
       "upserts[0] (id 901).position: x 3.4e+38 is outside the world bounds (+-100000 m)"},
  };
  uint64_t seq = 0;
  for (const StreamRow& row : rows) {
    INFO(row.category << ": " << row.error);
    v1::WorldUpdate u;
    u.set_seq(++seq);
    row.fill(u);
    REQUIRE(client.send(u));
    CHECK(client.waitError(seq, row.error));
  }

  SECTION("Should keep ticking, with none of the refused entities in the world") {
    const uint64_t before = tickNow(admin);
    REQUIRE(eventually([&] { return tickNow(admin) >= before + 3; }));
    v1::Stats stats;
    REQUIRE(admin.stats(&stats).ok());
    CHECK(stats.entities() == 0);
  }
}
