// Tests for server/proto_convert: protobuf <-> core conversions and the errors a client
// sees for bad input (their exact text is part of the API).
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <catch2/catch.hpp>

#include "proto_convert.h"

using namespace npc;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

void setVec(v1::Vec3* v, float x, float y, float z) {
  v->set_x(x);
  v->set_y(y);
  v->set_z(z);
}

v1::Entity* addNpc(v1::WorldUpdate& u, uint64_t id, const std::string& archetype = "villager") {
  v1::Entity* e = u.add_upserts();
  e->set_id(id);
  e->set_kind(v1::ENTITY_KIND_NPC);
  e->set_archetype(archetype);
  setVec(e->mutable_position(), 1.f, 2.f, 0.f);
  return e;
}

template <class T>
const T& bodyAs(const Command& c) {
  REQUIRE(std::holds_alternative<T>(c.body));
  return std::get<T>(c.body);
}

}  // namespace

TEST_CASE("convertUpdate turns valid items into commands", "[proto_convert]") {
  v1::WorldUpdate u;
  u.set_seq(42);

  SECTION("Should copy every entity field and stamp origin and seq") {
    v1::Entity* e = addNpc(u, 17);
    e->set_species("elf");
    setVec(e->mutable_forward(), 0.f, 1.f, 0.f);
    setVec(e->mutable_velocity(), 0.5f, 0.f, 0.f);
    e->set_eye_height(1.5f);
    e->set_active(false);
    e->set_place("square");

    ConvertedUpdate out = convertUpdate(u, ClientId{3}, 100);

    CHECK(out.errors.empty());
    REQUIRE(out.commands.size() == 1);
    CHECK(out.commands[0].origin == ClientId{3});
    CHECK(out.commands[0].seq == 42);
    const EntityState& s = bodyAs<UpsertEntity>(out.commands[0]).state;
    CHECK(s.id == EntityId{17});
    CHECK(s.kind == EntityKind::kNpc);
    CHECK(s.species == "elf");
    CHECK(s.archetype == "villager");
    CHECK(s.place == "square");
    REQUIRE(s.position);
    CHECK(*s.position == Vec3{1.f, 2.f, 0.f});
    REQUIRE(s.forward);
    CHECK(*s.forward == Vec3{0.f, 1.f, 0.f});
    REQUIRE(s.velocity);
    CHECK(*s.velocity == Vec3{0.5f, 0.f, 0.f});
    REQUIRE(s.eye_height_m);
    CHECK(*s.eye_height_m == 1.5f);
    REQUIRE(s.active);
    CHECK_FALSE(*s.active);
  }

  SECTION("Should leave unset optional fields empty so they keep their current value") {
    v1::Entity* e = u.add_upserts();
    e->set_id(5);
    e->set_kind(v1::ENTITY_KIND_PLAYER);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.commands.size() == 1);
    const EntityState& s = bodyAs<UpsertEntity>(out.commands[0]).state;
    CHECK(s.kind == EntityKind::kPlayer);
    CHECK_FALSE(s.position);
    CHECK_FALSE(s.forward);
    CHECK_FALSE(s.velocity);
    CHECK_FALSE(s.eye_height_m);
    CHECK_FALSE(s.active);
  }

  SECTION("Should keep field order: upserts, removals, obstacles, sounds, signals, results") {
    v1::ActionResult* r = u.add_results();
    r->set_agent(9);
    r->set_intention(4);
    r->set_outcome(v1::ActionResult::OUTCOME_FAILED);
    r->set_reason("blocked");
    v1::Signal* sig = u.add_signals();
    sig->set_target(9);
    sig->set_name("alarm");
    v1::Sound* snd = u.add_sounds();
    snd->set_source(2);
    setVec(snd->mutable_position(), 1.f, 1.f, 0.f);
    snd->set_radius(12.f);
    snd->set_kind("gunshot");
    u.add_obstacle_removals(8);
    v1::Obstacle* o = u.add_obstacles();
    o->set_id(4);
    setVec(o->mutable_min(), 0.f, 0.f, 0.f);
    setVec(o->mutable_max(), 1.f, 2.f, 3.f);
    o->set_cover(v1::COVER_SOFT);
    u.add_removals(6);
    addNpc(u, 1);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK(out.errors.empty());
    REQUIRE(out.commands.size() == 7);
    CHECK(std::holds_alternative<UpsertEntity>(out.commands[0].body));
    CHECK(bodyAs<RemoveEntity>(out.commands[1]).id == EntityId{6});
    const Obstacle& ob = bodyAs<UpsertObstacle>(out.commands[2]).obstacle;
    CHECK(ob.id == ObstacleId{4});
    CHECK(ob.box.max == Vec3{1.f, 2.f, 3.f});
    CHECK(ob.cover == Cover::kSoft);
    CHECK(bodyAs<RemoveObstacle>(out.commands[3]).id == ObstacleId{8});
    const SoundEvent& sound = bodyAs<SoundEvent>(out.commands[4]);
    CHECK(sound.source == EntityId{2});
    CHECK(sound.radius_m == 12.f);
    CHECK(sound.kind == "gunshot");
    CHECK(bodyAs<SignalEvent>(out.commands[5]).name == "alarm");
    const ActionResult& result = bodyAs<ActionResult>(out.commands[6]);
    CHECK(result.agent == EntityId{9});
    CHECK(result.intention == IntentionId{4});
    CHECK(result.outcome == ActionOutcome::kFailed);
    CHECK(result.reason == "blocked");
  }
}

TEST_CASE("convertUpdate names the item and field of every bad entity", "[proto_convert]") {
  v1::WorldUpdate u;
  u.set_seq(7);

  SECTION("Should drop only the bad item and keep the valid ones of the same update") {
    addNpc(u, 10);
    addNpc(u, 11);
    setVec(addNpc(u, 17)->mutable_position(), kNaN, 0.f, 0.f);
    addNpc(u, 12);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 1);
    CHECK(out.errors[0] == "upserts[2] (id 17).position: must be finite");
    REQUIRE(out.commands.size() == 3);
    CHECK(bodyAs<UpsertEntity>(out.commands[2]).state.id == EntityId{12});
  }

  SECTION("Should refuse id 0 without inventing an id label") {
    addNpc(u, 1);
    addNpc(u, 0);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 1);
    CHECK(out.errors[0] == "upserts[1]: id must not be 0");
    CHECK(out.commands.size() == 1);
  }

  SECTION("Should require a kind and name unknown kind values") {
    addNpc(u, 1);
    addNpc(u, 2);
    addNpc(u, 3);
    addNpc(u, 4)->set_kind(v1::ENTITY_KIND_UNSPECIFIED);
    addNpc(u, 5)->set_kind(static_cast<v1::EntityKind>(42));

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 2);
    CHECK(out.errors[0] == "upserts[3] (id 4).kind: must be set");
    CHECK(out.errors[1] == "upserts[4] (id 5).kind: unknown value 42");
  }

  SECTION("Should check every float for NaN and infinity") {
    v1::Entity* e = addNpc(u, 8);
    setVec(e->mutable_forward(), kInf, 0.f, 0.f);
    setVec(e->mutable_velocity(), 0.f, kNaN, 0.f);
    e->set_eye_height(kNaN);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 3);
    CHECK(out.errors[0] == "upserts[0] (id 8).forward: must be a finite, non-zero direction");
    CHECK(out.errors[1] == "upserts[0] (id 8).velocity: must be finite");
    CHECK(out.errors[2] == "upserts[0] (id 8).eye_height: must be finite and >= 0");
    CHECK(out.commands.empty());
  }

  SECTION("Should refuse a zero forward and a negative eye height") {
    v1::Entity* e = addNpc(u, 8);
    setVec(e->mutable_forward(), 0.f, 0.f, 0.f);
    e->set_eye_height(-1.f);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 2);
    CHECK(out.errors[0] == "upserts[0] (id 8).forward: must be a finite, non-zero direction");
    CHECK(out.errors[1] == "upserts[0] (id 8).eye_height: must be finite and >= 0");
  }

  SECTION("Should refuse names longer than 256 bytes and say how long they were") {
    v1::Entity* e = addNpc(u, 8);
    e->set_species(std::string(300, 's'));
    e->set_place(std::string(257, 'p'));
    e->set_archetype(std::string(1000, 'a'));

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 3);
    CHECK(out.errors[0] == "upserts[0] (id 8).species: must be at most 256 bytes (got 300)");
    CHECK(out.errors[1] == "upserts[0] (id 8).place: must be at most 256 bytes (got 257)");
    CHECK(out.errors[2] == "upserts[0] (id 8).archetype: must be at most 256 bytes (got 1000)");
  }

  SECTION("Should accept a name of exactly 256 bytes") {
    addNpc(u, 8)->set_species(std::string(256, 's'));

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK(out.errors.empty());
    CHECK(out.commands.size() == 1);
  }
}

TEST_CASE("convertUpdate names bad obstacles, removals, stimuli and results", "[proto_convert]") {
  v1::WorldUpdate u;

  SECTION("Should refuse an obstacle whose min exceeds its max") {
    v1::Obstacle* o = u.add_obstacles();
    o->set_id(4);
    o->set_cover(v1::COVER_HARD);
    setVec(o->mutable_min(), 0.f, 5.f, 0.f);
    setVec(o->mutable_max(), 1.f, 1.f, 1.f);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 1);
    CHECK(out.errors[0] == "obstacles[0] (id 4): min must be <= max");
    CHECK(out.commands.empty());
  }

  SECTION("Should refuse obstacles with id 0, missing or non-finite corners") {
    v1::Obstacle* zero = u.add_obstacles();
    zero->set_cover(v1::COVER_HARD);
    setVec(zero->mutable_min(), 0.f, 0.f, 0.f);
    setVec(zero->mutable_max(), 1.f, 1.f, 1.f);
    v1::Obstacle* missing = u.add_obstacles();
    missing->set_id(5);
    missing->set_cover(v1::COVER_SOFT);
    setVec(missing->mutable_max(), 1.f, 1.f, 1.f);
    v1::Obstacle* nan = u.add_obstacles();
    nan->set_id(6);
    nan->set_cover(v1::COVER_HARD);
    setVec(nan->mutable_min(), 0.f, 0.f, 0.f);
    setVec(nan->mutable_max(), 1.f, kNaN, 1.f);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 3);
    CHECK(out.errors[0] == "obstacles[0]: id must not be 0");
    CHECK(out.errors[1] == "obstacles[1] (id 5).min: must be set");
    CHECK(out.errors[2] == "obstacles[2] (id 6).max: must be finite");
  }

  SECTION("Should refuse removals of id 0 by index") {
    u.add_removals(3);
    u.add_removals(0);
    u.add_obstacle_removals(0);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 2);
    CHECK(out.errors[0] == "removals[1]: id must not be 0");
    CHECK(out.errors[1] == "obstacle_removals[0]: id must not be 0");
    CHECK(out.commands.size() == 1);
  }

  SECTION("Should refuse progress outside 0..1, id 0 agents and intentions") {
    v1::ActionResult* r = u.add_results();
    r->set_agent(5);
    r->set_intention(2);
    r->set_outcome(v1::ActionResult::OUTCOME_PROGRESS);
    r->set_progress(1.5f);
    v1::ActionResult* nan = u.add_results();
    nan->set_agent(5);
    nan->set_intention(2);
    nan->set_outcome(v1::ActionResult::OUTCOME_PROGRESS);
    nan->set_progress(kNaN);
    v1::ActionResult* zero = u.add_results();
    zero->set_intention(0);
    zero->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 4);
    CHECK(out.errors[0] == "results[0] (agent 5).progress: must be within 0..1");
    CHECK(out.errors[1] == "results[1] (agent 5).progress: must be within 0..1");
    CHECK(out.errors[2] == "results[2]: agent must not be 0");
    CHECK(out.errors[3] == "results[2].intention: must not be 0");
    CHECK(out.commands.empty());
  }

  SECTION("Should refuse an obstacle without its cover and a result without its outcome") {
    // Their zero values are UNSPECIFIED: a forgotten field is an error, not hard cover or
    // a completed action.
    v1::Obstacle* o = u.add_obstacles();
    o->set_id(7);
    setVec(o->mutable_min(), 0.f, 0.f, 0.f);
    setVec(o->mutable_max(), 1.f, 1.f, 1.f);
    v1::ActionResult* r = u.add_results();
    r->set_agent(5);
    r->set_intention(2);
    v1::ActionResult* unknown = u.add_results();
    unknown->set_agent(5);
    unknown->set_intention(3);
    unknown->set_outcome(static_cast<v1::ActionResult::Outcome>(9));

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 3);
    CHECK(out.errors[0] == "obstacles[0] (id 7).cover: must be set");
    CHECK(out.errors[1] == "results[0] (agent 5).outcome: must be set");
    CHECK(out.errors[2] == "results[1] (agent 5).outcome: unknown value 9");
    CHECK(out.commands.empty());
  }

  SECTION("Should take each outcome and cover as named") {
    for (auto cover : {v1::COVER_HARD, v1::COVER_SOFT}) {
      v1::Obstacle* o = u.add_obstacles();
      o->set_id(10 + cover);
      o->set_cover(cover);
      setVec(o->mutable_min(), 0.f, 0.f, 0.f);
      setVec(o->mutable_max(), 1.f, 1.f, 1.f);
    }
    for (auto outcome : {v1::ActionResult::OUTCOME_COMPLETED, v1::ActionResult::OUTCOME_FAILED,
                         v1::ActionResult::OUTCOME_PROGRESS}) {
      v1::ActionResult* r = u.add_results();
      r->set_agent(5);
      r->set_intention(outcome);
      r->set_outcome(outcome);
    }

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.empty());
    REQUIRE(out.commands.size() == 5);
    CHECK(bodyAs<UpsertObstacle>(out.commands[0]).obstacle.cover == Cover::kHard);
    CHECK(bodyAs<UpsertObstacle>(out.commands[1]).obstacle.cover == Cover::kSoft);
    CHECK(bodyAs<ActionResult>(out.commands[2]).outcome == ActionOutcome::kCompleted);
    CHECK(bodyAs<ActionResult>(out.commands[3]).outcome == ActionOutcome::kFailed);
    CHECK(bodyAs<ActionResult>(out.commands[4]).outcome == ActionOutcome::kProgress);
  }

  SECTION("Should refuse sounds with a bad radius and signals without a name or target") {
    v1::Sound* s = u.add_sounds();
    setVec(s->mutable_position(), 0.f, 0.f, 0.f);
    s->set_radius(-1.f);
    v1::Signal* sig = u.add_signals();
    sig->set_name("");

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 3);
    CHECK(out.errors[0] == "sounds[0].radius: must be finite and > 0");
    CHECK(out.errors[1] == "signals[0].name: must be set");
    CHECK(out.errors[2] ==
          "signals[0]: one of target, place, species, group, group_name or radius must be set");
  }
}

TEST_CASE("convertUpdate bounds the size of an update and of its error list", "[proto_convert]") {
  v1::WorldUpdate u;

  SECTION("Should refuse the whole update when it has more items than the limit") {
    for (uint64_t id = 1; id <= 6; ++id) addNpc(u, id);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 5);

    CHECK(out.refused);
    CHECK(out.commands.empty());
    REQUIRE(out.errors.size() == 1);
    CHECK(out.errors[0] == "update: 6 items exceed the limit of 5 per update; nothing was applied");
  }

  SECTION("Should accept exactly the limit") {
    for (uint64_t id = 1; id <= 5; ++id) addNpc(u, id);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 5);

    CHECK_FALSE(out.refused);
    CHECK(out.commands.size() == 5);
  }

  SECTION("Should report at most 64 errors and summarise the rest") {
    for (int i = 0; i < 100; ++i) u.add_removals(0);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 1000);

    REQUIRE(out.errors.size() == kMaxErrorsPerUpdate + 1);
    CHECK(out.errors[63] == "removals[63]: id must not be 0");
    CHECK(out.errors[64] == "update: 36 more errors not shown");
  }
}

TEST_CASE("convertUpdate reads a subscription", "[proto_convert]") {
  v1::WorldUpdate u;
  v1::Subscription* sub = u.mutable_subscribe();

  SECTION("Should carry places, event kinds and observe_all_actions") {
    sub->add_places("square");
    sub->add_events(v1::EVENT_KIND_AGENT_SPAWNED);
    sub->add_events(v1::EVENT_KIND_BEHAVIOR);
    sub->set_observe_all_actions(true);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK(out.errors.empty());
    REQUIRE(out.subscription);
    CHECK(out.subscription->places == std::vector<std::string>{"square"});
    CHECK(out.subscription->observe_all_actions);
    CHECK(out.subscription->wantsEvent(EventKind::kAgentSpawned));
    CHECK(out.subscription->wantsEvent(EventKind::kBehavior));
    CHECK_FALSE(out.subscription->wantsEvent(EventKind::kAgentDespawned));
    CHECK_FALSE(out.subscription->wantsEvent(EventKind::kStealth));
  }

  SECTION("Should select stealth events like any other kind") {
    sub->add_events(v1::EVENT_KIND_STEALTH);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK(out.errors.empty());
    REQUIRE(out.subscription);
    CHECK(out.subscription->wantsEvent(EventKind::kStealth));
    CHECK_FALSE(out.subscription->wantsEvent(EventKind::kBehavior));
  }

  SECTION("Should mean every event kind when none is listed") {
    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.subscription);
    CHECK(out.subscription->wantsEvent(EventKind::kIntentionFailed));
  }

  SECTION("Should refuse unspecified or unknown kinds and keep the old filter") {
    sub->add_events(v1::EVENT_KIND_UNSPECIFIED);
    sub->add_events(static_cast<v1::EventKind>(99));
    sub->add_places("");

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK_FALSE(out.subscription);
    REQUIRE(out.errors.size() == 3);
    CHECK(out.errors[0] == "subscribe.places[0]: must not be empty");
    CHECK(out.errors[1] == "subscribe.events[0]: must not be EVENT_KIND_UNSPECIFIED");
    CHECK(out.errors[2] == "subscribe.events[1]: unknown value 99");
  }

  SECTION("Should leave the filter alone when the update has no subscription") {
    u.clear_subscribe();

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK_FALSE(out.subscription);
  }
}

TEST_CASE("Kind enums map both ways", "[proto_convert]") {
  SECTION("Should round-trip every entity kind") {
    for (EntityKind k : {EntityKind::kNpc, EntityKind::kPlayer, EntityKind::kObject,
                         EntityKind::kAttribute}) {
      CHECK(fromProto(toProto(k)) == k);
    }
    CHECK(toProto(EntityKind::kNpc) == v1::ENTITY_KIND_NPC);
    CHECK(toProto(EntityKind::kAttribute) == v1::ENTITY_KIND_ATTRIBUTE);
  }

  SECTION("Should round-trip every event kind") {
    for (EventKind k : {EventKind::kError, EventKind::kAgentSpawned, EventKind::kAgentDespawned,
                        EventKind::kIntentionCompleted, EventKind::kIntentionFailed,
                        EventKind::kBehavior, EventKind::kStealth}) {
      CHECK(fromProto(toProto(k)) == k);
    }
    CHECK(toProto(EventKind::kIntentionCompleted) == v1::EVENT_KIND_INTENTION_COMPLETED);
    CHECK(toProto(EventKind::kStealth) == v1::EVENT_KIND_STEALTH);
  }

  SECTION("Should map unspecified and unknown values to nothing") {
    CHECK_FALSE(fromProto(v1::ENTITY_KIND_UNSPECIFIED));
    CHECK_FALSE(fromProto(static_cast<v1::EntityKind>(77)));
    CHECK_FALSE(fromProto(v1::EVENT_KIND_UNSPECIFIED));
    CHECK_FALSE(fromProto(static_cast<v1::EventKind>(77)));
  }
}

TEST_CASE("toSpawnState applies the SpawnAgent rules", "[proto_convert]") {
  v1::Entity agent;
  agent.set_id(30);
  agent.set_archetype("villager");
  setVec(agent.mutable_position(), 3.f, 4.f, 0.f);
  std::vector<std::string> errors;
  EntityState state;

  SECTION("Should treat an unspecified kind as NPC") {
    REQUIRE(toSpawnState(agent, state, errors));
    CHECK(errors.empty());
    CHECK(state.id == EntityId{30});
    CHECK(state.kind == EntityKind::kNpc);
    CHECK(state.archetype == "villager");
    CHECK(*state.position == Vec3{3.f, 4.f, 0.f});
  }

  SECTION("Should refuse any kind but NPC") {
    agent.set_kind(v1::ENTITY_KIND_PLAYER);

    CHECK_FALSE(toSpawnState(agent, state, errors));
    CHECK(errors == std::vector<std::string>{"agent.kind: must be ENTITY_KIND_NPC or unset"});
  }

  SECTION("Should require position and archetype") {
    agent.clear_position();
    agent.clear_archetype();

    CHECK_FALSE(toSpawnState(agent, state, errors));
    CHECK(errors == std::vector<std::string>{"agent.position: is required",
                                             "agent.archetype: is required"});
  }

  SECTION("Should run the field checks of every entity") {
    agent.set_id(0);
    setVec(agent.mutable_position(), kNaN, 0.f, 0.f);

    CHECK_FALSE(toSpawnState(agent, state, errors));
    CHECK(errors ==
          std::vector<std::string>{"agent: id must not be 0", "agent.position: must be finite"});
  }
}

TEST_CASE("Outbound actions and events carry names, not interned indices", "[proto_convert]") {
  World world;
  REQUIRE(world.addPlace("square", Aabb{{0.f, 0.f, 0.f}, {10.f, 10.f, 10.f}}));
  NameTable<ActionNameId> names;
  const ActionNameId greet = names.intern("Greet");
  const ActionNameId target = names.intern("target");
  const ActionNameId duration = names.intern("duration");
  const ActionNameId seconds = names.intern("s");
  const ActionNameId goal = names.intern("goal");
  const ActionNameId mood = names.intern("mood");
  const ActionNameId happy = names.intern("happy");

  SECTION("Should convert an action with every parameter type") {
    ActionOut a;
    a.agent = EntityId{5};
    a.intention = IntentionId{12};
    a.place = world.findPlace("square");
    a.name = greet;
    a.param_count = 4;
    auto param = [](ActionParam::Type type, ActionNameId name) {
      ActionParam p;
      p.type = type;
      p.name = name;
      return p;
    };
    a.params[0] = param(ActionParam::Type::kEntity, target);
    a.params[0].entity = EntityId{99};
    a.params[1] = param(ActionParam::Type::kNumber, duration);
    a.params[1].unit = seconds;
    a.params[1].number = 2.5;
    a.params[2] = param(ActionParam::Type::kPosition, goal);
    a.params[2].position = Vec3{1.f, 2.f, 3.f};
    a.params[3] = param(ActionParam::Type::kText, mood);
    a.params[3].text = happy;

    v1::Action out;
    toProto(a, names, world, out);

    CHECK(out.agent() == 5);
    CHECK(out.intention() == 12);
    CHECK(out.name() == "Greet");
    CHECK(out.place() == "square");
    REQUIRE(out.params_size() == 4);
    CHECK(out.params(0).name() == "target");
    CHECK(out.params(0).entity() == 99);
    CHECK(out.params(1).name() == "duration");
    CHECK(out.params(1).number() == 2.5);
    CHECK(out.params(1).unit() == "s");
    CHECK(out.params(2).position().z() == 3.f);
    CHECK(out.params(3).text() == "happy");
  }

  SECTION("Should convert an event and leave the place empty when it has none") {
    EventOut e;
    e.kind = EventKind::kIntentionFailed;
    e.agent = EntityId{5};
    e.seq = 3;
    e.text = "blocked";

    v1::Event out;
    toProto(e, world, out);

    CHECK(out.kind() == v1::EVENT_KIND_INTENTION_FAILED);
    CHECK(out.agent() == 5);
    CHECK(out.place().empty());
    CHECK(out.seq() == 3);
    CHECK(out.text() == "blocked");

    e.place = world.findPlace("square");
    toProto(e, world, out);
    CHECK(out.place() == "square");
    CHECK(out.subject() == 0);
    CHECK(out.value() == 0.f);
  }

  SECTION("Should carry a stealth event's player as subject and its meter as value") {
    EventOut e;
    e.kind = EventKind::kStealth;
    e.agent = EntityId{5};
    e.subject = EntityId{40};
    e.value = 7.5f;
    e.place = world.findPlace("square");

    v1::Event out;
    toProto(e, world, out);

    CHECK(out.kind() == v1::EVENT_KIND_STEALTH);
    CHECK(out.agent() == 5);
    CHECK(out.subject() == 40);
    CHECK(out.value() == 7.5f);
    CHECK(out.place() == "square");
  }
}

TEST_CASE("convertUpdate accepts only the sound kinds core knows", "[proto_convert]") {
  v1::WorldUpdate u;
  auto addSound = [&](const std::string& kind) {
    v1::Sound* s = u.add_sounds();
    setVec(s->mutable_position(), 1.f, 2.f, 0.f);
    s->set_radius(10.f);
    s->set_kind(kind);
    return s;
  };

  SECTION("Should accept every kind and an empty one, and carry threat when set") {
    for (const char* kind :
         {"", "generic", "footstep", "collision", "gunshot", "explosion", "bullet_impact"}) {
      addSound(kind);
    }
    addSound("gunshot")->set_threat(0.25f);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK(out.errors.empty());
    REQUIRE(out.commands.size() == 8);
    CHECK(bodyAs<SoundEvent>(out.commands[0]).kind.empty());
    CHECK(bodyAs<SoundEvent>(out.commands[6]).kind == "bullet_impact");
    CHECK(bodyAs<SoundEvent>(out.commands[6]).threat < 0.f);  // the kind's default
    CHECK(bodyAs<SoundEvent>(out.commands[7]).threat == 0.25f);
  }

  SECTION("Should name an unknown kind and list the accepted ones") {
    addSound("x");

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 1);
    CHECK(out.errors[0] == "sounds[0].kind: \"x\" is not a sound kind (generic, footstep, "
                           "collision, gunshot, explosion, bullet_impact)");
    CHECK(out.commands.empty());
  }

  SECTION("Should refuse a threat outside 0..1, NaN, and a radius of 0") {
    addSound("gunshot")->set_threat(1.5f);
    addSound("gunshot")->set_threat(kNaN);
    addSound("gunshot")->set_threat(-0.1f);
    addSound("gunshot")->set_radius(0.f);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 4);
    CHECK(out.errors[0] == "sounds[0].threat: must be within 0..1");
    CHECK(out.errors[1] == "sounds[1].threat: must be within 0..1");
    CHECK(out.errors[2] == "sounds[2].threat: must be within 0..1");
    CHECK(out.errors[3] == "sounds[3].radius: must be finite and > 0");
    CHECK(out.commands.empty());
  }
}

TEST_CASE("Signals name their receivers by one scope field", "[proto_convert]") {
  v1::WorldUpdate u;
  auto addSignal = [&]() {
    v1::Signal* s = u.add_signals();
    s->set_name("OnAlarm");
    return s;
  };

  SECTION("Should copy every field, whichever scope comes first") {
    v1::Signal* s = addSignal();
    s->set_target(9);
    s->set_place("square");
    s->set_species("wolf");
    s->set_group(65535);
    s->set_radius(12.f);
    setVec(s->mutable_position(), 1.f, 2.f, 3.f);
    s->set_value(0.5f);
    s->set_sender(4);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK(out.errors.empty());
    REQUIRE(out.commands.size() == 1);
    const SignalEvent& e = bodyAs<SignalEvent>(out.commands[0]);
    CHECK(e.name == "OnAlarm");
    CHECK(e.target == EntityId{9});
    CHECK(e.place == "square");
    CHECK(e.species == "wolf");
    CHECK(raw(e.group) == 65535);
    CHECK(e.radius_m == 12.f);
    CHECK(e.position == Vec3{1.f, 2.f, 3.f});
    CHECK(e.value == 0.5f);
    CHECK(e.sender == EntityId{4});
    CHECK_FALSE(e.reply);
  }

  SECTION("Should accept each scope on its own") {
    addSignal()->set_target(9);
    addSignal()->set_place("square");
    addSignal()->set_species("wolf");
    addSignal()->set_group(3);
    addSignal()->set_group_name("north_watch");
    v1::Signal* around = addSignal();
    around->set_radius(5.f);
    setVec(around->mutable_position(), 0.f, 0.f, 0.f);

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    CHECK(out.errors.empty());
    REQUIRE(out.commands.size() == 6);
    CHECK(bodyAs<SignalEvent>(out.commands[4]).group_name == "north_watch");
  }

  SECTION("Should require a scope, a group that fits 16 bits and a position with a radius") {
    addSignal();
    addSignal()->set_group(65536);
    addSignal()->set_radius(5.f);
    addSignal()->set_group_name(std::string(300, 'g'));

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 4);
    CHECK(out.errors[0] ==
          "signals[0]: one of target, place, species, group, group_name or radius must be set");
    CHECK(out.errors[1] == "signals[1].group: must be at most 65535 (got 65536)");
    CHECK(out.errors[2] == "signals[2].position: must be set with radius");
    CHECK(out.errors[3] == "signals[3].group_name: must be at most 256 bytes (got 300)");
    CHECK(out.commands.empty());
  }

  SECTION("Should refuse non-finite radius, position and value, and over-long names") {
    v1::Signal* s = addSignal();
    s->set_target(9);
    s->set_radius(kInf);
    setVec(s->mutable_position(), kNaN, 0.f, 0.f);
    s->set_value(kNaN);
    s->set_species(std::string(300, 's'));

    ConvertedUpdate out = convertUpdate(u, ClientId{1}, 100);

    REQUIRE(out.errors.size() == 4);
    CHECK(out.errors[0] == "signals[0].species: must be at most 256 bytes (got 300)");
    CHECK(out.errors[1] == "signals[0].radius: must be finite and >= 0");
    CHECK(out.errors[2] == "signals[0].position: must be finite");
    CHECK(out.errors[3] == "signals[0].value: must be finite");
  }

  SECTION("Should label the errors of a SendSignal request \"signal\"") {
    v1::SendSignalRequest request;
    request.mutable_signal()->set_place("square");
    SignalEvent e;
    std::vector<std::string> errors;

    CHECK_FALSE(toCommand(request, e, errors));
    CHECK(errors == std::vector<std::string>{"signal.name: must be set"});

    request.mutable_signal()->set_name("OnAlarm");
    errors.clear();
    REQUIRE(toCommand(request, e, errors));
    CHECK(e.place == "square");
    CHECK(e.name == "OnAlarm");
  }
}

TEST_CASE("Admin requests become commands or name their bad fields", "[proto_convert]") {
  std::vector<std::string> errors;

  SECTION("Should copy the sensors that are set and leave the others unchanged") {
    v1::SetSensorsRequest r;
    r.set_agent(7);
    r.set_vision(false);
    r.set_fov_deg(360.f);
    r.set_hearing_scale(0.f);
    SetSensors c;

    REQUIRE(toCommand(r, c, errors));
    CHECK(c.agent == EntityId{7});
    CHECK(c.vision == std::optional<bool>(false));
    CHECK_FALSE(c.hearing);
    CHECK_FALSE(c.signals);
    CHECK_FALSE(c.sight_range_m);
    CHECK(c.fov_deg == std::optional<float>(360.f));
    CHECK(c.hearing_scale == std::optional<float>(0.f));
  }

  SECTION("Should refuse sensor values out of range") {
    v1::SetSensorsRequest r;
    r.set_sight_range(-1.f);
    r.set_fov_deg(0.f);
    r.set_hearing_scale(kInf);
    SetSensors c;

    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"agent: must not be 0",
                                             "sight_range: must be finite and >= 0",
                                             "fov_deg: must be within (0, 360]",
                                             "hearing_scale: must be finite and >= 0"});
    for (float fov : {360.5f, kNaN, kInf}) {
      errors.clear();
      r.set_agent(7);
      r.clear_sight_range();
      r.clear_hearing_scale();
      r.set_fov_deg(fov);
      CHECK_FALSE(toCommand(r, c, errors));
      CHECK(errors == std::vector<std::string>{"fov_deg: must be within (0, 360]"});
    }
  }

  SECTION("Should require the agent and variable name of SetBehaviorVariable") {
    v1::SetBehaviorVariableRequest r;
    r.set_agent(7);
    r.set_name("Alarm");
    r.set_value(true);
    SetBehaviorVariable c;
    REQUIRE(toCommand(r, c, errors));
    CHECK(c.agent == EntityId{7});
    CHECK(c.name == "Alarm");
    CHECK(c.value);

    r.set_agent(0);
    r.set_name(std::string(257, 'v'));
    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"agent: must not be 0",
                                             "name: must be at most 256 bytes (got 257)"});
    errors.clear();
    r.set_agent(7);
    r.clear_name();
    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"name: must be set"});
  }

  SECTION("Should default a visibility multiplier to 1 and refuse one that is not > 0") {
    v1::RegisterVisibilityTypeRequest r;
    r.set_type("grenade");
    r.set_use_coefficient(true);
    RegisterVisibilityType c;
    REQUIRE(toCommand(r, c, errors));
    CHECK(c.type == "grenade");
    CHECK(c.multiplier == 1.f);
    CHECK(c.use_coefficient);
    CHECK_FALSE(c.neutral);
    CHECK_FALSE(c.remove);
    r.set_neutral(true);
    REQUIRE(toCommand(r, c, errors));
    CHECK(c.neutral);

    r.set_multiplier(2.5f);
    r.set_remove(true);
    REQUIRE(toCommand(r, c, errors));
    CHECK(c.multiplier == 2.5f);
    CHECK(c.remove);

    for (float m : {0.f, -1.f, kNaN, kInf}) {
      errors.clear();
      r.set_multiplier(m);
      CHECK_FALSE(toCommand(r, c, errors));
      CHECK(errors == std::vector<std::string>{"multiplier: must be finite and > 0"});
    }
    errors.clear();
    r.clear_multiplier();
    r.clear_type();
    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"type: must be set"});
  }

  SECTION("Should require an attribute and let principal 0 remove the link") {
    v1::SetAttributePrincipalRequest r;
    r.set_attribute(12);
    SetAttributePrincipal c;
    REQUIRE(toCommand(r, c, errors));
    CHECK(c.attribute == EntityId{12});
    CHECK(c.principal == EntityId::kNone);

    r.set_attribute(0);
    r.set_principal(3);
    CHECK_FALSE(toCommand(r, c, errors));
    CHECK(errors == std::vector<std::string>{"attribute: must not be 0"});
  }

  SECTION("Should refuse id 0 for a player, a despawn and a describe") {
    v1::GetStealthMeterRequest stealth;
    GetStealth g;
    CHECK_FALSE(toCommand(stealth, g, errors));
    stealth.set_player(40);
    REQUIRE(toCommand(stealth, g, errors));
    CHECK(g.player == EntityId{40});
    DespawnAgent d;
    CHECK_FALSE(toCommand(v1::DespawnAgentRequest(), d, errors));
    DescribeAgent a;
    CHECK_FALSE(toCommand(v1::GetAgentRequest(), a, errors));
    CHECK(errors == std::vector<std::string>{"player: must not be 0", "id: must not be 0",
                                             "id: must not be 0"});
  }

  SECTION("Should accept ReloadDefinitions, which has no fields") {
    ReloadDefinitions c;
    CHECK(toCommand(v1::ReloadDefinitionsRequest(), c, errors));
    CHECK(errors.empty());
  }
}

TEST_CASE("convertUpdate refuses each repeated id of a long list, naming its first place",
          "[proto_convert]") {
  v1::WorldUpdate u;
  // Small ids and ids apart by 2^32 hash differently: together, many share slots, so
  // repeats must be told from collisions.
  constexpr int kIds = 600;
  for (int i = 0; i < kIds / 2; ++i) addNpc(u, 1 + uint64_t(i));
  for (int i = 1; i <= kIds / 2; ++i) addNpc(u, 1 + (uint64_t(i) << 32));
  addNpc(u, 8);
  addNpc(u, 1 + (uint64_t(300) << 32));
  u.add_removals(5);
  u.add_removals(uint64_t(5) << 40);
  u.add_removals(5);

  ConvertedUpdate out = convertUpdate(u, ClientId{1}, 10000);

  CHECK(out.commands.size() == kIds + 2);
  REQUIRE(out.errors.size() == 3);
  CHECK(out.errors[0] ==
        "upserts[600] (id 8): id repeated in this update (first at upserts[7])");
  CHECK(out.errors[1] ==
        "upserts[601] (id 1288490188801): id repeated in this update (first at upserts[599])");
  CHECK(out.errors[2] == "removals[2] (id 5): id repeated in this update (first at removals[0])");
}

TEST_CASE("convertUpdate into a reused ConvertedUpdate keeps nothing of the last update",
          "[proto_convert]") {
  ConvertedUpdate out;
  v1::WorldUpdate refused;
  for (uint64_t id = 1; id <= 3; ++id) addNpc(refused, id);
  convertUpdate(refused, ClientId{1}, 2, {}, out);
  REQUIRE(out.refused);

  v1::WorldUpdate bad;
  bad.set_seq(5);
  addNpc(bad, 9);
  bad.add_removals(0);
  bad.mutable_subscribe()->add_places("square");
  convertUpdate(bad, ClientId{2}, 100, {}, out);
  CHECK_FALSE(out.refused);
  CHECK(out.errors == std::vector<std::string>{"removals[0]: id must not be 0"});
  REQUIRE(out.commands.size() == 1);
  CHECK(out.commands[0].seq == 5);
  CHECK(out.commands[0].origin == ClientId{2});
  CHECK(out.subscription.has_value());

  v1::WorldUpdate good;
  good.set_seq(6);
  addNpc(good, 10);
  convertUpdate(good, ClientId{2}, 100, {}, out);
  CHECK(out.errors.empty());
  CHECK_FALSE(out.subscription.has_value());
  REQUIRE(out.commands.size() == 1);
  CHECK(bodyAs<UpsertEntity>(out.commands[0]).state.id == EntityId{10});
}

TEST_CASE("convertUpdate overwrites the commands of an applied batch and keeps none of their "
          "fields", "[proto_convert]") {
  // A stream's batch comes back from the tick with its commands still in it
  // (Simulation::submitExchanging); the next update is written over them.
  ConvertedUpdate out;
  v1::WorldUpdate full;
  full.set_seq(1);
  for (uint64_t id = 1; id <= 3; ++id) {
    v1::Entity* e = addNpc(full, id, "an archetype name past the short-string size");
    e->set_species("a species name past the short-string size");
    e->set_place("square");
    e->set_group("watch");
    setVec(e->mutable_forward(), 0.f, 1.f, 0.f);
    setVec(e->mutable_velocity(), 1.f, 0.f, 0.f);
    e->set_eye_height(1.8f);
    e->set_active(false);
    e->set_takeable(false);
    e->set_lifetime(5.f);
  }
  full.add_removals(40);
  convertUpdate(full, ClientId{1}, 100, {}, out);
  REQUIRE(out.commands.size() == 4);
  out.commands[1].replayed = true;
  std::swap(out.commands[0], out.commands[3]);  // a removal where an upsert will go

  v1::WorldUpdate sparse;
  sparse.set_seq(2);
  v1::Entity* player = sparse.add_upserts();
  player->set_id(20);
  player->set_kind(v1::ENTITY_KIND_PLAYER);
  setVec(player->mutable_position(), 4.f, 5.f, 0.f);
  v1::Entity* object = sparse.add_upserts();
  object->set_id(21);
  object->set_kind(v1::ENTITY_KIND_OBJECT);
  sparse.add_removals(50);
  convertUpdate(sparse, ClientId{2}, 100, {}, out);
  REQUIRE(out.errors.empty());
  const ConvertedUpdate fresh = convertUpdate(sparse, ClientId{2}, 100);
  REQUIRE(out.commands.size() == 3);
  REQUIRE(fresh.commands.size() == 3);
  for (size_t i = 0; i < 2; ++i) {
    INFO("command " << i);
    const Command& c = out.commands[i];
    CHECK(c.origin == ClientId{2});
    CHECK(c.seq == 2);
    CHECK(c.item == i);
    CHECK_FALSE(c.replayed);
    const EntityState& s = bodyAs<UpsertEntity>(c).state;
    const EntityState& f = bodyAs<UpsertEntity>(fresh.commands[i]).state;
    CHECK(s.id == f.id);
    CHECK(s.kind == f.kind);
    CHECK(s.position == f.position);
    CHECK_FALSE(s.forward);
    CHECK_FALSE(s.velocity);
    CHECK_FALSE(s.eye_height_m);
    CHECK_FALSE(s.active);
    CHECK_FALSE(s.takeable);
    CHECK_FALSE(s.lifetime_s);
    CHECK(s.species.empty());
    CHECK(s.place.empty());
    CHECK(s.archetype.empty());
    CHECK(s.group.empty());
    CHECK_FALSE(s.relayed);
  }
  CHECK(bodyAs<UpsertEntity>(out.commands[0]).state.position == Vec3{4.f, 5.f, 0.f});
  CHECK(bodyAs<RemoveEntity>(out.commands[2]).id == EntityId{50});
  CHECK(out.commands[2].item == 0);
}

TEST_CASE("convertUpdate looks for repeated ids within one update only", "[proto_convert]") {
  // The ids each list has seen are kept per thread between updates; none may count in the
  // next update, whatever its lists' sizes.
  v1::WorldUpdate big;
  for (uint64_t id = 1; id <= 600; ++id) addNpc(big, id);
  for (uint64_t id = 1; id <= 3; ++id) big.add_removals(1000 + id);
  ConvertedUpdate out;
  convertUpdate(big, ClientId{1}, 10000, {}, out);
  REQUIRE(out.errors.empty());
  REQUIRE(out.commands.size() == 603);
  for (int round = 0; round < 3; ++round) {
    v1::WorldUpdate small;
    for (uint64_t id : {5, 600, 7}) addNpc(small, id);
    small.add_removals(1001);
    small.add_removals(1001);
    convertUpdate(small, ClientId{1}, 10000, {}, out);
    INFO("round " << round);
    CHECK(out.commands.size() == 4);
    CHECK(out.errors ==
          std::vector<std::string>{
              "removals[1] (id 1001): id repeated in this update (first at removals[0])"});
  }
}
