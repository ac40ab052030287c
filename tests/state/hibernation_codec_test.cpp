// The sleepers' records (hibernation.proto DormantAgentState, format 2): flat, with
// indices into the snapshot's tables, ids as deltas and usual values left out. What a
// record leaves out must come back as it was, and a record that does not fit the snapshot's
// tables is refused saying which sleeper and why.
#include <limits>

#include <catch2/catch.hpp>

#include "demo_state_world.h"
#include "sim_state_codec.h"

using namespace npc;

namespace {

constexpr uint64_t kBaker = 1101;

// The demo after 45 s: the bakery sleeps, its baker with it.
const pb::SimState& bakerySleeping() {
  static const pb::SimState state = [] {
    test::DemoStateWorld demo;
    demo.run(901);
    pb::SimState s;
    captureSimState(*demo.sim, s);
    return s;
  }();
  return state;
}

pb::DormantAgentState& baker(pb::SimState& state) {
  uint64_t id = 0;
  for (pb::DormantAgentState& d : *state.mutable_hibernation()->mutable_dormant()) {
    id += static_cast<uint64_t>(d.id_delta());
    if (id == kBaker) return d;
  }
  FAIL("the baker is not asleep");
  throw;
}

// Restores `state` into a fresh demo; the error, or "" and the state captured again.
std::string restoreAndCapture(const pb::SimState& state, pb::SimState& again) {
  test::DemoStateWorld other;
  std::string error;
  if (!restoreSimState(state, *other.sim, error, RestoreMode::kExact)) return error;
  captureSimState(*other.sim, again);
  return "";
}

}  // namespace

TEST_CASE("a sleeper's record leaves out its usual values and keeps the rest",
          "[state][hibernation]") {
  pb::SimState state = bakerySleeping();
  const pb::DormantAgentState& asleep = baker(state);

  SECTION("Should write an idle body's vectors, names and flags in under 100 bytes") {
    CHECK(asleep.vectors_size() >= 6);
    CHECK_FALSE(asleep.has_eye_height_m());  // the default eye height
    CHECK_FALSE(asleep.has_expires_s());     // an agent's body never expires
    CHECK(state.hibernation().archetype_names(static_cast<int>(asleep.archetype())) == "baker");
    CHECK(asleep.ByteSizeLong() < 100);
  }

  SECTION("Should bring back every unusual value it wrote") {
    pb::DormantAgentState& d = baker(state);
    d.clear_vectors();
    for (float v : {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 0.f, 0.f, 1.f, 0.5f, -0.f, 0.25f}) d.add_vectors(v);
    d.set_eye_height_m(0.8f);
    d.set_expires_s(99.5);
    d.set_flags(d.flags() | 1u | 2u | 4u | 16u);
    pb::SimState again;
    REQUIRE(restoreAndCapture(state, again) == "");
    const pb::DormantAgentState& back = baker(again);
    CHECK(back.SerializeAsString() == d.SerializeAsString());
  }

  SECTION("Should write the forward vector when only the velocity differs from usual") {
    pb::DormantAgentState& d = baker(state);
    const std::vector<float> vectors(d.vectors().begin(), d.vectors().begin() + 6);
    d.clear_vectors();
    for (float v : vectors) d.add_vectors(v);
    for (float v : {1.f, 0.f, 0.f, 0.f, 0.f, 2.f}) d.add_vectors(v);  // default forward, moving
    pb::SimState again;
    REQUIRE(restoreAndCapture(state, again) == "");
    CHECK(baker(again).vectors_size() == 12);
    CHECK(baker(again).vectors(11) == 2.f);
  }
}

TEST_CASE("a sleeper's record that does not fit the snapshot's tables is refused",
          "[state][hibernation]") {
  pb::SimState state = bakerySleeping();
  pb::DormantAgentState& d = baker(state);
  pb::SimState again;

  SECTION("Should name an archetype these definitions lack") {
    state.mutable_hibernation()->set_archetype_names(static_cast<int>(d.archetype()), "dragon");
    CHECK(restoreAndCapture(state, again) == "sleeping agent 1101: archetype \"dragon\" is unknown");
  }

  SECTION("Should say when an archetype index is outside the table") {
    d.set_archetype(static_cast<uint32_t>(state.hibernation().archetype_names_size()));
    CHECK(restoreAndCapture(state, again) ==
          "sleeping agent 1101: archetype " + std::to_string(d.archetype()) +
              " is not in the snapshot's table of " + std::to_string(d.archetype()));
  }

  SECTION("Should count the vector components it got") {
    d.add_vectors(1.f);
    CHECK(restoreAndCapture(state, again) ==
          "sleeping agent 1101: " + std::to_string(d.vectors_size()) +
              " vector components, not 6, 9 or 12");
  }

  SECTION("Should say when items and counts differ in number") {
    d.add_items(0);
    CHECK(restoreAndCapture(state, again) ==
          "sleeping agent 1101: " + std::to_string(d.items_size()) + " items but " +
              std::to_string(d.item_counts_size()) + " counts");
  }
}
