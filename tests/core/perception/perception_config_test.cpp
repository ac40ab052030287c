// Loading PerceptionConfig and SensorConfig from JSON, with errors naming the JSON path.
#include <catch2/catch.hpp>

// GCC 12 reports false -Warray-bounds positives inside nlohmann's inlined object code.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "perception/perception_config.h"
#include "world/limits.h"

using namespace npc;

namespace {
nlohmann::json parse(std::string_view text) { return nlohmann::json::parse(text); }
}  // namespace

TEST_CASE("Config: defaults are the seed's and CryEngine's", "[perception][config]") {
  PerceptionConfig c;
  SensorConfig s;
  SECTION("Should default to SOM speed 1.5, decay 0.1 and a 3-5 s soft-cover window") {
    REQUIRE(c.som_speed == 1.5f);
    REQUIRE(c.decay_per_update == 0.1f);
    REQUIRE(c.suspicious_threshold == 5.f);
    REQUIRE(c.low_eye_height_m == 1.f);
    REQUIRE(c.sounds[static_cast<size_t>(SoundKind::kExplosion)].lifetime_s == 6.f);
    REQUIRE(s.soft_cover_min_s == 3.f);
    REQUIRE(s.soft_cover_max_s == 5.f);
    REQUIRE(s.sight_range_m == 50.f);
  }
}

TEST_CASE("Config: reading JSON", "[perception][config]") {
  JsonReader r("config/npcd.json");
  SECTION("Should read every global section") {
    PerceptionConfig c;
    readPerceptionConfig(parse(R"({
      "som_speed": 1.2, "decay_per_update": 0.2, "full_update_period_ticks": 3,
      "max_rays_per_tick": 0,
      "memory": { "base_s": 4, "max_s": 20 },
      "sounds": { "gunshot": { "lifetime_s": 5, "threat": 0.9 } },
      "footsteps": { "stand_base_m": 5 },
      "visibility_types": { "grenade": { "multiplier": 2, "use_coefficient": false },
                            "flashlight_spot": { "use_coefficient": true },
                            "flowers": { "neutral": true } }
    })"), "/perception", r, c);
    INFO(r.report());
    REQUIRE(r.ok());
    REQUIRE(c.som_speed == 1.2f);
    REQUIRE(c.decay_per_update == 0.2f);
    REQUIRE(c.full_update_period_ticks == 3);
    REQUIRE(c.max_rays_per_tick == 0);
    REQUIRE(c.memory.base_s == 4.f);
    REQUIRE(c.memory.max_s == 20.f);
    REQUIRE(c.memory.min_s == 2.f);
    REQUIRE(c.sounds[static_cast<size_t>(SoundKind::kGunshot)].lifetime_s == 5.f);
    REQUIRE(c.sounds[static_cast<size_t>(SoundKind::kGunshot)].threat == 0.9f);
    REQUIRE(c.footsteps.stand_base_m == 5.f);
    REQUIRE(c.visibility_types.size() == 3);
    REQUIRE(c.visibility_types[0].name == "flashlight_spot");  // JSON objects are sorted
    REQUIRE(c.visibility_types[0].use_coefficient);
    REQUIRE_FALSE(c.visibility_types[0].neutral);
    REQUIRE(c.visibility_types[1].name == "flowers");
    REQUIRE(c.visibility_types[1].neutral);
    REQUIRE(c.visibility_types[2].multiplier == 2.f);
  }
  SECTION("Should name the path and the rule of every bad value, reading none of them") {
    PerceptionConfig c;
    readPerceptionConfig(parse(R"({
      "som_speed": 0, "full_update_period_ticks": 0, "low_factor": 2, "sight": 1,
      "sounds": { "gunshots": {}, "explosion": { "lifetime_s": "long" } },
      "visibility_types": { "grenade": { "multiplier": -1 } }
    })"), "/perception", r, c);
    // A document built in code has no positions: valijson's order, keys sorted and an
    // object's unknown keys after its members.
    REQUIRE(r.report() ==
            "config/npcd.json: /perception/full_update_period_ticks: must be >= 1\n"
            "config/npcd.json: /perception/low_factor: must be <= 1\n"
            "config/npcd.json: /perception/som_speed: must be > 0\n"
            "config/npcd.json: /perception/sounds/explosion/lifetime_s: "
            "expected a number, got a string\n"
            "config/npcd.json: /perception/sounds/gunshots: unknown key (did you mean "
            "\"gunshot\"?)\n"
            "config/npcd.json: /perception/visibility_types/grenade/multiplier: must be > 0\n"
            "config/npcd.json: /perception/sight: unknown key");
    CHECK(c.low_factor == PerceptionConfig().low_factor);
  }
  SECTION("Should name the rules across keys and names the schema leaves to the reader") {
    PerceptionConfig c;
    readPerceptionConfig(parse(R"({
      "memory": { "min_s": 40 }, "visibility_types": { "": { "multiplier": 2 } }
    })"), "/perception", r, c);
    REQUIRE(r.report() ==
            "config/npcd.json: /perception/memory/min_s: must be <= max_s\n"
            "config/npcd.json: /perception/visibility_types/: type name must not be empty");
  }
  SECTION("Should read an archetype's sensors") {
    SensorConfig s;
    readSensorConfig(parse(R"({ "vision": false, "sight_range_m": 30, "fov_deg": 120,
                                "hearing_scale": 1.5, "soft_cover_s": [4, 4] })"),
                     "/guard/perception", r, s);
    REQUIRE(r.ok());
    REQUIRE_FALSE(s.vision);
    REQUIRE(s.hearing);
    REQUIRE(s.sight_range_m == 30.f);
    REQUIRE(s.fov_deg == 120.f);
    REQUIRE(s.hearing_scale == 1.5f);
    REQUIRE(s.soft_cover_min_s == 4.f);
  }
  SECTION("Should reject a bad field of view, range and soft-cover window") {
    SensorConfig s;
    readSensorConfig(parse(R"({ "fov_deg": 400, "sight_range_m": -3, "hearing": "yes",
                                "soft_cover_s": [5, 3] })"),
                     "/guard/perception", r, s);
    REQUIRE(r.report() ==
            "config/npcd.json: /guard/perception/hearing: expected true or false, got string\n"
            "config/npcd.json: /guard/perception/sight_range_m: must be > 0\n"
            "config/npcd.json: /guard/perception/fov_deg: must be within (0, 360]\n"
            "config/npcd.json: /guard/perception/soft_cover_s: expected [min, max] seconds "
            "with 0 <= min <= max");
  }
}

TEST_CASE("Config: an archetype's sight range and hearing scale are bounded",
          "[perception][config][bounds]") {
  JsonReader r("archetypes/guard.json");
  SensorConfig s;
  readSensorConfig(parse(R"({ "sight_range_m": 1e30, "hearing_scale": 1e40 })"), "/guard/perception",
                   r, s);
  // 1e40 does not fit a float: the reader refuses it before the range check sees it.
  REQUIRE(r.report() ==
          "archetypes/guard.json: /guard/perception/hearing_scale: is too large (beyond "
          "+-3.4e38)\n"
          "archetypes/guard.json: /guard/perception/sight_range_m: must be at most 1000 m (got "
          "1e+30)");
  REQUIRE(s.sight_range_m == 1000.f);  // the load is refused; what was read stays bounded
}

// Regression: the global block took any positive number. "max_candidates": 4294967295 or
// "max_pending_sounds": 1e9 made the simulation reserve gigabytes when it was built,
// a 1e-30 m grid cell or a 1e30 m footstep made queries huge.
TEST_CASE("Config: every number of the global block is bounded", "[perception][config][bounds]") {
  JsonReader r("config/npcd.json");
  PerceptionConfig c;
  readPerceptionConfig(parse(R"({
    "som_speed": 1e30, "full_update_period_ticks": 1000000, "max_candidates": 4294967295,
    "max_pending_sounds": 1000000000, "target_cell_m": 1e-30,
    "memory": { "max_s": 1e30 }, "sounds": { "gunshot": { "lifetime_s": 1e30 } },
    "bullet_rain_radius_m": 1e30, "footsteps": { "stand_base_m": 1e30 },
    "visibility_types": { "grenade": { "multiplier": 1e30 } }
  })"), "/perception", r, c);
  REQUIRE(r.report() ==
          "config/npcd.json: /perception/bullet_rain_radius_m: must be <= 2000\n"
          "config/npcd.json: /perception/footsteps/stand_base_m: must be <= 2000\n"
          "config/npcd.json: /perception/full_update_period_ticks: must be <= 1000\n"
          "config/npcd.json: /perception/max_candidates: must be <= 4096\n"
          "config/npcd.json: /perception/max_pending_sounds: must be <= 1000000\n"
          "config/npcd.json: /perception/memory/max_s: must be <= 604800\n"
          "config/npcd.json: /perception/som_speed: must be <= 100\n"
          "config/npcd.json: /perception/sounds/gunshot/lifetime_s: must be <= 604800\n"
          "config/npcd.json: /perception/target_cell_m: must be >= 0.5\n"
          "config/npcd.json: /perception/visibility_types/grenade/multiplier: must be <= 100");
  // The load is refused before anything is read: no capacity took a refused value.
  CHECK(c.som_speed == PerceptionConfig().som_speed);
  CHECK(c.max_candidates == PerceptionConfig().max_candidates);
  CHECK(c.max_pending_sounds == PerceptionConfig().max_pending_sounds);
  CHECK(c.target_cell_m == PerceptionConfig().target_cell_m);
}

// The schema repeats world/limits.h's bounds of the global block (the one place they are
// defined): each key takes its bound and refuses the next value past it, so the two cannot
// drift apart unnoticed.
TEST_CASE("Config: the schema bounds the global block as world/limits.h does",
          "[perception][config][bounds]") {
  struct Bound {
    const char* pointer;  // below /perception
    double max;
    double past;  // the first value refused
  };
  const Bound bounds[] = {
      {"/som_speed", kMaxPerceptionFactor, kMaxPerceptionFactor * 1.01},
      {"/decay_per_update", kMaxCoefficientStep, kMaxCoefficientStep * 1.01},
      {"/near_boost", kMaxCoefficientStep, kMaxCoefficientStep * 1.01},
      {"/near_range_m", kMaxSightRangeM, kMaxSightRangeM * 1.01},
      {"/low_eye_height_m", kMaxEyeHeightM, kMaxEyeHeightM * 1.01},
      {"/still_speed_mps", kMaxEntitySpeedMps, kMaxEntitySpeedMps * 1.01},
      {"/full_update_period_ticks", kMaxUpdatePeriodTicks, kMaxUpdatePeriodTicks + 1.0},
      {"/max_rays_per_tick", kMaxRaysPerTick, kMaxRaysPerTick + 1.0},
      {"/max_candidates", kMaxPerceptionCandidates, kMaxPerceptionCandidates + 1.0},
      {"/max_pending_sounds", kMaxPendingPerTick, kMaxPendingPerTick + 1.0},
      {"/max_pending_signals", kMaxPendingPerTick, kMaxPendingPerTick + 1.0},
      {"/obstacle_cell_m", kMaxGridCellM, kMaxGridCellM * 1.01},
      {"/target_cell_m", kMaxGridCellM, kMaxGridCellM * 1.01},
      {"/memory/max_s", kMaxDelayS, kMaxDelayS * 1.01},
      {"/memory/base_s", kMaxDelayS, kMaxDelayS * 1.01},
      {"/memory/per_visible_s", kMaxDelayS, kMaxDelayS * 1.01},
      {"/sounds/footstep/lifetime_s", kMaxDelayS, kMaxDelayS * 1.01},
      {"/bullet_rain_radius_m", kMaxSoundRadiusM, kMaxSoundRadiusM * 1.01},
      {"/bullet_rain_cooldown_s", kMaxDelayS, kMaxDelayS * 1.01},
      {"/sound_merge_radius_m", kMaxSoundRadiusM, kMaxSoundRadiusM * 1.01},
      {"/footsteps/stand_base_m", kMaxSoundRadiusM, kMaxSoundRadiusM * 1.01},
      {"/footsteps/crouch_base_m", kMaxSoundRadiusM, kMaxSoundRadiusM * 1.01},
      {"/footsteps/stand_per_mps", kMaxSoundRadiusM, kMaxSoundRadiusM * 1.01},
      {"/footsteps/crouch_per_mps", kMaxSoundRadiusM, kMaxSoundRadiusM * 1.01},
      {"/footsteps/crouch_eye_height_m", kMaxEyeHeightM, kMaxEyeHeightM * 1.01},
      {"/footsteps/min_speed_mps", kMaxEntitySpeedMps, kMaxEntitySpeedMps * 1.01},
      {"/visibility_types/grenade/multiplier", kMaxVisibilityMultiplier,
       kMaxVisibilityMultiplier * 1.01},
  };
  // Whole bounds as integers: the count keys take no other, and messages print them so.
  auto number = [](double v) {
    const auto whole = static_cast<int64_t>(v);
    return v == static_cast<double>(whole) ? nlohmann::json(whole) : nlohmann::json(v);
  };
  auto withValue = [&](const char* pointer, double value) {
    nlohmann::json j = nlohmann::json::object();
    j[nlohmann::json::json_pointer(pointer)] = number(value);
    return j;
  };
  for (const Bound& b : bounds) {
    INFO(b.pointer);
    PerceptionConfig c;
    JsonReader at("npcd.json");
    readPerceptionConfig(withValue(b.pointer, b.max), "/perception", at, c);
    CHECK(at.report().empty());
    JsonReader past("npcd.json");
    readPerceptionConfig(withValue(b.pointer, b.past), "/perception", past, c);
    CHECK(past.report() == "npcd.json: /perception" + std::string(b.pointer) +
                               ": must be <= " + number(b.max).dump());
  }
  SECTION("Should take the grid cells' lower bound too") {
    JsonReader r("npcd.json");
    PerceptionConfig c;
    readPerceptionConfig(parse(R"({ "obstacle_cell_m": 0.5, "target_cell_m": 0.49 })"),
                         "/perception", r, c);
    CHECK(r.report() == "npcd.json: /perception/target_cell_m: must be >= " +
                            nlohmann::json(kMinGridCellM).dump());
  }
}

// The schema lists the sound kinds by name: each kind the simulation knows is accepted and
// read, a name that is not one is refused.
TEST_CASE("Config: the schema's sound kinds are the simulation's", "[perception][config]") {
  nlohmann::json sounds = nlohmann::json::object();
  for (size_t i = 0; i < kSoundKindCount; ++i) {
    sounds[std::string(toString(static_cast<SoundKind>(i)))] = {{"threat", 0.25 + 0.1 * i}};
  }
  JsonReader r("npcd.json");
  PerceptionConfig c;
  readPerceptionConfig({{"sounds", sounds}}, "/perception", r, c);
  INFO(r.report());
  REQUIRE(r.ok());
  for (size_t i = 0; i < kSoundKindCount; ++i) {
    CHECK(c.sounds[i].threat == static_cast<float>(0.25 + 0.1 * i));
  }
  readPerceptionConfig(parse(R"({ "sounds": { "whistle": {} } })"), "/perception", r, c);
  CHECK(r.report() == "npcd.json: /perception/sounds/whistle: unknown key");
}
