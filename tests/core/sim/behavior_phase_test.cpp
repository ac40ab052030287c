// The behavior phase on the tick's pool (core/sim/behavior_phase.h): trees tick by lanes of
// their group on the workers, and what they do beyond their own agent comes out as a serial
// tick in row order would have it, whatever the number of threads.
#include <map>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sim/behavior_outbox.h"
#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

// Each agent waves, and once the wave is done, nods.
constexpr const char* kWave = R"(<BehaviorTree>
  <Root>
    <Sequence>
      <Animate name="Wave"/>
      <Log message="waved"/>
      <Signal name="OnWaved"/>
      <Animate name="Nod"/>
      <Halt/>
    </Sequence>
  </Root>
</BehaviorTree>)";

// One speaker per group at a time; the others idle.
constexpr const char* kSpeaker = R"(<BehaviorTree>
  <Root>
    <Selector>
      <LimitConcurrentUsers name="Speaker" max="2">
        <Communicate name="Talk" channel="Shout"/>
      </LimitConcurrentUsers>
      <Sequence>
        <Animate name="Idle"/>
        <Halt/>
      </Sequence>
    </Selector>
  </Root>
</BehaviorTree>)";

// A script decides (Lua runs on any worker, one call at a time).
constexpr const char* kScripted = R"(<BehaviorTree>
  <Root>
    <Sequence>
      <ExecuteLua code="entity.waved = (entity.waved or 0) + 1"/>
      <AssertLua code="return entity.waved == 1"/>
      <Animate name="Wave"/>
      <Halt/>
    </Sequence>
  </Root>
</BehaviorTree>)";

// <Plan> keeps this tree on the tick thread (this agent has no planner: the plan fails).
constexpr const char* kPlanner = R"(<BehaviorTree>
  <Root>
    <Selector>
      <Plan goal="Rest"/>
      <Sequence>
        <Animate name="Wave"/>
        <Halt/>
      </Sequence>
    </Selector>
  </Root>
</BehaviorTree>)";

struct Run {
  std::vector<std::pair<uint64_t, uint64_t>> actions;  // (agent, intention), tick by tick
  std::map<uint64_t, std::string> first_action;         // agent -> name of its first action
  std::vector<std::string> events;                       // event texts, in order
};

// `agents` agents, agent i of archetype kinds[i % kinds.size()] in group groups(i); every
// action they send is completed the tick after.
Run run(unsigned threads, size_t agents, const std::vector<std::string>& kinds,
        std::string (*group)(size_t), int ticks) {
  SimConfig config;
  config.threads = threads;
  ArchetypeSet set;
  set.add(treeRunner("waver", "Wave"));
  set.add(treeRunner("speaker", "Speaker"));
  set.add(treeRunner("scripted", "Scripted"));
  set.add(treeRunner("planner", "Planner"));
  Simulation sim(config, std::move(set));
  const DefinitionReport r = sim.loadBehaviorTrees(
      {{"Wave.xml", kWave}, {"Speaker.xml", kSpeaker}, {"Scripted.xml", kScripted},
       {"Planner.xml", kPlanner}});
  INFO(r.text());
  REQUIRE(r.ok());
  for (size_t i = 0; i < agents; ++i) {
    EntityState s;
    s.id = EntityId{i + 1};
    s.kind = EntityKind::kNpc;
    s.archetype = kinds[i % kinds.size()];
    s.group = group(i);
    s.position = Vec3{static_cast<float>(i) * 3.f, 0, 0};
    sim.submit({ClientId{1}, 0, UpsertEntity{s}});
  }
  Run out;
  std::vector<ActionOut> sent;
  for (int t = 0; t < ticks; ++t) {
    for (const ActionOut& a : sent) {
      ActionResult result;
      result.agent = a.agent;
      result.intention = a.intention;
      sim.submit({ClientId{1}, 0, result});
    }
    sim.tick();
    sent.assign(sim.output().actions.begin(), sim.output().actions.end());
    for (const ActionOut& a : sent) {
      out.actions.emplace_back(raw(a.agent), raw(a.intention));
      out.first_action.emplace(raw(a.agent), sim.names().name(a.name));
    }
    for (const EventOut& e : sim.output().events) out.events.push_back(e.text);
  }
  return out;
}

std::string ownGroup(size_t i) { return "g" + std::to_string(i); }
std::string twoSquads(size_t i) { return i % 2 == 0 ? "red" : "blue"; }

}  // namespace

TEST_CASE("Trees on the pool number their intentions in agent order",
          "[sim][mbt][behavior_phase]") {
  // 40 agents in 40 groups: the lanes they tick in are not in row order.
  const Run one = run(1, 40, {"waver"}, ownGroup, 4);
  REQUIRE(one.actions.size() == 80);  // Wave, then Nod once the wave completed

  SECTION("Should give the first tick's actions consecutive ids in row order") {
    for (size_t i = 1; i < 40; ++i) {
      REQUIRE(one.actions[i].first == one.actions[i - 1].first + 1);
      REQUIRE(one.actions[i].second == one.actions[i - 1].second + 1);
    }
  }
  SECTION("Should let each tree follow its action to the end under its final id") {
    for (uint64_t agent = 1; agent <= 40; ++agent) {
      size_t sent = 0;
      for (const auto& a : one.actions) sent += a.first == agent;
      REQUIRE(sent == 2);  // the Wave completed (reported by id), so the Nod was sent
    }
  }
  SECTION("Should send the same actions, ids and events with 2 and 4 threads") {
    for (unsigned threads : {2u, 4u}) {
      const Run many = run(threads, 40, {"waver"}, ownGroup, 4);
      REQUIRE(many.actions == one.actions);
      REQUIRE(many.events == one.events);
    }
  }
}

TEST_CASE("Agents of one group meet a LimitConcurrentUsers scope in row order",
          "[sim][mbt][behavior_phase]") {
  for (unsigned threads : {1u, 2u, 4u}) {
    const Run r = run(threads, 12, {"speaker"}, twoSquads, 2);
    INFO(threads << " threads");
    // Rows 0, 2 are the red squad's first two, rows 1, 3 the blue squad's.
    for (uint64_t agent = 1; agent <= 12; ++agent) {
      REQUIRE(r.first_action.at(agent) == (agent <= 4 ? "Communicate" : "Animate"));
    }
  }
}

TEST_CASE("A tree that needs the tick thread ticks there, in row order with pooled trees",
          "[sim][mbt][behavior_phase]") {
  const std::vector<std::string> kinds{"waver", "planner", "speaker", "scripted"};
  const Run one = run(1, 32, kinds, ownGroup, 3);
  for (size_t i = 1; i < 32; ++i) {
    REQUIRE(one.actions[i].first == one.actions[i - 1].first + 1);
    REQUIRE(one.actions[i].second == one.actions[i - 1].second + 1);
  }
  REQUIRE(one.first_action.at(2) == "Animate");  // no plan: the planner's agent waved
  REQUIRE(one.first_action.at(4) == "Animate");  // the scripts ran, then it waved
  for (unsigned threads : {2u, 3u}) {
    const Run many = run(threads, 32, kinds, ownGroup, 3);
    REQUIRE(many.actions == one.actions);
    REQUIRE(many.events == one.events);
  }
}

TEST_CASE("Provisional intention ids never meet real ones and depend on tick and lane",
          "[sim][behavior_phase]") {
  const IntentionId a = BehaviorOutbox::firstProvisionalId(7, 3);
  REQUIRE(BehaviorOutbox::isProvisional(a));
  REQUIRE_FALSE(BehaviorOutbox::isProvisional(IntentionId{1'000'000'000'000}));
  REQUIRE(a != BehaviorOutbox::firstProvisionalId(7, 4));
  REQUIRE(a != BehaviorOutbox::firstProvisionalId(8, 3));
  // A lane's 2^20 provisional ids of one tick stay below the next lane's first.
  REQUIRE(raw(a) + (1u << 20) == raw(BehaviorOutbox::firstProvisionalId(7, 4)));
}
