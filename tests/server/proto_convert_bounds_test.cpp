// Bounds in server/proto_convert (world/limits.h): every number a client or an admin call
// controls is refused above its bound, and every position outside the world's bounds, with
// the item and field named. One row per path.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "proto_convert.h"

using namespace npc;

namespace {

void setVec(v1::Vec3* v, float x, float y, float z) {
  v->set_x(x);
  v->set_y(y);
  v->set_z(z);
}

struct UpdateRow {
  const char* what;
  std::function<void(v1::WorldUpdate&)> fill;
  std::string error;
  std::string also = {};  // a second error, when one value breaks two rules
};

// One sound at (0, y, 0) of `radius`.
std::function<void(v1::WorldUpdate&)> sound(float y, float radius) {
  return [y, radius](v1::WorldUpdate& u) {
    v1::Sound* s = u.add_sounds();
    setVec(s->mutable_position(), 0.f, y, 0.f);
    s->set_radius(radius);
  };
}

}  // namespace

TEST_CASE("convertUpdate refuses values beyond their bounds, naming the field",
          "[proto_convert][bounds]") {
  const std::vector<UpdateRow> rows = {
      {"entity far outside the world",
       [](v1::WorldUpdate& u) {
         v1::Entity* e = u.add_upserts();
         e->set_id(5);
         e->set_kind(v1::ENTITY_KIND_OBJECT);
         setVec(e->mutable_position(), 3.4e38f, 3.4e38f, 0.f);
       },
       "upserts[0] (id 5).position: x 3.4e+38 is outside the world bounds (+-100000 m)"},
      {"entity below the world",
       [](v1::WorldUpdate& u) {
         v1::Entity* e = u.add_upserts();
         e->set_id(5);
         e->set_kind(v1::ENTITY_KIND_PLAYER);
         setVec(e->mutable_position(), 0.f, 0.f, -1e6f);
       },
       "upserts[0] (id 5).position: z -1e+06 is outside the world bounds (-10000..10000 m)"},
      {"absurd velocity",
       [](v1::WorldUpdate& u) {
         v1::Entity* e = u.add_upserts();
         e->set_id(5);
         e->set_kind(v1::ENTITY_KIND_PLAYER);
         setVec(e->mutable_velocity(), 0.f, -1e30f, 0.f);
       },
       "upserts[0] (id 5).velocity: must be at most 1000 m/s per axis (got 1e+30)"},
      {"absurd eye height",
       [](v1::WorldUpdate& u) {
         v1::Entity* e = u.add_upserts();
         e->set_id(5);
         e->set_kind(v1::ENTITY_KIND_PLAYER);
         e->set_eye_height(1e30f);
       },
       "upserts[0] (id 5).eye_height: must be at most 100 m (got 1e+30)"},
      {"huge obstacle",
       [](v1::WorldUpdate& u) {
         v1::Obstacle* o = u.add_obstacles();
         o->set_id(3);
         o->set_cover(v1::COVER_HARD);
         setVec(o->mutable_min(), -50000.f, 0.f, 0.f);
         setVec(o->mutable_max(), 50000.f, 1.f, 1.f);
       },
       "obstacles[0] (id 3).size: must be at most 1000 m (got 100000)"},
      {"obstacle outside the world",
       [](v1::WorldUpdate& u) {
         v1::Obstacle* o = u.add_obstacles();
         o->set_id(3);
         o->set_cover(v1::COVER_HARD);
         setVec(o->mutable_min(), 1e30f, 0.f, 0.f);
         setVec(o->mutable_max(), 1e30f, 1.f, 1.f);
       },
       "obstacles[0] (id 3).min: x 1e+30 is outside the world bounds (+-100000 m)",
       "obstacles[0] (id 3).max: x 1e+30 is outside the world bounds (+-100000 m)"},
      {"sound of radius 1e30", sound(0.f, 1e30f),
       "sounds[0].radius: must be at most 2000 m (got 1e+30)"},
      {"sound outside the world", sound(2e5f, 10.f),
       "sounds[0].position: y 200000 is outside the world bounds (+-100000 m)"},
      {"signal of radius 1e30",
       [](v1::WorldUpdate& u) {
         v1::Signal* s = u.add_signals();
         s->set_name("Alarm");
         s->set_radius(1e30f);
         setVec(s->mutable_position(), 0.f, 0.f, 0.f);
       },
       "signals[0].radius: must be at most 10000 m (got 1e+30)"},
      {"signal of absurd value",
       [](v1::WorldUpdate& u) {
         v1::Signal* s = u.add_signals();
         s->set_name("Alarm");
         s->set_target(9);
         s->set_value(-1e20f);
       },
       "signals[0].value: must be at most 1e+09 in magnitude (got 1e+20)"},
      {"game action delayed by 1e300 s",
       [](v1::WorldUpdate& u) {
         v1::GameAction* g = u.add_game_actions();
         g->set_agent(5);
         g->set_action("Die");
         g->set_delay_s(1e300);
       },
       "game_actions[0] (agent 5).delay_s: must be at most 604800 s (got 1e+300)"},
      {"game action aimed outside the world",
       [](v1::WorldUpdate& u) {
         v1::GameAction* g = u.add_game_actions();
         g->set_agent(5);
         g->set_action("Land");
         setVec(g->add_params()->mutable_position(), 0.f, 0.f, 1e20f);
       },
       "game_actions[0] (agent 5).params[0].position: z 1e+20 is outside the world bounds "
       "(-10000..10000 m)"},
  };
  for (const UpdateRow& row : rows) {
    INFO(row.what);
    v1::WorldUpdate u;
    row.fill(u);
    const ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);
    CHECK(out.commands.empty());
    std::vector<std::string> expected{row.error};
    if (!row.also.empty()) expected.push_back(row.also);
    CHECK(out.errors == expected);
  }
}

TEST_CASE("convertUpdate accepts values at their bounds and follows configured bounds",
          "[proto_convert][bounds]") {
  v1::WorldUpdate u;
  v1::Sound* s = u.add_sounds();
  setVec(s->mutable_position(), 100000.f, -100000.f, 10000.f);
  s->set_radius(2000.f);
  v1::Obstacle* o = u.add_obstacles();
  o->set_id(3);
  o->set_cover(v1::COVER_HARD);
  setVec(o->mutable_min(), 0.f, 0.f, 0.f);
  setVec(o->mutable_max(), 1000.f, 1000.f, 1000.f);

  SECTION("Should accept the limits themselves") {
    const ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);
    CHECK(out.errors.empty());
    CHECK(out.commands.size() == 2);
  }
  SECTION("Should refuse what lies outside smaller configured bounds") {
    const ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100, WorldBounds{500.0, 0.0, 100.0});
    CHECK(out.errors == std::vector<std::string>{
                            "obstacles[0] (id 3).max: x 1000 is outside the world bounds (+-500 m)",
                            "sounds[0].position: x 100000 is outside the world bounds (+-500 m)"});
  }
}

TEST_CASE("Admin requests refuse values beyond their bounds", "[proto_convert][bounds]") {
  std::vector<std::string> errors;

  SECTION("Should refuse SpawnAgent outside the world") {
    v1::Entity agent;
    agent.set_id(30);
    agent.set_archetype("villager");
    setVec(agent.mutable_position(), 3.4e38f, 3.4e38f, 0.f);
    EntityState state;
    CHECK_FALSE(toSpawnState(agent, state, errors));
    CHECK(errors == std::vector<std::string>{
                        "agent.position: x 3.4e+38 is outside the world bounds (+-100000 m)"});
  }
  SECTION("Should refuse SendSignal with a radius of 1e30") {
    v1::SendSignalRequest r;
    r.mutable_signal()->set_name("Alarm");
    r.mutable_signal()->set_radius(1e30f);
    setVec(r.mutable_signal()->mutable_position(), 0.f, 0.f, 0.f);
    SignalEvent c;
    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"signal.radius: must be at most 10000 m (got 1e+30)"});
  }
  SECTION("Should refuse SetSensors with a sight range of 1e30 or a hearing scale of 1e9") {
    v1::SetSensorsRequest r;
    r.set_agent(7);
    r.set_sight_range(1e30f);
    r.set_hearing_scale(1e9f);
    SetSensors c;
    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"sight_range: must be at most 1000 m (got 1e+30)",
                                             "hearing_scale: must be at most 10 (got 1e+09)"});
  }
  SECTION("Should refuse a visibility multiplier of 1e30") {
    v1::RegisterVisibilityTypeRequest r;
    r.set_type("torch");
    r.set_multiplier(1e30f);
    RegisterVisibilityType c;
    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"multiplier: must be at most 100 (got 1e+30)"});
  }
  SECTION("Should refuse ProgramIntention and WakePlace delays of 1e300 s") {
    v1::ProgramIntentionRequest p;
    p.set_agent(7);
    p.set_action("Wait");
    p.set_delay_s(1e300);
    ProgramIntention c;
    CHECK_FALSE(toCommand(p, c, errors));
    v1::WakePlaceRequest w;
    w.set_place("bakery");
    w.set_delay_s(1e300);
    WakePlace wake;
    CHECK_FALSE(toCommand(w, wake, errors));
    CHECK(errors == std::vector<std::string>{"delay_s: must be at most 604800 s (got 1e+300)",
                                             "delay_s: must be at most 604800 s (got 1e+300)"});
  }
  SECTION("Should refuse a ProgramIntention position outside the world") {
    v1::ProgramIntentionRequest p;
    p.set_agent(7);
    p.set_action("Go");
    setVec(p.add_params()->mutable_position(), -3e5f, 0.f, 0.f);
    ProgramIntention c;
    CHECK_FALSE(toCommand(p, c, errors));
    CHECK(errors == std::vector<std::string>{
                        "params[0].position: x -300000 is outside the world bounds (+-100000 m)"});
  }
}
