// TargetGrid: the potential targets in a grid per species that may not see them, compared
// with the rule it stands for (every target within range, less those of the viewer's own
// species, lowest indices first) on random worlds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <vector>

#include "base/rng.h"
#include "perception/target_grid.h"

using namespace npc;

namespace {

struct Target {
  Vec3 eye;
  std::optional<SpeciesId> hidden_from;
  bool shared = false;  // beyond the species groups: given to every viewer
};

// The candidates a single grid of every target gives, after the same-species rule, except
// that targets in the shared group are given whatever their species.
std::vector<uint32_t> expected(const std::vector<Target>& targets, Vec3 eye, float radius,
                               SpeciesId viewer, size_t cap, bool* truncated) {
  std::vector<uint32_t> in;
  for (uint32_t i = 0; i < targets.size(); ++i) {
    const Target& t = targets[i];
    if (distanceSq(t.eye, eye) > radius * radius) continue;
    if (t.hidden_from && *t.hidden_from == viewer && !t.shared) continue;
    in.push_back(i);
  }
  *truncated = in.size() > cap;
  if (in.size() > cap) in.resize(cap);
  return in;
}

std::vector<Target> randomTargets(Rng& rng, size_t count, uint16_t species) {
  std::vector<Target> targets(count);
  for (Target& t : targets) {
    t.eye = {rng.range(-80.f, 80.f), rng.range(-80.f, 80.f), rng.range(0.f, 3.f)};
    if (rng.range(0.f, 1.f) < 0.1f) continue;  // a player
    const auto s = static_cast<uint16_t>(rng.next() % species);
    t.hidden_from = s == species - 1 && species > 2 ? SpeciesId::kNone : SpeciesId{s};
  }
  // Which species fall to the shared group: those met after the first kMaxSpeciesGroups.
  std::vector<SpeciesId> met;
  for (Target& t : targets) {
    if (!t.hidden_from) continue;
    if (std::find(met.begin(), met.end(), *t.hidden_from) == met.end()) {
      met.push_back(*t.hidden_from);
    }
    const auto at = std::find(met.begin(), met.end(), *t.hidden_from) - met.begin();
    t.shared = static_cast<size_t>(at) >= TargetGrid::kMaxSpeciesGroups;
  }
  return targets;
}

}  // namespace

TEST_CASE("TargetGrid gives what one grid gives, less the viewer's own species",
          "[perception][vision]") {
  Rng rng(11);
  TargetGrid grid(12.f);
  // Few species, then more than get a group of their own, then few again: the grid is
  // reused from tick to tick as a tick would.
  for (const uint16_t species : {3, 40, 1, 15, 2}) {
    const std::vector<Target> targets = randomTargets(rng, 600, species);
    grid.clear();
    for (uint32_t i = 0; i < targets.size(); ++i) {
      grid.add(i, targets[i].eye, targets[i].hidden_from);
    }
    grid.build();
    REQUIRE(grid.groupCount() <= TargetGrid::kMaxSpeciesGroups + 2);
    std::vector<uint32_t> out;
    for (int q = 0; q < 300; ++q) {
      const Vec3 eye{rng.range(-90.f, 90.f), rng.range(-90.f, 90.f), 1.7f};
      const float radius = rng.range(0.f, 40.f);
      const SpeciesId viewer = q % 7 == 0 ? SpeciesId::kNone
                                          : SpeciesId{static_cast<uint16_t>(q % species)};
      out.assign(q % 3 == 0 ? 8 : 128, 0);
      bool truncated = false, want_truncated = false;
      const uint32_t n = grid.query(eye, radius, viewer, out, &truncated);
      const std::vector<uint32_t> want =
          expected(targets, eye, radius, viewer, out.size(), &want_truncated);
      INFO("species " << species << ", query " << q << ", radius " << radius);
      REQUIRE(std::vector<uint32_t>(out.begin(), out.begin() + n) == want);
      REQUIRE(truncated == want_truncated);
    }
  }
}

TEST_CASE("TargetGrid keeps a viewer's own species out of its query", "[perception][vision]") {
  TargetGrid grid(50.f);
  grid.clear();
  grid.add(0, {1, 0, 1.7f}, SpeciesId{0});  // a human
  grid.add(1, {2, 0, 1.7f}, std::nullopt);  // a player
  grid.add(2, {3, 0, 1.7f}, SpeciesId{1});  // a wolf
  grid.add(3, {4, 0, 1.7f}, SpeciesId{0});  // a human
  grid.build();
  std::vector<uint32_t> out(16);
  SECTION("Should give a human the player and the wolf") {
    const uint32_t n = grid.query({0, 0, 1.7f}, 10.f, SpeciesId{0}, out, nullptr);
    REQUIRE(std::vector<uint32_t>(out.begin(), out.begin() + n) == std::vector<uint32_t>{1, 2});
  }
  SECTION("Should give a wolf the humans and the player, ascending") {
    const uint32_t n = grid.query({0, 0, 1.7f}, 10.f, SpeciesId{1}, out, nullptr);
    REQUIRE(std::vector<uint32_t>(out.begin(), out.begin() + n) ==
            std::vector<uint32_t>{0, 1, 3});
  }
  SECTION("Should forget the last tick's targets on clear") {
    grid.clear();
    grid.add(0, {1, 0, 1.7f}, SpeciesId{1});
    grid.build();
    const uint32_t n = grid.query({0, 0, 1.7f}, 10.f, SpeciesId{0}, out, nullptr);
    REQUIRE(std::vector<uint32_t>(out.begin(), out.begin() + n) == std::vector<uint32_t>{0});
    REQUIRE(grid.query({0, 0, 1.7f}, 10.f, SpeciesId{1}, out, nullptr) == 0);
  }
}
