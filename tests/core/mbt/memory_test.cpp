// The memory model (seed 002, "Understanding the Memory Model"): one immutable template per
// tree shared by all agents; per agent only variables, timestamps and the runtime data of
// the nodes it is in, created on entry and freed on leave from a bucket allocator; and no
// heap allocation per tick.

#include <catch2/catch.hpp>

#include "mbt_test_support.h"
#include "allocation_counter.h"

using namespace npc;
using namespace npc::test;

namespace {

// A small combat loop with every kind of composite, decorators, timers, events and actions.
const std::string kCombat = tree(R"(<StateMachine>
  <State name="Idle">
    <Transitions><Transition onEvent="OnEnemySeen" to="Combat"/></Transitions>
    <BehaviorTree>
      <Loop>
        <Sequence>
          <Wait duration="0.5" variation="0.2"/>
          <Animate name="LookAround"/>
        </Sequence>
      </Loop>
    </BehaviorTree>
  </State>
  <State name="Combat">
    <Transitions><Transition onEvent="OnLostSightOfTarget" to="Idle"/></Transitions>
    <BehaviorTree>
      <Loop>
        <Parallel successMode="any">
          <Sequence>
            <QueryTPS name="Near" register="RefPoint"/>
            <Move to="RefPoint" speed="Run"/>
            <Priority>
              <Case condition="HasTarget"><Shoot at="Target" duration="1"/></Case>
              <Case><Wait duration="0.2"/></Case>
            </Priority>
          </Sequence>
          <Timeout duration="3"/>
          <WaitForEvent name="OnBulletRain"/>
        </Parallel>
      </Loop>
    </BehaviorTree>
  </State>
</StateMachine>)",
                                 R"(<Variables><Variable name="HasTarget"/></Variables>
<SignalVariables>
  <Signal name="OnEnemySeen" variable="HasTarget" value="true"/>
  <Signal name="OnLostSightOfTarget" variable="HasTarget" value="false"/>
</SignalVariables>
<Timestamps><Timestamp name="TargetSpotted" setOnEvent="OnEnemySeen"/></Timestamps>
)");

}  // namespace

TEST_CASE("Runtime data exists only while an agent is inside a node", "[mbt][memory]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence>
  <Wait duration="1"/>
  <Loop count="2"><Animate name="A"/></Loop>
</Sequence>)")) == "");
  const size_t idle = f.library.allocator().bytesInUse();
  SECTION("Should allocate data on entering and free it on leaving each node") {
    f.tick();  // Sequence + Wait
    REQUIRE(f.agent.activeNodes() == 2);
    REQUIRE(f.agent.runtimeBytes() == 32);  // two 16-byte blocks
    f.run(11);  // Wait done: Sequence + Loop + Animate
    REQUIRE(f.agent.activeNodes() == 3);
    REQUIRE(f.runningPath() == "Sequence/Loop/Animate");
    REQUIRE(f.agent.runtimeBytes() == 16 + 16 + 32);  // Animate waits on a handle
    f.host.finish("Animate");
    f.tick();
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    REQUIRE(f.agent.activeNodes() == 0);
    REQUIRE(f.agent.runtimeBytes() == 0);
    // What remains is the log history the root-finished message created.
    REQUIRE(f.library.allocator().bytesInUse() ==
            idle + BucketAllocator::blockBytes(kMbtLogHistory * sizeof(MbtLogEntry)));
  }
  SECTION("Should free everything on terminate and on destruction") {
    f.tick();
    REQUIRE(f.library.allocator().bytesInUse() > idle);
    f.agent.terminate(f.host);
    REQUIRE(f.agent.runtimeBytes() == 0);
    REQUIRE(f.library.allocator().bytesInUse() == idle);
    f.tick();
    f.agent = MbtInstance();
    REQUIRE(f.library.stats().instances == 0);
  }
}

TEST_CASE("Agents share the tree; each holds a few hundred bytes", "[mbt][memory]") {
  MbtLibrary library;
  REQUIRE(library.loadSources({{"Combat.xml", kCombat}}).text() == "");
  const MbtTree& tree = *library.findTree("Combat");
  std::vector<TestHost> hosts;
  std::vector<MbtInstance> agents(100);
  for (int i = 0; i < 100; ++i) {
    hosts.emplace_back(library.names());
    hosts.back().view.id = static_cast<EntityId>(i + 1);
    hosts.back().seeTarget(EntityId{1000}, {10, 0, 0});
    library.bind(agents[i], "Combat", hosts[i].view.id, 1);
  }
  SECTION("Should keep nodes in the shared template and only slots per agent") {
    REQUIRE(tree.nodeCount() == 15);
    REQUIRE(tree.slotCount() == 8);  // the Parallel's three branches need their own slots
    for (int i = 0; i < 100; ++i) agents[i].tick(hosts[i]);  // Idle
    const SignalId seen = library.signals().intern("OnEnemySeen");
    for (int i = 0; i < 100; ++i) agents[i].handleEvent(seen, hosts[i]);
    for (int i = 0; i < 100; ++i) agents[i].tick(hosts[i]);  // Combat
    for (const MbtInstance& a : agents) {
      REQUIRE(a.bytesUsed() < 600);
      REQUIRE(a.activeNodes() == 7);
    }
    const nlohmann::json memory = library.describe(agents[0], 0)["memory"];
    REQUIRE(memory["bytes"] == agents[0].bytesUsed());
    REQUIRE(memory["running_nodes"] == 7);
    REQUIRE(library.stats().instances == 100);
  }
}

TEST_CASE("A tick allocates nothing from the heap once warmed up", "[mbt][memory]") {
  MbtLibrary library;
  REQUIRE(library.loadSources({{"Combat.xml", kCombat}}).text() == "");
  std::vector<TestHost> hosts;
  std::vector<MbtInstance> agents(50);
  hosts.reserve(50);
  for (int i = 0; i < 50; ++i) {
    hosts.emplace_back(library.names());
    hosts.back().view.id = static_cast<EntityId>(i + 1);
    hosts.back().seeTarget(EntityId{1000}, {10, 0, 0});
    hosts.back().record_logs = false;
    hosts.back().actions.reserve(100000);
    library.bind(agents[i], "Combat", hosts[i].view.id, static_cast<uint64_t>(i));
  }
  const SignalId seen = library.signals().intern("OnEnemySeen");
  const SignalId lost = library.signals().intern("OnLostSightOfTarget");
  const SignalId rain = library.signals().intern("OnBulletRain");
  auto run = [&](int ticks) {
    for (int t = 0; t < ticks; ++t) {
      for (int i = 0; i < 50; ++i) {
        TestHost& h = hosts[i];
        h.now += 0.1;
        h.finishOlderThan(0.25);
        if ((t + i) % 40 == 0) agents[i].handleEvent(seen, h);
        if ((t + i) % 40 == 25) agents[i].handleEvent(lost, h);
        if ((t + i) % 13 == 0) agents[i].handleEvent(rain, h);
        agents[i].tick(h);
      }
    }
  };
  run(200);  // warm up: buckets reach their peak
  SECTION("Should make no heap allocation while events and ticks run") {
    const uint64_t before = npc::test::allocationCount();
    run(400);
    REQUIRE(npc::test::allocationCount() - before == 0);
    size_t shots = 0;
    for (const TestHost& h : hosts) shots += h.started("Shoot");
    REQUIRE(shots > 100);  // the agents really fought
  }
}

TEST_CASE("Lua nodes allocate only inside Lua's bucket-backed heap", "[mbt][memory][lua]") {
  MbtLibrary library;
  REQUIRE(library.loadSources({{"Scripted.xml", tree(R"~(<Loop>
  <Sequence>
    <ExecuteLua code="entity.shots = (entity.shots or 0) + 1; local p = entity:GetPos()"/>
    <SuppressFailure>
      <LuaGate code="return entity:GetTargetDistance() &lt; 50 and entity.shots % 2 == 0">
        <Shoot at="Target"/>
      </LuaGate>
    </SuppressFailure>
  </Sequence>
</Loop>)~")}}).text() == "");
  std::vector<TestHost> hosts;
  std::vector<MbtInstance> agents(20);
  hosts.reserve(20);
  for (int i = 0; i < 20; ++i) {
    hosts.emplace_back(library.names());
    hosts.back().view.id = static_cast<EntityId>(i + 1);
    hosts.back().seeTarget(EntityId{1000}, {10, 0, 0});
    hosts.back().actions.reserve(100000);
    library.bind(agents[i], "Scripted", hosts[i].view.id, 1);
  }
  auto run = [&](int ticks) {
    for (int t = 0; t < ticks; ++t) {
      for (int i = 0; i < 20; ++i) {
        hosts[i].now += 0.1;
        hosts[i].finishOlderThan(0.1);
        agents[i].tick(hosts[i]);
      }
    }
  };
  run(300);
  SECTION("Should make no operator new call once Lua's heap is warm") {
    const uint64_t before = npc::test::allocationCount();
    run(300);
    REQUIRE(npc::test::allocationCount() - before == 0);
    REQUIRE(hosts[0].started("Shoot") > 50);
    REQUIRE(hosts[0].logs.empty());
  }
}

TEST_CASE("A worker's ticks take node data from its own workspace", "[mbt][memory]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence>
  <Wait duration="1"/>
  <Animate name="A"/>
</Sequence>)")) == "");
  f.library.reserveWorkspaces(2);
  const size_t idle = f.library.stats().runtime_bytes;
  BucketAllocator& worker = f.library.workspace(1).allocator;
  REQUIRE(f.agent.tick(f.host, 1) == MbtStatus::kRunning);  // Sequence + Wait, on worker 1

  SECTION("Should allocate from the worker's allocator, not the tick thread's") {
    REQUIRE(worker.liveBlocks() == 2);
    REQUIRE(worker.bytesInUse() == 32);
    REQUIRE(f.library.stats().runtime_bytes == idle + 32);
  }
  SECTION("Should take the blocks back on the tick thread and count them exactly in sum") {
    f.agent.terminate(f.host);  // workspace 0 frees what workspace 1 gave
    REQUIRE(f.agent.runtimeBytes() == 0);
    REQUIRE(f.library.stats().runtime_bytes == idle);
    f.agent.tick(f.host);  // the tick thread reuses the freed blocks
    REQUIRE(f.library.stats().runtime_bytes == idle + 32);
  }
}

TEST_CASE("The bucket allocator reuses freed blocks by size class", "[mbt][memory]") {
  BucketAllocator buckets;
  SECTION("Should round up to a class and reuse the freed block") {
    REQUIRE(BucketAllocator::blockBytes(1) == 16);
    REQUIRE(BucketAllocator::blockBytes(17) == 32);
    REQUIRE(BucketAllocator::blockBytes(65) == 96);
    REQUIRE(BucketAllocator::blockBytes(2000) == 2000);
    void* a = buckets.allocate(24);
    buckets.deallocate(a, 24);
    void* b = buckets.allocate(30);
    REQUIRE(a == b);
    REQUIRE(buckets.bytesInUse() == 32);
    buckets.deallocate(b, 30);
    REQUIRE(buckets.bytesInUse() == 0);
    REQUIRE(buckets.peakBytesInUse() == 32);
  }
  SECTION("Should serve large blocks from the heap and count them") {
    void* big = buckets.allocate(5000);
    REQUIRE(buckets.largeBytes() == 5000);
    buckets.deallocate(big, 5000);
    REQUIRE(buckets.largeBytes() == 0);
  }
  SECTION("Should not touch the heap once a class has free blocks") {
    std::vector<void*> blocks(1000);
    for (void*& p : blocks) p = buckets.allocate(48);
    for (void* p : blocks) buckets.deallocate(p, 48);
    const uint64_t before = npc::test::allocationCount();
    for (void*& p : blocks) p = buckets.allocate(40);
    for (void* p : blocks) buckets.deallocate(p, 40);
    REQUIRE(npc::test::allocationCount() == before);
  }
}
