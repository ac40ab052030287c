// Lua nodes (ExecuteLua, AssertLua, LuaGate, LuaWrapper), the sandbox, per-agent isolation,
// the entity API and how Lua errors are reported.
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

const std::string kVars = R"(<Variables><Variable name="Alarmed"/></Variables>
<Timestamps><Timestamp name="Hit" setOnEvent="OnHit"/></Timestamps>
)";

// Runs `code` in an AssertLua and returns the status.
MbtStatus assertLua(MbtFixture& f, const std::string& code) {
  REQUIRE(f.load(tree("<AssertLua code=\"" + code + "\"/>", kVars)) == "");
  return f.tick();
}

}  // namespace

TEST_CASE("ExecuteLua runs code with `entity` bound to the agent", "[mbt][lua][executelua]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Sequence>
  <ExecuteLua code="entity.someCounter = (entity.someCounter or 0) + 75"/>
  <AssertLua code="return entity.someCounter == 75"/>
  <Halt/>
</Sequence>)")) == "");
  SECTION("Should succeed and keep fields set on entity for this agent") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.runningPath() == "Sequence/Halt");
  }
  SECTION("Should fail with a located message on a Lua error, never crashing") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"~(<ExecuteLua code="entity.actor:HolsterItem(true)"/>)~")) == "");
    REQUIRE(g.tick() == MbtStatus::kFailure);
    REQUIRE(g.host.logs[0] == "Test.xml:3: <ExecuteLua> [agent 7]: Lua error: attempt to index "
                              "a nil value (field 'actor')");
    REQUIRE(g.describe()["log"][0]["kind"] == "error");
  }
  SECTION("Should report syntax errors at load with file and line") {
    REQUIRE(f.load(tree("<Sequence>\n<Halt/>\n<ExecuteLua code=\"x = = 1\"/>\n</Sequence>")) ==
            "Test.xml:5: <ExecuteLua> code does not compile: unexpected symbol near '='\n");
  }
  SECTION("Should keep multi-line code's own line numbers in messages") {
    MbtFixture g;
    REQUIRE(g.load(tree("<ExecuteLua code=\"local a = 1&#10;error('boom')\"/>")) == "");
    g.tick();
    REQUIRE(g.host.logs[0] == "Test.xml:3: <ExecuteLua> [agent 7]: Lua error: Test.xml:4: boom");
  }
}

TEST_CASE("AssertLua succeeds when its code returns a true value", "[mbt][lua][assertlua]") {
  MbtFixture f;
  SECTION("Should succeed on true and fail on false, nil or nothing") {
    REQUIRE(assertLua(f, "return 1 + 1 == 2") == MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "return false") == MbtStatus::kFailure);
    REQUIRE(assertLua(f, "return nil") == MbtStatus::kFailure);
    REQUIRE(assertLua(f, "local x = 1") == MbtStatus::kFailure);
  }
  SECTION("Should fail on an error") {
    REQUIRE(assertLua(f, "return nothing.here") == MbtStatus::kFailure);
    REQUIRE(f.host.logged("attempt to index a nil value (global 'nothing')"));
  }
}

TEST_CASE("LuaGate runs its child when its code returns true on entry", "[mbt][lua][luagate]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"~(<LuaGate code="return entity:GetVariable('Alarmed')">
  <Animate name="Alarm"/>
</LuaGate>)~",
                      kVars)) == "");
  SECTION("Should fail without running the child when the code returns false") {
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.started("Animate") == 0);
  }
  SECTION("Should run the child and return its status when true") {
    f.agent.setVariable("Alarmed", true);
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.agent.setVariable("Alarmed", false);  // not re-checked
    f.host.finish("Animate");
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should terminate its child and pass events down") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<LuaGate code="return true"><WaitForEvent name="Go"/></LuaGate>)")) == "");
    g.tick();
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
    f.agent.setVariable("Alarmed", true);
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
}

TEST_CASE("LuaWrapper runs code on entering and leaving its child", "[mbt][lua][luawrapper]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"~(<LuaWrapper onEnter="entity:Log('effect on')" onExit="entity:Log('effect off')">
  <Animate name="A"/>
</LuaWrapper>)~")) == "");
  SECTION("Should run onEnter on entry and onExit when the child finishes") {
    REQUIRE(f.tick() == MbtStatus::kRunning);
    REQUIRE(f.host.logs == std::vector<std::string>{"effect on"});
    f.host.finish("Animate", false);
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(f.host.logs[1] == "effect off");
  }
  SECTION("Should run onExit when interrupted") {
    f.tick();
    f.agent.terminate(f.host);
    REQUIRE(f.host.logs.back() == "effect off");
  }
  SECTION("Should fail without running the child when onEnter fails") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"~(<LuaWrapper onEnter="error('no')"><Animate name="A"/></LuaWrapper>)~")) == "");
    REQUIRE(g.tick() == MbtStatus::kFailure);
    REQUIRE(g.host.started("Animate") == 0);
  }
  SECTION("Should pass events to its child") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<LuaWrapper><WaitForEvent name="Go"/></LuaWrapper>)")) == "");
    g.tick();
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}

TEST_CASE("The Lua sandbox keeps scripts away from files, processes and each other",
          "[mbt][lua][sandbox]") {
  MbtFixture f;
  SECTION("Should not offer io, os, require, package, debug, load, dofile or loadfile") {
    for (const char* name : {"io", "os", "require", "package", "debug", "load", "loadstring",
                             "dofile", "loadfile", "collectgarbage", "coroutine", "rawset"}) {
      INFO(name);
      REQUIRE(assertLua(f, std::string("return ") + name + " == nil") == MbtStatus::kSuccess);
    }
    REQUIRE(assertLua(f, "return string.dump == nil and math.randomseed == nil") ==
            MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "return getmetatable('') == false") == MbtStatus::kSuccess);
  }
  SECTION("Should refuse finalizers and weak tables, whose timing follows the collector") {
    REQUIRE(assertLua(f, "setmetatable({}, { __gc = function() end })") ==
            MbtStatus::kFailure);
    REQUIRE(f.host.logged("__gc and __mode are not available to scripts"));
    REQUIRE(assertLua(f, "setmetatable({}, { __mode = 'k' })") == MbtStatus::kFailure);
    REQUIRE(assertLua(f, "local t = setmetatable({}, { __index = { x = 3 } }); return t.x == 3") ==
            MbtStatus::kSuccess);
  }
  SECTION("Should run scripts of agents ticking on different threads one at a time") {
    MbtLibrary library;
    REQUIRE(library.loadSources({{"T.xml", tree(R"(<Loop>
  <Sequence>
    <ExecuteLua code="local s = 0; for i = 1, 200 do s = s + i end; entity.sum = s; n = (n or 0) + 1"/>
    <AssertLua code="return entity.sum == 20100"/>
  </Sequence>
</Loop>)")}}).ok());
    library.reserveWorkspaces(4);
    std::vector<TestHost> hosts;
    std::vector<MbtInstance> agents(4);
    for (uint64_t i = 0; i < 4; ++i) {
      hosts.emplace_back(library.names());
      hosts.back().view.id = EntityId{i + 1};
      library.bind(agents[i], "T", hosts.back().view.id, 1);
    }
    std::vector<int> failures(4, 0);
    std::vector<std::thread> threads;
    for (unsigned w = 0; w < 4; ++w) {
      threads.emplace_back([&, w] {
        for (int t = 0; t < 300; ++t) failures[w] += agents[w].tick(hosts[w], w) != MbtStatus::kRunning;
      });
    }
    for (std::thread& t : threads) t.join();
    REQUIRE(failures == std::vector<int>(4, 0));
    for (unsigned w = 0; w < 4; ++w) REQUIRE(hosts[w].logs.empty());
  }
  SECTION("Should keep the shared libraries read-only") {
    REQUIRE(assertLua(f, "string.upper = nil") == MbtStatus::kFailure);
    REQUIRE(f.host.logged("attempt to modify a read-only table"));
    REQUIRE(assertLua(f, "return string.upper('a') == 'A' and #AI == 0") == MbtStatus::kSuccess);
  }
  SECTION("Should give each agent its own globals and entity") {
    MbtLibrary library;
    REQUIRE(library.loadSources({{"T.xml", tree(R"(<Sequence>
  <ExecuteLua code="counter = (counter or 0) + 1; entity.mine = entity.id"/>
  <AssertLua code="return counter == 1 and entity.mine == entity.id"/>
</Sequence>)")}}).ok());
    TestHost host_a(library.names()), host_b(library.names());
    host_b.view.id = EntityId{8};
    MbtInstance a, b;
    library.bind(a, "T", host_a.view.id, 1);
    library.bind(b, "T", host_b.view.id, 1);
    REQUIRE(a.tick(host_a) == MbtStatus::kSuccess);
    REQUIRE(b.tick(host_b) == MbtStatus::kSuccess);  // a's counter is not b's
    REQUIRE(a.tick(host_a) == MbtStatus::kFailure);  // a's own counter is now 2
  }
  SECTION("Should visit a table's keys in one order in every process") {
    // Lua's own order follows a hash seed drawn anew by every process; pairs() sorts, so a
    // loop decides the same in a replay or a restored daemon. Ten keys in Lua's order
    // would come out sorted by chance about once in 3.6 million runs.
    REQUIRE(assertLua(f, "local t = {} "
                         "for _, k in ipairs({'theta', 'alpha', 'kappa', 'eps', 'zeta', 'beta', "
                         "'iota', 'gamma', 'eta', 'delta'}) do t[k] = #k end "
                         "t[2] = true; t[1.5] = true; t[false] = 0; t[true] = 1 "
                         "local seen = {} "
                         "for k, v in pairs(t) do seen[#seen + 1] = tostring(k) end "
                         "return table.concat(seen, ' ') == 'false true 1.5 2 alpha beta delta "
                         "eps eta gamma iota kappa theta zeta' and t.alpha == 5") ==
            MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "local n = 0 for k, v in pairs(math) do n = n + 1 end "
                         "return n > 20") == MbtStatus::kSuccess);  // frozen tables too
    // next() walks the same order, skips fields cleared on the way, and says empty at once.
    REQUIRE(assertLua(f, "local t = {} "
                         "for _, k in ipairs({'theta', 'alpha', 'kappa', 'eps', 'zeta', 'beta', "
                         "'iota', 'gamma', 'eta', 'delta'}) do t[k] = #k end "
                         "t[2] = true; t[false] = 0 "
                         "local seen, k, v = {}, next(t) "
                         "while k ~= nil do "
                         "  seen[#seen + 1] = tostring(k) "
                         "  if k == 'delta' then t.eps = nil end "
                         "  k, v = next(t, k) "
                         "end "
                         "return table.concat(seen, ' ') == 'false 2 alpha beta delta eta gamma "
                         "iota kappa theta zeta' and next({}) == nil and next(t, 'zeta') == nil") ==
            MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "return next({a = 1}, 'b')") == MbtStatus::kFailure);
    REQUIRE(f.host.logged("invalid key to 'next'"));
  }
  SECTION("Should stop a runaway script with an error") {
    REQUIRE(assertLua(f, "while true do end") == MbtStatus::kFailure);
    REQUIRE(f.host.logged("script exceeded its budget of 1000000 instructions"));
  }
  SECTION("Should stop a script that eats memory") {
    MbtLibraryConfig config;
    config.lua_memory_limit_bytes = 4u << 20;
    MbtLibrary library(config);
    REQUIRE(library.loadSources({{"T.xml", tree(R"(<ExecuteLua code="local t = {} for i = 1, 1e7 do t[i] = i end"/>)")}}).ok());
    TestHost host(library.names());
    MbtInstance agent;
    library.bind(agent, "T", host.view.id, 1);
    REQUIRE(agent.tick(host) == MbtStatus::kFailure);
    REQUIRE(host.logged("not enough memory"));
    REQUIRE(library.lua().bytesInUse() < (4u << 20));
  }
  SECTION("Should draw math.random from the agent's seed") {
    auto draw = [](uint64_t seed) {
      MbtLibrary library;
      REQUIRE(library.loadSources({{"T.xml", tree(R"~(<ExecuteLua code="entity:Log(tostring(math.random(1, 1000000)))"/>)~")}}).ok());
      TestHost host(library.names());
      MbtInstance agent;
      library.bind(agent, "T", host.view.id, seed);
      agent.tick(host);
      return host.logs.at(0);
    };
    REQUIRE(draw(5) == draw(5));
    REQUIRE(draw(5) != draw(6));
  }
}

TEST_CASE("The entity API reads and writes the agent's state", "[mbt][lua][entity]") {
  MbtFixture f;
  f.host.view.position = {1, 2, 3};
  f.host.view.name = "Guard_1";
  SECTION("Should expose id, name, position, direction and home") {
    REQUIRE(assertLua(f, "return entity.id == 7 and entity.name == 'Guard_1'") ==
            MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "local p = entity:GetPos() return p.x == 1 and p.y == 2 and p.z == 3") ==
            MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "return entity:GetDirection().x == 1 and entity:GetHome().x == 0") ==
            MbtStatus::kSuccess);
  }
  SECTION("Should expose the attention target") {
    REQUIRE(assertLua(f, "return not entity:HasTarget() and entity:GetTargetDistance() == math.huge") ==
            MbtStatus::kSuccess);
    f.host.seeTarget(EntityId{99}, {4, 6, 3});
    REQUIRE(assertLua(f, "return entity:GetTargetDistance() == 5 and entity:GetTargetId() == 99") ==
            MbtStatus::kSuccess);
  }
  SECTION("Should say whether the target can be walked to, and how far") {
    f.host.view.position = {0, 0, 0};
    REQUIRE(assertLua(f, "local ok, m = entity:CanReachTarget() return not ok and m == nil") ==
            MbtStatus::kSuccess);
    f.host.seeTarget(EntityId{99}, {6, 8, 0});
    // Open ground (no navmesh): the straight line.
    REQUIRE(assertLua(f, "local ok, m = entity:CanReachTarget() return ok and m == 10") ==
            MbtStatus::kSuccess);
    f.host.ground = true;
    f.host.detour = 2.f;
    REQUIRE(assertLua(f, "local ok, m = entity:CanReachTarget(15) return not ok and m == 20") ==
            MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "return entity:CanReachTarget(20)") == MbtStatus::kSuccess);
    f.host.river_x = 5.f;
    REQUIRE(assertLua(f, "local ok, m = entity:CanReachTarget() return not ok and m == nil") ==
            MbtStatus::kSuccess);
  }
  SECTION("Should read and write tree variables and read timestamps") {
    REQUIRE(assertLua(f, "entity:SetVariable('Alarmed', true) return entity:TimeSince('Hit') == nil") ==
            MbtStatus::kSuccess);
    REQUIRE(f.agent.variable("Alarmed") == true);
    f.event("OnHit");
    f.host.now = 2.0;
    REQUIRE(f.tick() == MbtStatus::kFailure);
    REQUIRE(assertLua(f, "return entity:TimeSince('Hit') == nil") == MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "return entity:GetVariable('Nope')") == MbtStatus::kFailure);
    REQUIRE(f.host.logged("tree \"Test\" declares no variable \"Nope\""));
  }
  SECTION("Should send signals and log") {
    REQUIRE(assertLua(f, "entity:Signal('Help', 'Group') print('a', 1) return true") ==
            MbtStatus::kSuccess);
    REQUIRE(f.sent("Help"));
    REQUIRE(f.host.signal_log[0].second == MbtSignalScope::kGroup);
    REQUIRE(f.host.logs[0] == "a\t1");
  }
  SECTION("Should offer AI functions for the agent's own id only") {
    f.host.view.group = 12;
    REQUIRE(assertLua(f, "AI.SetRefPointPosition(entity.id, {x = 1, y = 2, z = 3}) "
                         "return AI.GetGroupOf(entity.id) == 12 and "
                         "AI.GetRefPointPosition(entity.id).y == 2 and "
                         "AI.GetGroupScopeUserCount(entity.id, 'Nobody') == 0") ==
            MbtStatus::kSuccess);
    REQUIRE(assertLua(f, "return AI.GetGroupOf(1234)") == MbtStatus::kFailure);
    REQUIRE(f.host.logged("only the agent's own entity.id is accepted here"));
  }
}

TEST_CASE("A Lua prelude adds a game's API for every script, read-only", "[mbt][lua][prelude]") {
  MbtFixture f;
  REQUIRE(f.library.setLuaPrelude(R"(
EntityPrototype = { actor = { HolsterItem = function(self, holster) return holster end } }
function IsNight() return true end
AI.IsInCover = function(id) return false end
)").isOk());
  SECTION("Should let scripts call the prelude's functions and entity fields") {
    REQUIRE(assertLua(f, "return entity.actor:HolsterItem(true) and IsNight() and "
                         "not AI.IsInCover(entity.id)") == MbtStatus::kSuccess);
  }
  SECTION("Should keep the prelude's tables read-only") {
    REQUIRE(assertLua(f, "entity.actor.HolsterItem = nil") == MbtStatus::kFailure);
    REQUIRE(assertLua(f, "AI.IsInCover = nil") == MbtStatus::kFailure);
  }
  SECTION("Should report a prelude that does not compile") {
    const Status s = f.library.setLuaPrelude("x = = 1", "game.lua");
    REQUIRE(s.message() == "Lua prelude: game.lua:1: unexpected symbol near '='");
  }
}

namespace {

// The value under text key `key` of a saved table (a failed REQUIRE when absent).
const LuaSaved& field(const LuaSaved& table, const std::string& key) {
  for (size_t i = 0; i < table.keys.size(); ++i) {
    if (table.keys[i] == LuaSaved::ofText(key)) return table.values[i];
  }
  FAIL("no field " << key);
  return table;
}

}  // namespace

TEST_CASE("What scripts keep of their own outlives a snapshot", "[mbt][lua][snapshot]") {
  // A script keeps a counter in its globals and text and a nested table on `entity`; a
  // second instance restored from what the first saved carries on from there.
  const std::string source = tree(R"~(<Sequence>
  <ExecuteLua code="visits = (visits or 0) + 1
    entity.route = entity.route or {stops = {'well', 'mill'}, [3] = true, ratio = 0.5}
    entity.note = 'seen ' .. visits
    helper = function() return 1 end
    loop = {}; loop.self = loop"/>
  <AssertLua code="return entity.id == 7"/>
  <Halt/>
</Sequence>)~");
  MbtLibrary library;
  REQUIRE(library.loadSources({{"T.xml", source}}).ok());
  TestHost host(library.names());
  MbtInstance first;
  library.bind(first, "T", host.view.id, 1);
  LuaEnvImage image;
  REQUIRE_FALSE(first.saveLua(image));  // no script ran: nothing kept
  first.tick(host);

  SECTION("Should save values and tables, sorted by key, and count what it leaves out") {
    REQUIRE(first.saveLua(image));
    // helper (a function) and loop.self (a cycle) are left out; loop stays, empty.
    REQUIRE(image.globals.keys ==
            std::vector<LuaSaved>{LuaSaved::ofText("loop"), LuaSaved::ofText("visits")});
    REQUIRE(field(image.globals, "loop").kind == LuaSaved::Kind::kTable);
    REQUIRE(field(image.globals, "loop").keys.empty());
    REQUIRE(field(image.globals, "visits") == LuaSaved::ofInteger(1));
    REQUIRE(image.left_out == 2);
    REQUIRE(image.entity.keys ==
            std::vector<LuaSaved>{LuaSaved::ofText("note"), LuaSaved::ofText("route")});
    REQUIRE(field(image.entity, "note") == LuaSaved::ofText("seen 1"));
    const LuaSaved& route = field(image.entity, "route");
    REQUIRE(route.keys == std::vector<LuaSaved>{LuaSaved::ofInteger(3), LuaSaved::ofText("ratio"),
                                                LuaSaved::ofText("stops")});
    REQUIRE(route.values[0] == LuaSaved::ofBoolean(true));
    REQUIRE(route.values[1] == LuaSaved::ofNumber(0.5));
    REQUIRE(route.values[2].values ==
            std::vector<LuaSaved>{LuaSaved::ofText("well"), LuaSaved::ofText("mill")});
  }

  SECTION("Should give a restored agent's scripts what they kept") {
    REQUIRE(first.saveLua(image));
    MbtInstance second;
    library.bind(second, "T", host.view.id, 1);
    second.setRestoredLua(image);
    LuaEnvImage pending;
    REQUIRE(second.saveLua(pending));  // kept until a script runs, and saved meanwhile
    REQUIRE(pending == image);
    second.tick(host);
    LuaEnvImage after;
    REQUIRE(second.saveLua(after));
    REQUIRE(field(after.globals, "visits") == LuaSaved::ofInteger(2));
    REQUIRE(field(after.entity, "note") == LuaSaved::ofText("seen 2"));
    REQUIRE(field(after.entity, "route") == field(image.entity, "route"));
  }

  SECTION("Should never let a saved image replace the daemon's own keys") {
    LuaEnvImage hostile;
    hostile.globals.keys = {LuaSaved::ofText("entity"), LuaSaved::ofText("visits")};
    hostile.globals.values = {LuaSaved::ofInteger(5), LuaSaved::ofInteger(41)};
    hostile.entity.keys = {LuaSaved::ofText("id")};
    hostile.entity.values = {LuaSaved::ofInteger(999)};
    MbtInstance second;
    library.bind(second, "T", host.view.id, 1);
    second.setRestoredLua(hostile);
    // Both scripts ran without an error, and entity.id is still the agent's.
    REQUIRE(second.tick(host) == MbtStatus::kRunning);
    LuaEnvImage after;
    REQUIRE(second.saveLua(after));
    REQUIRE(field(after.globals, "visits") == LuaSaved::ofInteger(42));
    REQUIRE(field(after.entity, "note") == LuaSaved::ofText("seen 42"));
    REQUIRE(host.logs.empty());
  }
}
