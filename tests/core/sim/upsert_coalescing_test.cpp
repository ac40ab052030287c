// Coalescing a tick's upserts (core/sim/upsert_coalescer.h): an upsert a later one of the
// same entity and sender supersedes is skipped only where applying it could not have
// changed anything, so a simulation that coalesces and one that applies every upsert emit
// the same ticks and hold the same world.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <random>

#include "sim_fixture.h"
#include "tick_hash.h"

using namespace npc;
using namespace npc::test;

namespace {

constexpr ClientId kGame{7};
constexpr ClientId kOther{8};

SimConfig config(bool coalesce, bool leased = false) {
  SimConfig c;
  c.coalesce_upserts = coalesce;
  c.leased_places = leased;
  c.hibernation.quiet_s = 0.5;  // places sleep and wake during the run
  return c;
}

struct World2 {
  Simulation sim;
  explicit World2(SimConfig c) : sim(c, testArchetypes()) {
    REQUIRE(sim.world().addPlace("west", {{0, 0, -1}, {20, 40, 10}}));
    REQUIRE(sim.world().addPlace("east", {{20, 0, -1}, {40, 40, 10}}));
  }
  // Every update is a batch of its own, as a stream queues it.
  void send(std::vector<Command> batch) {
    if (!batch.empty()) REQUIRE(sim.submit(batch));
  }
};

EntityState moved(uint64_t id, EntityKind kind, Vec3 at) {
  EntityState s;
  s.id = EntityId{id};
  s.kind = kind;
  s.position = at;
  return s;
}

Command from(ClientId origin, EntityState s) { return {origin, 0, UpsertEntity{std::move(s)}}; }

// Everything a client could tell apart about an entity.
std::string describe(const Entity& e) {
  char text[256];
  std::snprintf(text, sizeof text, "%llu k%d p%u o%u a%d f%d (%g %g %g) (%g %g %g) (%g %g %g) %g t%d",
                static_cast<unsigned long long>(raw(e.id)), static_cast<int>(e.kind),
                static_cast<unsigned>(raw(e.place)), static_cast<unsigned>(raw(e.owner)), e.active,
                e.place_from_client, e.position.x, e.position.y, e.position.z, e.forward.x,
                e.forward.y, e.forward.z, e.velocity.x, e.velocity.y, e.velocity.z,
                e.eye_height_m, e.takeable);
  return text;
}

std::vector<std::string> worldOf(const Simulation& sim) {
  std::vector<std::string> rows;
  for (const Entity& e : sim.world().entities().rows()) rows.push_back(describe(e));
  std::sort(rows.begin(), rows.end());
  return rows;
}

// A game streaming its entities several times per tick, with every kind of update mixed in:
// moves across the place border, partial updates, names, lifetimes, invalid values, another
// client's updates of the same ids, relayed players, removals, sounds, results and spawns.
class MixedStream {
 public:
  explicit MixedStream(uint32_t seed) : rng_(seed) {}

  std::vector<std::vector<Command>> tickOfUpdates(const TickOutput& last) {
    std::vector<std::vector<Command>> updates;
    const int count = pick(1, 6);
    for (int u = 0; u < count; ++u) {
      std::vector<Command> batch;
      const ClientId origin = chance(0.15) ? kOther : kGame;
      for (uint64_t id = 1; id <= 24; ++id) {
        if (!chance(0.7)) continue;
        batch.push_back(from(origin, state(id)));
      }
      if (chance(0.1)) {
        batch.push_back({origin, 0, RemoveEntity{static_cast<EntityId>(pick(1, 24))}});
      }
      if (chance(0.1)) {
        SoundEvent sound;
        sound.position = {static_cast<float>(pick(0, 10)), 10.f, 0.f};  // not in the east
        sound.radius_m = 8.f;
        sound.kind = "generic";
        batch.push_back({origin, 0, sound});
      }
      if (u == 0) {
        for (const ActionOut& a : last.actions) {
          ActionResult r;
          r.agent = a.agent;
          r.intention = a.intention;
          batch.push_back({a.owner, 0, r});
        }
      }
      updates.push_back(std::move(batch));
    }
    return updates;
  }

 private:
  // Ids 1-12: npcs; 13-16: players; 17-20: objects; 21-24: attributes.
  static EntityKind kindOf(uint64_t id) {
    if (id <= 12) return EntityKind::kNpc;
    if (id <= 16) return EntityKind::kPlayer;
    if (id <= 20) return EntityKind::kObject;
    return EntityKind::kAttribute;
  }

  EntityState state(uint64_t id) {
    const EntityKind kind = kindOf(id);
    // Players 13 and 14 idle in the east, mostly inactive, so that it falls asleep and
    // wakes; 15 and 16 keep to the west.
    float x = uniform(0.f, 40.f);
    if (id == 13 || id == 14) x = uniform(25.f, 35.f);
    if (id == 15 || id == 16) x = uniform(0.f, 18.f);
    // Villagers (1-6), who keep places awake with the actions they wait on, live in the
    // west; statues (7-12) go anywhere.
    if (id <= 6) x = uniform(0.f, 18.f);
    EntityState s = moved(id, kind, {x, uniform(1.f, 39.f), 0.f});
    if (kind == EntityKind::kNpc) s.archetype = id <= 6 ? "villager" : "statue";
    if (chance(0.3)) s.position.reset();
    if (chance(0.3)) s.forward = Vec3{uniform(-1.f, 1.f), 1.f, 0.f};
    if (chance(0.3)) s.velocity = Vec3{uniform(-2.f, 2.f), 0.f, 0.f};
    if (chance(0.1)) s.eye_height_m = uniform(0.5f, 2.f);
    if (id == 13 || id == 14) {
      if (chance(0.6)) s.active = chance(0.03);
    } else if (chance(0.2)) {
      s.active = chance(0.7);
    }
    if (chance(0.1)) s.takeable = chance(0.5);
    if (chance(0.03)) s.place = chance(0.5) ? "west" : "east";
    if (chance(0.03)) s.species = chance(0.5) ? "human" : "dog";
    if (chance(0.03) && kind == EntityKind::kNpc) s.group = "squad";
    if (chance(0.05) && kind == EntityKind::kAttribute) s.lifetime_s = uniform(0.1f, 1.f);
    if (chance(0.03) && kind == EntityKind::kPlayer) s.relayed = true;
    if (chance(0.02)) s.position = Vec3{std::numeric_limits<float>::quiet_NaN(), 0.f, 0.f};
    if (chance(0.02)) s.kind = EntityKind::kObject;  // a kind that cannot change
    return s;
  }

  bool chance(double p) { return std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p; }
  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }

  std::mt19937 rng_;
};

// Runs the same stream into a simulation that coalesces and one that does not, comparing
// every tick's output and the whole world after it; returns the upserts skipped.
uint64_t compareRuns(uint32_t seed, bool leased) {
  World2 coalescing(config(true, leased));
  World2 every(config(false, leased));
  if (leased) {
    for (World2* w : {&coalescing, &every}) {
      w->sim.submit({ClientId::kDaemon, 0, HoldPlace{"west", true, 1, {}}});
    }
  }
  MixedStream stream(seed);
  Fnv a, b;
  for (int tick = 0; tick < 300; ++tick) {
    for (std::vector<Command>& update : stream.tickOfUpdates(every.sim.output())) {
      coalescing.send(update);
      every.send(std::move(update));
    }
    coalescing.sim.tick();
    every.sim.tick();
    hashTickOutput(coalescing.sim, a);
    hashTickOutput(every.sim, b);
    INFO("seed " << seed << ", tick " << tick);
    REQUIRE(a.h == b.h);
    REQUIRE(worldOf(coalescing.sim) == worldOf(every.sim));
  }
  CHECK(every.sim.stats().upserts_coalesced == 0);
  CHECK(coalescing.sim.stats().commands_applied == every.sim.stats().commands_applied);
  return coalescing.sim.stats().upserts_coalesced;
}

}  // namespace

TEST_CASE("Coalesced upserts leave every tick as applying each of them would", "[sim][coalescing]") {
  SECTION("Should match tick for tick, outputs and world, while skipping many upserts") {
    uint64_t skipped = 0;
    for (uint32_t seed : {1u, 2u, 3u}) skipped += compareRuns(seed, false);
    CHECK(skipped > 1000);
  }
  SECTION("Should match with places held by lease, some of them elsewhere") {
    CHECK(compareRuns(4, true) > 100);
  }
}

TEST_CASE("Only an upsert a later one covers is skipped", "[sim][coalescing]") {
  World2 w(config(true));
  w.send({from(kGame, npcAt(1, {5, 5, 0}, "statue"))});
  w.sim.tick();
  const uint64_t before = w.sim.stats().upserts_coalesced;
  auto skippedNow = [&] { return w.sim.stats().upserts_coalesced - before; };
  const Entity& e = *w.sim.world().entities().get(EntityId{1});

  SECTION("Should apply only the last of three moves, which lands where they all would") {
    for (float x : {6.f, 7.f, 8.f}) w.send({from(kGame, moved(1, EntityKind::kNpc, {x, 5, 0}))});
    w.sim.tick();
    CHECK(skippedNow() == 2);
    CHECK(e.position.x == 8.f);
  }
  SECTION("Should apply every move when the last leaves out a field an earlier one set") {
    EntityState turned = moved(1, EntityKind::kNpc, {6, 5, 0});
    turned.forward = Vec3{0, 1, 0};
    w.send({from(kGame, turned)});
    w.send({from(kGame, moved(1, EntityKind::kNpc, {7, 5, 0}))});
    w.sim.tick();
    CHECK(skippedNow() == 0);
    CHECK(e.forward.y == 1.f);
    CHECK(e.position.x == 7.f);
  }
  SECTION("Should not coalesce across a command that is not an upsert") {
    w.send({from(kGame, moved(1, EntityKind::kNpc, {6, 5, 0}))});
    SoundEvent sound;
    sound.position = {0, 0, 0};
    sound.radius_m = 1.f;
    sound.kind = "generic";
    w.send({{kGame, 0, sound}});
    w.send({from(kGame, moved(1, EntityKind::kNpc, {7, 5, 0}))});
    w.sim.tick();
    CHECK(skippedNow() == 0);
  }
  SECTION("Should wake a sleeping place for a player active there for a moment") {
    EntityState idle = moved(2, EntityKind::kPlayer, {30, 5, 0});  // east
    idle.active = false;
    w.send({from(kGame, idle)});
    for (int t = 0; t < 20; ++t) w.sim.tick();  // quiet_s 0.5: the east sleeps
    const PlaceIndex east = w.sim.world().findPlace("east");
    REQUIRE(w.sim.placeState(east) == PlaceState::kAsleep);
    EntityState up = idle;
    up.active = true;
    w.send({from(kGame, up)});
    w.send({from(kGame, idle)});
    w.sim.tick();
    CHECK(skippedNow() == 0);
    CHECK(w.sim.placeState(east) != PlaceState::kAsleep);
  }
  SECTION("Should apply every move of a chain that passes through another place") {
    w.send({from(kGame, moved(1, EntityKind::kNpc, {25, 5, 0}))});  // east
    w.send({from(kGame, moved(1, EntityKind::kNpc, {8, 5, 0}))});   // back west
    w.sim.tick();
    CHECK(skippedNow() == 0);
    CHECK(e.place == w.sim.world().findPlace("west"));
  }
  SECTION("Should still refuse another client's update between the owner's") {
    w.send({from(kGame, moved(1, EntityKind::kNpc, {6, 5, 0}))});
    w.send({from(kOther, moved(1, EntityKind::kNpc, {30, 5, 0}))});
    w.send({from(kGame, moved(1, EntityKind::kNpc, {7, 5, 0}))});
    w.sim.tick();
    CHECK(skippedNow() == 0);
    CHECK(eventsOf(w.sim.output(), EventKind::kError).size() == 1);
    CHECK(e.position.x == 7.f);
  }
  SECTION("Should not coalesce another client's updates, which are refused") {
    w.send({from(kOther, moved(1, EntityKind::kNpc, {6, 5, 0}))});
    w.send({from(kOther, moved(1, EntityKind::kNpc, {7, 5, 0}))});
    w.sim.tick();
    CHECK(skippedNow() == 0);
    CHECK(eventsOf(w.sim.output(), EventKind::kError).size() == 2);
    CHECK(e.position.x == 5.f);
  }
}
