#include "agent/archetype.h"

#include <algorithm>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"

namespace npc {

using nlohmann::json;

namespace {

void readGreet(const json& j, const std::string& path, JsonReader& r, GreetReflex& out) {
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path, {"action", "duration_s", "cooldown_s"});
  if (auto v = r.string(j, path, "action", false)) out.action = *v;
  if (auto v = r.number(j, path, "duration_s", false)) out.duration_s = static_cast<float>(*v);
  if (auto v = r.number(j, path, "cooldown_s", false)) out.cooldown_s = static_cast<float>(*v);
  if (out.action.empty()) r.error(joinPath(path, "action"), "must not be empty");
  if (out.duration_s < 0.f) r.error(joinPath(path, "duration_s"), "must be >= 0");
  if (out.cooldown_s < 0.f) r.error(joinPath(path, "cooldown_s"), "must be >= 0");
}

void readWander(const json& j, const std::string& path, JsonReader& r, WanderReflex& out) {
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path, {"radius_m", "speed_mps", "pause_s"});
  if (auto v = r.number(j, path, "radius_m", false)) out.radius_m = static_cast<float>(*v);
  if (auto v = r.number(j, path, "speed_mps", false)) out.speed_mps = static_cast<float>(*v);
  if (j.contains("pause_s")) {
    const json& p = j["pause_s"];
    if (p.is_array() && p.size() == 2 && p[0].is_number() && p[1].is_number() &&
        p[0].get<double>() >= 0 && p[0].get<double>() <= p[1].get<double>()) {
      out.pause_min_s = p[0].get<float>();
      out.pause_max_s = p[1].get<float>();
    } else {
      r.error(joinPath(path, "pause_s"), "expected [min, max] seconds with 0 <= min <= max");
    }
  }
  if (out.radius_m < 0.f) r.error(joinPath(path, "radius_m"), "must be >= 0");
  if (out.speed_mps <= 0.f) r.error(joinPath(path, "speed_mps"), "must be > 0");
}

}  // namespace

void ArchetypeSet::loadObject(const json& object, JsonReader& r) {
  if (!r.isObject(object, "")) return;
  for (auto it = object.begin(); it != object.end(); ++it) {
    const std::string path = joinPath("", it.key());
    const json& j = it.value();
    if (!r.isObject(j, path)) continue;
    if (find(it.key())) {
      r.error(path, "archetype \"" + it.key() + "\" is defined twice");
      continue;
    }
    r.onlyKeys(j, path, {"species", "notice_radius_m", "action_timeout_s", "greet", "wander"});
    Archetype a;
    a.name = it.key();
    if (auto v = r.string(j, path, "species", true)) a.species = *v;
    if (auto v = r.number(j, path, "notice_radius_m", false)) {
      a.notice_radius_m = static_cast<float>(*v);
      if (*v < 0) r.error(joinPath(path, "notice_radius_m"), "must be >= 0");
    }
    if (auto v = r.number(j, path, "action_timeout_s", false)) {
      a.action_timeout_s = static_cast<float>(*v);
      if (*v <= 0) r.error(joinPath(path, "action_timeout_s"), "must be > 0");
    }
    if (j.contains("greet")) readGreet(j["greet"], joinPath(path, "greet"), r, a.greet);
    if (j.contains("wander")) readWander(j["wander"], joinPath(path, "wander"), r, a.wander);
    archetypes_.push_back(std::move(a));
  }
}

bool ArchetypeSet::loadDirectory(const std::string& dir, std::vector<std::string>& errors) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    errors.push_back(dir + ": archetype directory not found");
    return false;
  }
  std::vector<fs::path> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir, ec)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  bool ok = true;
  for (const auto& file : files) {
    JsonReader reader(file.string());
    json j;
    if (reader.parseFile(j)) loadObject(j, reader);
    if (!reader.ok()) {
      ok = false;
      errors.insert(errors.end(), reader.errors().begin(), reader.errors().end());
    }
  }
  return ok;
}

std::optional<uint16_t> ArchetypeSet::find(std::string_view name) const {
  for (size_t i = 0; i < archetypes_.size(); ++i) {
    if (archetypes_[i].name == name) return static_cast<uint16_t>(i);
  }
  return std::nullopt;
}

}  // namespace npc
