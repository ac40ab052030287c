#include "config_reload.h"

#include <fstream>
#include <set>
#include <sstream>

namespace npc {

namespace {

// The perception keys the tick can take live (SetPerceptionTuning).
constexpr const char* kLivePerceptionKeys[] = {"som_speed", "decay_per_update",
                                               "suspicious_threshold"};

bool isLivePerceptionKey(const std::string& key) {
  for (const char* live : kLivePerceptionKeys) {
    if (key == live) return true;
  }
  return false;
}

std::optional<std::string> readText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Keys of `a` and `b` (objects) whose values differ, in key order, prefixed.
void changedKeys(const nlohmann::json& a, const nlohmann::json& b, const std::string& prefix,
                 std::vector<std::string>& out, bool skip_live_perception) {
  std::set<std::string> keys;
  for (const nlohmann::json* side : {&a, &b}) {
    if (!side->is_object()) continue;
    for (const auto& [key, value] : side->items()) keys.insert(key);
  }
  for (const std::string& key : keys) {
    if (skip_live_perception && isLivePerceptionKey(key)) continue;
    const nlohmann::json& old_value = a.contains(key) ? a.at(key) : nlohmann::json();
    const nlohmann::json& new_value = b.contains(key) ? b.at(key) : nlohmann::json();
    if (old_value != new_value) out.push_back(prefix + key);
  }
}

}  // namespace

ConfigReload::ConfigReload(std::string path, const DaemonConfig& running)
    : path_(std::move(path)), perception_(running.perception) {
  if (auto text = readText(path_)) {
    seen_ = *text;
    accepted_ = nlohmann::json::parse(seen_, nullptr, false);
  }
}

std::optional<ConfigChange> ConfigReload::poll() {
  const std::optional<std::string> text = readText(path_);
  if (!text || *text == seen_) return std::nullopt;  // a file being replaced: next poll
  seen_ = *text;
  ConfigChange change;
  DaemonConfig fresh;
  if (!loadConfigFile(path_, fresh, change.errors)) return change;
  const nlohmann::json json = nlohmann::json::parse(*text, nullptr, false);
  if (json.is_discarded()) {  // rewritten between the two reads: look again next poll
    seen_.clear();
    return std::nullopt;
  }

  // Everything but the live perception keys takes a restart.
  nlohmann::json old_rest = accepted_.is_object() ? accepted_ : nlohmann::json::object();
  nlohmann::json new_rest = json;
  const nlohmann::json old_perception = old_rest.value("perception", nlohmann::json::object());
  const nlohmann::json new_perception = new_rest.value("perception", nlohmann::json::object());
  old_rest.erase("perception");
  new_rest.erase("perception");
  changedKeys(old_rest, new_rest, "", change.needs_restart, false);
  changedKeys(old_perception, new_perception, "perception/", change.needs_restart, true);

  const PerceptionConfig& p = fresh.perception;
  SetPerceptionTuning tuning;
  if (p.som_speed != perception_.som_speed) tuning.som_speed = p.som_speed;
  if (p.decay_per_update != perception_.decay_per_update) tuning.decay_per_update = p.decay_per_update;
  if (p.suspicious_threshold != perception_.suspicious_threshold) {
    tuning.suspicious_threshold = p.suspicious_threshold;
  }
  if (tuning.som_speed || tuning.decay_per_update || tuning.suspicious_threshold) {
    change.tuning = std::move(tuning);
  }
  accepted_ = json;
  perception_ = p;
  return change;
}

}  // namespace npc
