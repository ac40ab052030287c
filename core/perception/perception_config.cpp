#include "perception/perception_config.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "world/limits.h"

namespace npc {

using nlohmann::json;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

// Reads an optional number into `out` and checks lo <(=) value <= hi. The message names
// the bound the way designers read it: "must be > 0", "must be >= 0", "must be within [0, 1]".
void readFloat(const json& j, const std::string& path, std::string_view key, JsonReader& r,
               float& out, float lo, bool lo_open, float hi = kInf) {
  auto v = r.number(j, path, key, false);
  if (!v) return;
  const bool above = lo_open ? *v > lo : *v >= lo;
  if (!std::isfinite(*v) || !above || *v > hi) {
    auto num = [](float x) {
      std::string s = std::to_string(x);
      s.erase(s.find_last_not_of('0') + 1);
      if (s.back() == '.') s.pop_back();
      return s;
    };
    std::string msg;
    if (hi == kInf) {
      msg = std::string("must be ") + (lo_open ? "> " : ">= ") + num(lo);
    } else {
      msg = std::string("must be within ") + (lo_open ? "(" : "[") + num(lo) + ", " + num(hi) + "]";
    }
    r.error(joinPath(path, key), msg);
    return;
  }
  out = static_cast<float>(*v);
}

// A value above `max` (world/limits.h) is an error, and is kept at max so that what was
// read stays bounded even where a caller looks at it before refusing the load.
void boundAbove(const std::string& path, std::string_view key, JsonReader& r, float& value,
                double max, const char* unit) {
  if (std::string problem = aboveMaximum(value, max, unit); !problem.empty()) {
    r.error(joinPath(path, key), problem);
    value = static_cast<float>(max);
  }
}

// readFloat with an upper bound from world/limits.h, named in the message as
// "must be at most 2000 m (got 1e+30)".
void readBounded(const json& j, const std::string& path, std::string_view key, JsonReader& r,
                 float& out, float lo, bool lo_open, double max, const char* unit) {
  readFloat(j, path, key, r, out, lo, lo_open);
  boundAbove(path, key, r, out, max, unit);
}

void readCount(const json& j, const std::string& path, std::string_view key, JsonReader& r,
               uint32_t& out, int64_t lo, int64_t max) {
  auto v = r.integer(j, path, key, false);
  if (!v) return;
  if (*v < lo) {
    r.error(joinPath(path, key), "must be an integer >= " + std::to_string(lo));
    return;
  }
  if (*v > max) {
    r.error(joinPath(path, key), "must be at most " + std::to_string(max) + " (got " +
                                     std::to_string(*v) + ")");
    return;
  }
  out = static_cast<uint32_t>(*v);
}

void readMemory(const json& j, const std::string& path, JsonReader& r, MemoryConfig& m) {
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path, {"base_s", "per_visible_s", "min_s", "max_s"});
  readBounded(j, path, "base_s", r, m.base_s, 0.f, false, kMaxDelayS, "s");
  readBounded(j, path, "per_visible_s", r, m.per_visible_s, 0.f, false, kMaxDelayS, "s");
  readBounded(j, path, "min_s", r, m.min_s, 0.f, false, kMaxDelayS, "s");
  readBounded(j, path, "max_s", r, m.max_s, 0.f, false, kMaxDelayS, "s");
  if (m.min_s > m.max_s) r.error(joinPath(path, "min_s"), "must be <= max_s");
}

void readSounds(const json& j, const std::string& path, JsonReader& r,
                std::array<SoundKindConfig, kSoundKindCount>& sounds) {
  if (!r.isObject(j, path)) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string kind_path = joinPath(path, it.key());
    auto kind = parseSoundKind(it.key());
    if (!kind) {
      r.error(kind_path, "unknown sound kind (expected generic, footstep, collision, gunshot, "
                         "explosion or bullet_impact)");
      continue;
    }
    if (!r.isObject(it.value(), kind_path)) continue;
    r.onlyKeys(it.value(), kind_path, {"lifetime_s", "threat"});
    SoundKindConfig& s = sounds[static_cast<size_t>(*kind)];
    readBounded(it.value(), kind_path, "lifetime_s", r, s.lifetime_s, 0.f, true, kMaxDelayS, "s");
    readFloat(it.value(), kind_path, "threat", r, s.threat, 0.f, false, 1.f);
  }
}

void readFootsteps(const json& j, const std::string& path, JsonReader& r, FootstepConfig& f) {
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path, {"stand_base_m", "crouch_base_m", "stand_per_mps", "crouch_per_mps",
                       "crouch_eye_height_m", "min_speed_mps"});
  readBounded(j, path, "stand_base_m", r, f.stand_base_m, 0.f, false, kMaxSoundRadiusM, "m");
  readBounded(j, path, "crouch_base_m", r, f.crouch_base_m, 0.f, false, kMaxSoundRadiusM, "m");
  // Metres of radius per m/s: a footstep's radius is capped at kMaxSoundRadiusM anyway.
  readBounded(j, path, "stand_per_mps", r, f.stand_per_mps, 0.f, false, kMaxSoundRadiusM, "");
  readBounded(j, path, "crouch_per_mps", r, f.crouch_per_mps, 0.f, false, kMaxSoundRadiusM, "");
  readBounded(j, path, "crouch_eye_height_m", r, f.crouch_eye_height_m, 0.f, false,
              kMaxEyeHeightM, "m");
  readBounded(j, path, "min_speed_mps", r, f.min_speed_mps, 0.f, false, kMaxEntitySpeedMps,
              "m/s");
}

void readVisibilityTypes(const json& j, const std::string& path, JsonReader& r,
                         std::vector<VisibilityTypeConfig>& out) {
  if (!r.isObject(j, path)) return;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string type_path = joinPath(path, it.key());
    if (it.key().empty()) {
      r.error(type_path, "type name must not be empty");
      continue;
    }
    if (!r.isObject(it.value(), type_path)) continue;
    r.onlyKeys(it.value(), type_path, {"multiplier", "use_coefficient", "neutral"});
    VisibilityTypeConfig t;
    t.name = it.key();
    readBounded(it.value(), type_path, "multiplier", r, t.multiplier, 0.f, true,
                kMaxVisibilityMultiplier, "");
    if (auto v = r.boolean(it.value(), type_path, "use_coefficient", false)) t.use_coefficient = *v;
    if (auto v = r.boolean(it.value(), type_path, "neutral", false)) t.neutral = *v;
    out.push_back(std::move(t));
  }
}

}  // namespace

void readPerceptionConfig(const json& j, std::string_view path_view, JsonReader& r,
                          PerceptionConfig& c) {
  const std::string path(path_view);
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path,
             {"som_speed", "decay_per_update", "suspicious_threshold", "near_range_m",
              "near_boost", "low_eye_height_m", "low_factor", "still_factor", "still_speed_mps",
              "full_update_period_ticks", "max_rays_per_tick", "max_candidates",
              "max_pending_sounds", "max_pending_signals", "obstacle_cell_m", "target_cell_m",
              "memory", "stealth_report_step", "sounds", "threatening_threshold",
              "bullet_rain_radius_m", "bullet_rain_cooldown_s", "sound_merge_radius_m",
              "hear_friendly_movement", "footsteps", "visibility_types"});
  // Every number is bounded (world/limits.h, README "Bounds"): capacities are allocated
  // once from these, radii size queries, cells size grids.
  readBounded(j, path, "som_speed", r, c.som_speed, 0.f, true, kMaxPerceptionFactor, "");
  readBounded(j, path, "decay_per_update", r, c.decay_per_update, 0.f, false,
              kMaxCoefficientStep, "");
  readFloat(j, path, "suspicious_threshold", r, c.suspicious_threshold, 0.f, true, 10.f);
  readBounded(j, path, "near_range_m", r, c.near_range_m, 0.f, false, kMaxSightRangeM, "m");
  readBounded(j, path, "near_boost", r, c.near_boost, 0.f, false, kMaxCoefficientStep, "");
  readBounded(j, path, "low_eye_height_m", r, c.low_eye_height_m, 0.f, false, kMaxEyeHeightM,
              "m");
  readFloat(j, path, "low_factor", r, c.low_factor, 0.f, false, 1.f);
  readFloat(j, path, "still_factor", r, c.still_factor, 0.f, false, 1.f);
  readBounded(j, path, "still_speed_mps", r, c.still_speed_mps, 0.f, false, kMaxEntitySpeedMps,
              "m/s");
  readCount(j, path, "full_update_period_ticks", r, c.full_update_period_ticks, 1,
            kMaxUpdatePeriodTicks);
  readCount(j, path, "max_rays_per_tick", r, c.max_rays_per_tick, 0, kMaxRaysPerTick);
  readCount(j, path, "max_candidates", r, c.max_candidates, 1, kMaxPerceptionCandidates);
  readCount(j, path, "max_pending_sounds", r, c.max_pending_sounds, 1, kMaxPendingPerTick);
  readCount(j, path, "max_pending_signals", r, c.max_pending_signals, 1, kMaxPendingPerTick);
  readFloat(j, path, "obstacle_cell_m", r, c.obstacle_cell_m, kMinGridCellM, false,
            kMaxGridCellM);
  readFloat(j, path, "target_cell_m", r, c.target_cell_m, kMinGridCellM, false, kMaxGridCellM);
  if (j.contains("memory")) readMemory(j["memory"], joinPath(path, "memory"), r, c.memory);
  readFloat(j, path, "stealth_report_step", r, c.stealth_report_step, 0.f, false, 10.f);
  if (j.contains("sounds")) readSounds(j["sounds"], joinPath(path, "sounds"), r, c.sounds);
  readFloat(j, path, "threatening_threshold", r, c.threatening_threshold, 0.f, false, 1.f);
  readBounded(j, path, "bullet_rain_radius_m", r, c.bullet_rain_radius_m, 0.f, false,
              kMaxSoundRadiusM, "m");
  readBounded(j, path, "bullet_rain_cooldown_s", r, c.bullet_rain_cooldown_s, 0.f, false,
              kMaxDelayS, "s");
  readBounded(j, path, "sound_merge_radius_m", r, c.sound_merge_radius_m, 0.f, false,
              kMaxSoundRadiusM, "m");
  if (auto v = r.boolean(j, path, "hear_friendly_movement", false)) c.hear_friendly_movement = *v;
  if (j.contains("footsteps")) {
    readFootsteps(j["footsteps"], joinPath(path, "footsteps"), r, c.footsteps);
  }
  if (j.contains("visibility_types")) {
    readVisibilityTypes(j["visibility_types"], joinPath(path, "visibility_types"), r,
                        c.visibility_types);
  }
}

void readSensorConfig(const json& j, std::string_view path_view, JsonReader& r,
                      SensorConfig& s) {
  const std::string path(path_view);
  if (!r.isObject(j, path)) return;
  if (auto v = r.boolean(j, path, "vision", false)) s.vision = *v;
  if (auto v = r.boolean(j, path, "hearing", false)) s.hearing = *v;
  if (auto v = r.boolean(j, path, "signals", false)) s.signals = *v;
  readFloat(j, path, "sight_range_m", r, s.sight_range_m, 0.f, true);
  readFloat(j, path, "fov_deg", r, s.fov_deg, 0.f, true, 360.f);
  readFloat(j, path, "hearing_scale", r, s.hearing_scale, 0.f, false);
  // Bounded (world/limits.h) so one definition cannot make every query of the tick huge.
  boundAbove(path, "sight_range_m", r, s.sight_range_m, kMaxSightRangeM, "m");
  boundAbove(path, "hearing_scale", r, s.hearing_scale, kMaxHearingScale, "");
  if (j.contains("soft_cover_s")) {
    const json& p = j["soft_cover_s"];
    if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number() &&
        p[0].get<double>() >= 0 && p[0].get<double>() <= p[1].get<double>() &&
        std::isfinite(p[1].get<double>())) {
      s.soft_cover_min_s = p[0].get<float>();
      s.soft_cover_max_s = p[1].get<float>();
    } else {
      r.error(joinPath(path, "soft_cover_s"), "expected [min, max] seconds with 0 <= min <= max");
    }
  }
}

}  // namespace npc
