// Argument checks at submission (ActionImpl::checkArgs): known actions refuse absurd
// parameters with the parameter and its bound named, before anything is queued.
#include <vector>

#include <catch2/catch.hpp>

#include "intent/action_impl.h"
#include "intent/inventory_actions.h"

using namespace npc;

TEST_CASE("Wait checks its duration and unit when programmed", "[intent][bounds]") {
  NameTable<ActionNameId> names;
  const WaitAction wait(names);
  auto value = [&](double v, const char* unit) { return ActionArg::ofValue(v, names.intern(unit)); };

  SECTION("Should accept durations in ms, s, min and h up to a week") {
    for (const char* unit : {"ms", "s", "min", "h", ""}) {
      const std::vector<ActionArg> args{value(10, unit)};
      REQUIRE(wait.checkArgs(args, names).empty());
    }
    const std::vector<ActionArg> week{value(168, "h")};
    REQUIRE(wait.checkArgs(week, names).empty());
  }
  SECTION("Should refuse a negative duration, naming it with its unit") {
    const std::vector<ActionArg> args{value(-5, "min")};
    REQUIRE(wait.checkArgs(args, names) == "params[0].number: must be within 0..604800 s (got -5 min)");
  }
  SECTION("Should refuse a duration beyond a week") {
    const std::vector<ActionArg> args{ActionArg::ofMessage(names.intern("bread")), value(1e300, "s")};
    REQUIRE(wait.checkArgs(args, names) == "params[1].number: must be within 0..604800 s (got 1e+300 s)");
    const std::vector<ActionArg> hours{value(169, "h")};
    REQUIRE(wait.checkArgs(hours, names) == "params[0].number: must be within 0..604800 s (got 169 h)");
  }
  SECTION("Should refuse a unit that is not a unit of time") {
    const std::vector<ActionArg> args{value(1e300, "parsec")};
    REQUIRE(wait.checkArgs(args, names) ==
            "params[0].unit: \"parsec\" is not a unit of time (ms, s, min or h)");
  }
  SECTION("Should refuse a Wait without a duration") {
    REQUIRE(wait.checkArgs({}, names) ==
            "params: Wait needs a duration (a number with unit ms, s, min or h)");
  }
}

TEST_CASE("Drop and Give check their count when programmed", "[intent][bounds]") {
  NameTable<ActionNameId> names;
  const DropAction drop(names);
  const GiveAction give(names);
  const ActionArg bread = ActionArg::ofMessage(names.intern("bread"));

  SECTION("Should accept no count (one) and whole counts from 1") {
    REQUIRE(drop.checkArgs(std::vector<ActionArg>{bread}, names).empty());
    REQUIRE(drop.checkArgs(
                    std::vector<ActionArg>{bread, ActionArg::ofValue(3, ActionNameId::kNone)},
                    names)
                .empty());
  }
  SECTION("Should refuse a negative, fractional or huge count, naming the parameter") {
    const std::vector<ActionArg> negative{bread, ActionArg::ofValue(-3, ActionNameId::kNone)};
    REQUIRE(drop.checkArgs(negative, names) ==
            "params[1].number: a count must be a whole number within 1..1000000 (got -3)");
    const std::vector<ActionArg> half{ActionArg::ofEntity(EntityId{3}), bread,
                                      ActionArg::ofValue(0.5, ActionNameId::kNone)};
    REQUIRE(give.checkArgs(half, names) ==
            "params[2].number: a count must be a whole number within 1..1000000 (got 0.5)");
    const std::vector<ActionArg> huge{bread, ActionArg::ofValue(1e12, ActionNameId::kNone)};
    REQUIRE(give.checkArgs(huge, names) ==
            "params[1].number: a count must be a whole number within 1..1000000 (got 1e+12)");
  }
}
