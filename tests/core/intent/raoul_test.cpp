// The seed's examples end to end on a small world model: Raoul picking up flowers (success
// and the climb that is too hard), and Raoul baking with the seed's complex parameters.
#include <algorithm>
#include <memory>

#include <catch2/catch.hpp>

#include "intent/action_out.h"
#include "intent_fixture.h"
#include "world/world.h"

using namespace npc;
using namespace npc::test;

namespace {

// The game's side of the world model that the daemon-side actions change.
struct RaoulGame {
  World world;
  std::vector<EntityId> memory;     // what Raoul has seen (his visual memory)
  std::vector<EntityId> backpack;
  std::vector<EntityId> open_doors;
  std::vector<EntityId> kneader;    // ingredients mixed in the kneader
  ActionNameId product = ActionNameId::kNone;
  std::vector<std::pair<EntityId, ActionNameId>> told;  // (listener, message)
  float max_slope = 1.f;            // rise over run Raoul can climb

  bool knows(EntityId id) const {
    return std::find(memory.begin(), memory.end(), id) != memory.end();
  }
  Entity* entity(EntityId id) { return world.entities().get(id); }
  EntityId add(EntityId id, Vec3 position) {
    world.entities().insert(id);
    world.entities().get(id)->position = position;
    return id;
  }
};

RaoulGame& game(const ActionContext& ctx) { return *static_cast<RaoulGame*>(ctx.user); }

EntityId targetOf(const Intention& in) {
  const ActionArg* a = nthArg(in.args(), ArgRole::kReceiver);
  if (!a) a = nthParam(in.args(), ArgType::kEntity);
  return a && a->type == ArgType::kEntity ? a->entity : EntityId::kNone;
}

// "Go": walk towards an entity Raoul has seen, at 1.5 m/s.
class GoAction final : public ActionImpl {
 public:
  explicit GoAction(ActionNameId too_steep) : too_steep_(too_steep) {}
  bool mayStart(const ActionContext& ctx, const Intention& in) const override {
    return game(ctx).entity(targetOf(in)) != nullptr;
  }
  bool initialize(ActionContext& ctx, Intention& in) const override {
    RaoulGame& g = game(ctx);
    if (!g.knows(targetOf(in))) return false;  // not in his field of vision or memory
    in.state.set(State{g.entity(ctx.agent)->position, g.entity(targetOf(in))->position});
    return true;
  }
  PerformResult perform(ActionContext& ctx, Intention& in) const override {
    const State s = in.state.get<State>();
    Entity& self = *game(ctx).entity(ctx.agent);
    const Vec3 to_go = s.target - self.position;
    const float run = std::sqrt(to_go.x * to_go.x + to_go.y * to_go.y);
    if (to_go.z > game(ctx).max_slope * run) {
      return PerformResult::failed(3.f, too_steep_);  // the time it takes to give up
    }
    const float dist = length(to_go);
    if (dist <= kSpeed * ctx.time_left_s) {
      self.position = s.target;
      return PerformResult::completed(dist / kSpeed);
    }
    self.position = self.position + to_go * (kSpeed * ctx.time_left_s / dist);
    const float total = length(s.target - s.start);
    return PerformResult::continuing(1.f - length(s.target - self.position) / total);
  }

 private:
  static constexpr float kSpeed = 1.5f;
  struct State {
    Vec3 start;
    Vec3 target;
  };
  ActionNameId too_steep_;
};

// "Take": put a reachable object in the backpack; takes 1 s.
class TakeAction final : public ActionImpl {
 public:
  explicit TakeAction(ActionNameId out_of_reach) : out_of_reach_(out_of_reach) {}
  bool mayStart(const ActionContext& ctx, const Intention& in) const override {
    const Entity* e = game(ctx).entity(targetOf(in));
    return e && e->active;
  }
  bool initialize(ActionContext& ctx, Intention& in) const override {
    return game(ctx).knows(targetOf(in));
  }
  PerformResult perform(ActionContext& ctx, Intention& in) const override {
    RaoulGame& g = game(ctx);
    Entity& object = *g.entity(targetOf(in));
    if (distanceSq(g.entity(ctx.agent)->position, object.position) > 1.5f * 1.5f) {
      return PerformResult::failed(0.5f, out_of_reach_);
    }
    object.active = false;  // removed from the scene...
    g.backpack.push_back(object.id);  // ...and put in the backpack
    return PerformResult::completed(1.f);
  }

 private:
  ActionNameId out_of_reach_;
};

// Small daemon-side kitchen actions, each taking a fixed time.
class KitchenAction final : public ActionImpl {
 public:
  enum Kind { kOpen, kMix, kSetup, kTalk };
  KitchenAction(Kind kind, float duration_s) : kind_(kind), duration_s_(duration_s) {}
  PerformResult perform(ActionContext& ctx, Intention& in) const override {
    RaoulGame& g = game(ctx);
    const auto args = in.args();
    switch (kind_) {
      case kOpen: {  // [door, key (optional)]: a locked door needs the key in the backpack
        const ActionArg* key = nthParam(args, ArgType::kEntity);
        if (key && std::find(g.backpack.begin(), g.backpack.end(), key->entity) ==
                       g.backpack.end()) {
          return PerformResult::failed(1.f);
        }
        g.open_doors.push_back(nthArg(args, ArgRole::kReceiver)->entity);
        break;
      }
      case kMix:  // [kneader, ingredient containers...]
        for (unsigned i = 0; const ActionArg* a = nthParam(args, ArgType::kEntity, i); ++i) {
          g.kneader.push_back(a->entity);
        }
        break;
      case kSetup:  // [kneader, product type]
        g.product = nthParam(args, ArgType::kEntityType)->text();
        break;
      case kTalk:  // [listener, message]
        g.told.push_back({nthArg(args, ArgRole::kReceiver)->entity,
                          nthParam(args, ArgType::kMessage)->text()});
        break;
    }
    return PerformResult::completed(duration_s_);
  }

 private:
  Kind kind_;
  float duration_s_;
};

constexpr EntityId kRaoul{1}, kFlowers{2};

struct RaoulFixture : IntentFixture {
  RaoulGame g;
  ActionListId baker = registry.createOwnList("Baker");
  ActionNameId go, take;

  RaoulFixture() {
    registry.addTo(baker, "Go", std::make_unique<GoAction>(name("too_steep")));
    registry.addTo(baker, "Take", std::make_unique<TakeAction>(name("out_of_reach")));
    go = names.find("Go");
    take = names.find("Take");
    scheduler.setEnv({&g.world, &g});
    agent.access.setOwn(baker);
    agent_id = kRaoul;
    g.add(kRaoul, {0.f, 0.f, 0.f});
  }
  // Raoul's controller plans: walk towards the flowers, pick them up.
  void planFlowers() {
    const ActionArg flowers = ActionArg::ofEntity(kFlowers, ArgRole::kReceiver);
    REQUIRE(tree().program(now, go, {&flowers, 1}).ok());
    REQUIRE(tree().program(now, take, {&flowers, 1}).ok());
  }
};

}  // namespace

TEST_CASE("Raoul walks to the flowers and picks them up", "[intent][raoul]") {
  RaoulFixture f;
  f.g.add(kFlowers, {6.f, 0.f, 0.f});  // 6 m away: 4 s of walking
  f.g.memory.push_back(kFlowers);      // he sees them
  f.planFlowers();
  REQUIRE(f.agent.queue.at(0).state.get<std::array<float, 8>>() == std::array<float, 8>{});

  SECTION("Should perform both within one quantum when it is long enough") {
    f.quantum = 10.f;
    f.tick();
    REQUIRE(f.drain() == Lines{"started Go", "completed Go", "started Take", "completed Take"});
    REQUIRE(f.seen[1].time_s == Approx(4.0));
    REQUIRE(f.seen[3].time_s == Approx(5.0));
    REQUIRE(f.g.entity(kRaoul)->position == Vec3{6.f, 0.f, 0.f});
    REQUIRE_FALSE(f.g.entity(kFlowers)->active);                    // gone from the place
    REQUIRE(f.g.backpack == std::vector<EntityId>{kFlowers});      // in his backpack
    REQUIRE(f.agent.queue.empty());  // he does nothing more this quantum
  }
  SECTION("Should walk over several quanta with progress, then take them") {
    f.quantum = 1.f;
    const IntentionId walk = f.agent.queue.at(0).id;
    f.tick();
    REQUIRE(f.tree().getProgress(walk) == Approx(0.25f));
    REQUIRE(f.g.entity(kRaoul)->position.x == Approx(1.5f));
    f.tick();
    f.tick();
    REQUIRE(f.tree().getProgress(walk) == Approx(0.75f));
    f.tick();  // arrives at 4.0, the end of this quantum
    f.tick();
    REQUIRE(f.drain() == Lines{"started Go", "completed Go", "started Take", "completed Take"});
    REQUIRE(f.g.backpack == std::vector<EntityId>{kFlowers});
  }
  SECTION("Should fail to start walking towards flowers he never saw") {
    f.g.memory.clear();
    f.quantum = 10.f;
    f.tick();
    REQUIRE(f.drain() == Lines{"failed Go (init_failed)", "failed Take (init_failed)"});
  }
}

TEST_CASE("Raoul cannot climb to the flowers: both actions fail", "[intent][raoul]") {
  RaoulFixture f;
  f.g.add(kFlowers, {3.f, 0.f, 10.f});  // almost vertical
  f.g.memory.push_back(kFlowers);
  f.planFlowers();
  f.quantum = 10.f;
  f.tick();
  // Both initialise; Go gives up (3 s), Take finds the flowers out of reach.
  REQUIRE(f.drain() == Lines{"started Go", "failed Go (perform_failed)", "started Take",
                             "failed Take (perform_failed)"});
  REQUIRE(f.names.name(f.seen[1].detail) == "too_steep");
  REQUIRE(f.names.name(f.seen[3].detail) == "out_of_reach");
  REQUIRE(f.seen[1].time_s == Approx(3.0));
  REQUIRE(f.seen[3].time_s == Approx(3.5));
  REQUIRE(describeEvent(f.seen[1], f.names) ==
          "agent 1: intention 1 \"Go\" failed: the action failed (too_steep)");
  REQUIRE(f.g.entity(kRaoul)->position == Vec3{});
  REQUIRE(f.g.entity(kFlowers)->active);
  REQUIRE(f.g.backpack.empty());
  REQUIRE(f.agent.queue.empty());  // the controller learns both failed, and does nothing
  REQUIRE(f.tick() == TurnStatus::kSkipped);
}

TEST_CASE("Raoul bakes: the seed's complex action parameters", "[intent][raoul]") {
  RaoulFixture f;
  const EntityId door{10}, key{11}, kneader{12}, flour{13}, water{14}, salt{15}, oven{16},
      bread1{17}, bread2{18}, bread3{19}, wife{20};
  for (EntityId e : {door, key, kneader, flour, water, salt, oven, bread1, bread2, bread3, wife}) {
    f.g.add(e, {});
  }
  f.g.backpack.push_back(key);
  f.registry.addTo(f.baker, "Open", std::make_unique<KitchenAction>(KitchenAction::kOpen, 2.f));
  f.registry.addTo(f.baker, "Cooking/Mix", std::make_unique<KitchenAction>(KitchenAction::kMix, 30.f));
  f.registry.addTo(f.baker, "Cooking/Setup", std::make_unique<KitchenAction>(KitchenAction::kSetup, 20.f));
  f.registry.addTo(f.baker, "Move", std::make_unique<ClientAction>(120.f));
  f.registry.addTo(f.baker, "Wait", std::make_unique<WaitAction>(f.names));
  f.registry.addTo(f.baker, "Talk", std::make_unique<KitchenAction>(KitchenAction::kTalk, 3.f));
  using R = ArgRole;
  const auto E = [](EntityId id, R role = R::kParam) { return ActionArg::ofEntity(id, role); };
  DecisionTree t = f.tree();
  // perform("Open", Raoul, [door of Midgaard's bakery, Raoul's key])
  REQUIRE(t.program(0, f.name("Open"), std::vector{E(door, R::kReceiver), E(key)}).ok());
  // perform("Cooking/Mix", Raoul, [kneader, flour bag, water container, salt container])
  REQUIRE(t.program(0, f.name("Cooking/Mix"),
                    std::vector{E(kneader, R::kReceiver), E(flour), E(water), E(salt)}).ok());
  // perform("Cooking/Setup", Raoul, [kneader, Bread TypeId])
  REQUIRE(t.program(0, f.name("Cooking/Setup"),
                    std::vector{E(kneader, R::kReceiver), ActionArg::ofEntityType(f.name("Bread"))})
              .ok());
  // perform("Move", Raoul, [Oven, Bread1, Bread2, Bread3]): the game carries them
  const IntentionId move =
      t.program(0, f.name("Move"), std::vector{E(oven), E(bread1, R::kReceiver),
                                               E(bread2, R::kReceiver), E(bread3, R::kReceiver)})
          .id;
  // perform("Wait", Raoul, [time delay = 10 min])
  const IntentionId wait =
      t.program(0, f.name("Wait"), std::vector{ActionArg::ofValue(10, f.name("min"))}).id;
  // perform("Talk", Raoul, [Raoul's wife, message])
  REQUIRE(t.program(0, f.name("Talk"),
                    std::vector{E(wife, R::kReceiver), ActionArg::ofMessage(f.name("breads_ready"))})
              .ok());

  f.quantum = 60.f;
  f.tick();  // 0..60: open (2 s), mix (30 s), setup (20 s), then Move goes to the game at 52 s
  REQUIRE(f.drain() == Lines{"started Open", "completed Open", "started Cooking/Mix",
                             "completed Cooking/Mix", "started Cooking/Setup",
                             "completed Cooking/Setup", "started Move"});
  REQUIRE(f.g.open_doors == std::vector<EntityId>{door});
  REQUIRE(f.g.kneader == std::vector<EntityId>{flour, water, salt});
  REQUIRE(f.names.name(f.g.product) == "Bread");

  const auto starts = f.drainStarts();
  REQUIRE(starts.size() == 1);
  ActionOut out;
  toActionOut(starts[0], f.registry.clientParamNames(), out);
  REQUIRE(f.names.name(out.name) == "Move");
  REQUIRE(out.intention == move);
  REQUIRE(out.param_count == 4);
  REQUIRE(out.params[0].entity == oven);
  REQUIRE(f.names.name(out.params[1].name) == "receiver");
  REQUIRE(out.params[3].entity == bread3);
  REQUIRE(f.game().clientResult(move, ClientOutcome::kCompleted) == IntentStatus::kOk);

  for (int i = 0; i < 5; ++i) f.tick();  // 60..360: half of the ten minutes
  REQUIRE(f.tree().getProgress(wait) == Approx(0.5f));
  for (int i = 0; i < 5; ++i) f.tick();  // 360..660: the wait ends at 660
  f.tick();                              // 660..720: he tells his wife
  REQUIRE(f.drain() == Lines{"completed Move", "started Wait", "completed Wait", "started Talk",
                             "completed Talk"});
  REQUIRE(f.g.told.size() == 1);
  REQUIRE(f.g.told[0].first == wife);
  REQUIRE(f.names.name(f.g.told[0].second) == "breads_ready");
  REQUIRE(f.agent.queue.empty());
}
