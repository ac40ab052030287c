// Timestamps (set on events, exclusiveTo) and the nodes reading them: IfTime,
// WaitUntilTime, AssertTime (BT-REFERENCE.md §3 and the doc-vs-code notes in §6).
#include <catch2/catch.hpp>

#include "mbt_test_support.h"

using namespace npc;
using namespace npc::test;

namespace {

const std::string kStamps = R"(<Timestamps>
  <Timestamp name="TargetSpotted" setOnEvent="OnEnemySeen" exclusiveTo="TargetLost"/>
  <Timestamp name="TargetLost" setOnEvent="OnLostSightOfTarget" exclusiveTo="TargetSpotted"/>
  <Timestamp name="ReceivedDamage" setOnEvent="OnEnemyDamage"/>
</Timestamps>
)";

}  // namespace

TEST_CASE("Timestamps record when events happened; exclusive ones clear each other",
          "[mbt][timestamps]") {
  MbtFixture f;
  REQUIRE(f.load(tree("<Halt/>", kStamps)) == "");
  f.host.now = 10.0;
  SECTION("Should be unset until their event arrives, then measure elapsed time") {
    REQUIRE(f.describe()["timestamps"]["TargetSpotted"]["ever_set"] == false);
    REQUIRE_FALSE(f.agent.elapsed(0, f.host.now).has_value());
    f.event("OnEnemySeen");
    f.host.now = 12.5;
    REQUIRE(f.agent.elapsed(0, f.host.now) == 2.5);
    REQUIRE(f.describe()["timestamps"]["TargetSpotted"]["elapsed_s"] == 2.5);
  }
  SECTION("Should invalidate the exclusiveTo timestamp but remember it was set") {
    f.event("OnEnemySeen");
    f.event("OnLostSightOfTarget");
    REQUIRE_FALSE(f.agent.timestamp(0).valid);
    REQUIRE(f.agent.timestamp(0).ever_set);
    REQUIRE(f.agent.timestamp(1).valid);
    f.event("OnEnemySeen");
    REQUIRE(f.agent.timestamp(0).valid);
    REQUIRE_FALSE(f.agent.timestamp(1).valid);
  }
  SECTION("Should refuse unknown names, duplicates and missing events with lines") {
    REQUIRE(f.load(tree("<Halt/>", R"(<Timestamps>
  <Timestamp name="A" setOnEvent="E" exclusiveTo="Nope"/>
  <Timestamp name="A" setOnEvent="E"/>
  <Timestamp name="B"/>
</Timestamps>
)")) == "Test.xml:6: <Timestamp> exclusiveTo \"Nope\" is not a declared timestamp\n"
        "Test.xml:7: <Timestamp> duplicate timestamp \"A\"\n"
        "Test.xml:8: <Timestamp> needs attribute \"setOnEvent\"\n");
    REQUIRE(f.load(tree(R"(<IfTime since="Unknown" isMoreThan="1"><Halt/></IfTime>)", kStamps)) ==
            "Test.xml:3: <IfTime> since \"Unknown\" is not a declared timestamp\n");
  }
}

TEST_CASE("IfTime gates its child on the time since a timestamp", "[mbt][nodes][iftime]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<Selector>
  <IfTime since="ReceivedDamage" isLessThan="5">
    <Animate name="TakeCover"/>
  </IfTime>
  <IfTime since="TargetSpotted" isMoreThan="3" orNeverBeenSet="1">
    <Animate name="Patrol"/>
  </IfTime>
  <Halt/>
</Selector>)",
                      kStamps)) == "");
  SECTION("Should open when the comparison holds (strictly)") {
    f.event("OnEnemyDamage");
    f.host.now = 4.9;
    f.tick();
    REQUIRE(f.host.running("Animate") == 1);
    REQUIRE(f.host.last("Animate")->request.params[0].text == f.library.names().find("TakeCover"));
  }
  SECTION("Should open when never set and orNeverBeenSet=1 (doc and code agree)") {
    f.tick();
    REQUIRE(f.runningPath() == "Selector/IfTime/Animate");
    REQUIRE(f.describe()["running"][1]["text"] == "TargetSpotted never set");
  }
  SECTION("Should stay closed when the timestamp was set then cleared") {
    f.event("OnEnemySeen");
    f.event("OnLostSightOfTarget");
    f.host.now = 100;
    f.tick();
    REQUIRE(f.runningPath() == "Selector/Halt");
  }
  SECTION("Should be evaluated on entry only and terminate its child") {
    f.tick();
    f.event("OnEnemySeen");  // would close the gate now
    f.tick();
    REQUIRE(f.runningPath() == "Selector/IfTime/Animate");
    f.agent.terminate(f.host);
    REQUIRE(f.host.last("Animate")->cancelled);
  }
  SECTION("Should pass events to its child") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<IfTime since="TargetSpotted" isMoreThan="1" orNeverBeenSet="1"><WaitForEvent name="Go"/></IfTime>)",
                        kStamps)) == "");
    g.tick();
    g.event("Go");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should need exactly one of isMoreThan and isLessThan") {
    REQUIRE(f.load(tree(R"(<IfTime since="TargetLost"><Halt/></IfTime>)", kStamps)) ==
            "Test.xml:3: <IfTime> needs attribute \"isMoreThan\" or \"isLessThan\"\n");
    REQUIRE(f.load(tree(R"(<IfTime since="TargetLost" isMoreThan="1" isLessThan="2"><Halt/></IfTime>)",
                        kStamps)) ==
            "Test.xml:3: <IfTime> takes only one of isMoreThan and isLessThan\n");
  }
}

TEST_CASE("WaitUntilTime waits for the time since a timestamp", "[mbt][nodes][waituntiltime]") {
  SECTION("Should be Running until the comparison holds, then succeed") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<WaitUntilTime since="ReceivedDamage" isMoreThan="5"/>)", kStamps)) == "");
    f.event("OnEnemyDamage");
    f.host.now = 5.0;
    REQUIRE(f.tick() == MbtStatus::kRunning);
    f.host.now = 5.01;
    REQUIRE(f.tick() == MbtStatus::kSuccess);
  }
  SECTION("Should keep waiting when never set, as CryEngine's code does (docs say fail)") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<WaitUntilTime since="ReceivedDamage" isMoreThan="5"/>)", kStamps)) == "");
    REQUIRE(f.run(100, 1.0) == MbtStatus::kRunning);
  }
  SECTION("Should succeed when never set with succeedIfNeverBeenSet (or the docs' "
          "orNeverBeenSet)") {
    for (const char* flag : {"succeedIfNeverBeenSet", "orNeverBeenSet"}) {
      MbtFixture f;
      REQUIRE(f.load(tree(std::string(R"(<WaitUntilTime since="ReceivedDamage" isMoreThan="5" )") +
                              flag + "=\"1\"/>",
                          kStamps)) == "");
      REQUIRE(f.tick() == MbtStatus::kSuccess);
    }
  }
  SECTION("Should be terminated by its parent and ignore events") {
    MbtFixture f;
    REQUIRE(f.load(tree(R"(<WaitUntilTime since="ReceivedDamage" isMoreThan="5"/>)", kStamps)) == "");
    f.tick();
    f.event("Go");
    f.agent.terminate(f.host);
    REQUIRE(f.agent.activeNodes() == 0);
  }
}

TEST_CASE("AssertTime tests the time since a timestamp at once", "[mbt][nodes][asserttime]") {
  MbtFixture f;
  REQUIRE(f.load(tree(R"(<AssertTime since="TargetSpotted" isLessThan="2"/>)", kStamps)) == "");
  SECTION("Should fail when never set") { REQUIRE(f.tick() == MbtStatus::kFailure); }
  SECTION("Should succeed while the comparison holds and fail after") {
    f.event("OnEnemySeen");
    f.host.now = 1.0;
    REQUIRE(f.tick() == MbtStatus::kSuccess);
    f.host.now = 3.0;
    REQUIRE(f.tick() == MbtStatus::kFailure);
  }
  SECTION("Should succeed when never set with orNeverBeenSet") {
    MbtFixture g;
    REQUIRE(g.load(tree(R"(<AssertTime since="TargetSpotted" isLessThan="2" orNeverBeenSet="1"/>)",
                        kStamps)) == "");
    REQUIRE(g.tick() == MbtStatus::kSuccess);
  }
}
