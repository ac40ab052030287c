#include "perception/perception_config.h"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"
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

void readMemory(const json& j, const std::string& path, JsonReader& r, MemoryConfig& m) {
  readConforming<float>(j, {{"base_s", &m.base_s}, {"per_visible_s", &m.per_visible_s},
                            {"min_s", &m.min_s}, {"max_s", &m.max_s}});
  if (m.min_s > m.max_s) r.error(joinPath(path, "min_s"), "must be <= max_s");
}

// The schema lists parseSoundKind's kinds by name (perception_config_test checks that each
// is accepted), so a key it let through parses.
void readSounds(const json& j, std::array<SoundKindConfig, kSoundKindCount>& sounds) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const auto kind = parseSoundKind(it.key());
    if (!kind) continue;
    SoundKindConfig& s = sounds[static_cast<size_t>(*kind)];
    readConforming<float>(it.value(), {{"lifetime_s", &s.lifetime_s}, {"threat", &s.threat}});
  }
}

void readFootsteps(const json& j, FootstepConfig& f) {
  readConforming<float>(j, {{"stand_base_m", &f.stand_base_m},
                            {"crouch_base_m", &f.crouch_base_m},
                            {"stand_per_mps", &f.stand_per_mps},
                            {"crouch_per_mps", &f.crouch_per_mps},
                            {"crouch_eye_height_m", &f.crouch_eye_height_m},
                            {"min_speed_mps", &f.min_speed_mps}});
}

// An empty name is refused here: valijson's propertyNames gives no message to report.
void readVisibilityTypes(const json& j, const std::string& path, JsonReader& r,
                         std::vector<VisibilityTypeConfig>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it.key().empty()) {
      r.error(joinPath(path, it.key()), "type name must not be empty");
      continue;
    }
    VisibilityTypeConfig t;
    t.name = it.key();
    readConforming<float>(it.value(), {{"multiplier", &t.multiplier}});
    readConforming<bool>(it.value(),
                         {{"use_coefficient", &t.use_coefficient}, {"neutral", &t.neutral}});
    out.push_back(std::move(t));
  }
}

// Every number of the block is bounded by the schema (world/limits.h).
void readNumbers(const json& j, PerceptionConfig& c) {
  readConforming<float>(
      j, {{"som_speed", &c.som_speed}, {"decay_per_update", &c.decay_per_update},
          {"suspicious_threshold", &c.suspicious_threshold}, {"near_range_m", &c.near_range_m},
          {"near_boost", &c.near_boost}, {"low_eye_height_m", &c.low_eye_height_m},
          {"low_factor", &c.low_factor}, {"still_factor", &c.still_factor},
          {"still_speed_mps", &c.still_speed_mps}, {"obstacle_cell_m", &c.obstacle_cell_m},
          {"target_cell_m", &c.target_cell_m}, {"stealth_report_step", &c.stealth_report_step},
          {"threatening_threshold", &c.threatening_threshold},
          {"bullet_rain_radius_m", &c.bullet_rain_radius_m},
          {"bullet_rain_cooldown_s", &c.bullet_rain_cooldown_s},
          {"sound_merge_radius_m", &c.sound_merge_radius_m}});
  readConforming<uint32_t>(j, {{"full_update_period_ticks", &c.full_update_period_ticks},
                               {"max_rays_per_tick", &c.max_rays_per_tick},
                               {"max_candidates", &c.max_candidates},
                               {"max_pending_sounds", &c.max_pending_sounds},
                               {"max_pending_signals", &c.max_pending_signals}});
  readConforming<bool>(j, {{"hear_friendly_movement", &c.hear_friendly_movement}});
}

}  // namespace

void readPerceptionConfig(const json& j, std::string_view path_view, JsonReader& r,
                          PerceptionConfig& c) {
  const std::string path(path_view);
  // Checked here, not only by the daemon config's own validation, because the block's
  // bounds protect what the simulation allocates once from it (candidates, pending sounds),
  // whoever calls this.
  if (!r.validatePart(j, SchemaId::kDaemonConfig, "perception", path, "")) return;
  readNumbers(j, c);
  if (j.contains("memory")) readMemory(j["memory"], joinPath(path, "memory"), r, c.memory);
  if (j.contains("sounds")) readSounds(j["sounds"], c.sounds);
  if (j.contains("footsteps")) readFootsteps(j["footsteps"], c.footsteps);
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
