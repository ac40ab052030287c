#include "scenario.h"

#include <cctype>
#include <cmath>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "npc/v1/npc.pb.h"

namespace npc::bots {

using nlohmann::json;

namespace {

constexpr int64_t kMaxClients = 1000;
// One client streams at most this many players + NPCs (a game server's share of a world;
// frames beyond max_items_per_update are split, see frame_split.h).
constexpr int64_t kMaxEntitiesPerClient = 8000;

void readCount(JsonReader& r, const json& j, const std::string& path, const char* key,
               int64_t min, int64_t max, uint32_t& out) {
  if (auto v = r.integer(j, path, key, false)) {
    if (*v < min || *v > max) {
      r.error(joinPath(path, key),
              "must be within [" + std::to_string(min) + ", " + std::to_string(max) + "]");
    } else {
      out = static_cast<uint32_t>(*v);
    }
  }
}

// A number that must be finite and >= min (or > min when `strict`).
template <class T>
void readNumber(JsonReader& r, const json& j, const std::string& path, const char* key,
                double min, bool strict, T& out) {
  if (auto v = r.number(j, path, key, false)) {
    const bool ok = std::isfinite(*v) && (strict ? *v > min : *v >= min);
    if (!ok) {
      r.error(joinPath(path, key), std::string("must be ") + (strict ? "> " : ">= ") +
                                       std::to_string(static_cast<int64_t>(min)));
    } else {
      out = static_cast<T>(*v);
    }
  }
}

void readFraction(JsonReader& r, const json& j, const std::string& path, const char* key,
                  double& out) {
  if (auto v = r.number(j, path, key, false)) {
    if (!(*v >= 0.0 && *v <= 1.0)) {
      r.error(joinPath(path, key), "must be within [0, 1]");
    } else {
      out = *v;
    }
  }
}

// A required-to-be-non-empty array of non-empty strings.
std::optional<std::vector<std::string>> readNames(JsonReader& r, const json& j,
                                                  const std::string& path, const char* key,
                                                  bool allow_empty) {
  auto it = j.find(key);
  if (it == j.end()) return std::nullopt;
  const std::string p = joinPath(path, key);
  if (!r.isArray(*it, p)) return std::nullopt;
  if (it->empty() && !allow_empty) {
    r.error(p, "must not be empty");
    return std::nullopt;
  }
  std::vector<std::string> names;
  for (size_t i = 0; i < it->size(); ++i) {
    const json& v = (*it)[i];
    if (!v.is_string() || v.get<std::string>().empty()) {
      r.error(joinPath(p, i), "expected a non-empty string");
      continue;
    }
    names.push_back(v.get<std::string>());
  }
  return names;
}

void readArea(JsonReader& r, const json& root, Scenario& s) {
  auto it = root.find("area");
  if (it == root.end() || !r.isObject(*it, "/area")) return;
  r.onlyKeys(*it, "/area", {"min", "max"});
  auto min = r.vec3(*it, "/area", "min", true);
  auto max = r.vec3(*it, "/area", "max", true);
  if (!min || !max) return;
  if (!(min->x < max->x && min->y < max->y && min->z <= max->z)) {
    r.error("/area", "min must be below max in x and y (and <= in z)");
    return;
  }
  s.area = {*min, *max};
}

void readPlayers(JsonReader& r, const json& root, PlayerSpec& p) {
  auto it = root.find("players");
  if (it == root.end() || !r.isObject(*it, "/players")) return;
  const json& j = *it;
  const std::string path = "/players";
  r.onlyKeys(j, path,
             {"per_client", "species", "walk_mps", "run_mps", "run_fraction", "footstep_hz",
              "footstep_radius_m", "gunshot_hz", "gunshot_radius_m", "fight_hz",
              "fight_radius_m", "fight_signal"});
  readCount(r, j, path, "per_client", 0, kMaxEntitiesPerClient, p.per_client);
  if (auto v = r.string(j, path, "species", false)) {
    if (v->empty()) {
      r.error(joinPath(path, "species"), "must not be empty");
    } else {
      p.species = *v;
    }
  }
  readNumber(r, j, path, "walk_mps", 0.0, true, p.walk_mps);
  readNumber(r, j, path, "run_mps", 0.0, true, p.run_mps);
  readFraction(r, j, path, "run_fraction", p.run_fraction);
  readNumber(r, j, path, "footstep_hz", 0.0, false, p.footstep_hz);
  readNumber(r, j, path, "footstep_radius_m", 0.0, true, p.footstep_radius_m);
  readNumber(r, j, path, "gunshot_hz", 0.0, false, p.gunshot_hz);
  readNumber(r, j, path, "gunshot_radius_m", 0.0, true, p.gunshot_radius_m);
  readNumber(r, j, path, "fight_hz", 0.0, false, p.fight_hz);
  readNumber(r, j, path, "fight_radius_m", 0.0, true, p.fight_radius_m);
  if (auto v = r.string(j, path, "fight_signal", false)) {
    if (v->empty()) {
      r.error(joinPath(path, "fight_signal"), "must not be empty");
    } else {
      p.fight_signal = *v;
    }
  }
}

void readNpcs(JsonReader& r, const json& root, NpcSpec& n) {
  auto it = root.find("npcs");
  if (it == root.end() || !r.isObject(*it, "/npcs")) return;
  const json& j = *it;
  const std::string path = "/npcs";
  r.onlyKeys(j, path, {"per_client", "total", "archetypes", "updates"});
  if (j.contains("per_client") && j.contains("total")) {
    r.error(path, "give per_client or total, not both");
  }
  readCount(r, j, path, "per_client", 0, kMaxEntitiesPerClient, n.per_client);
  readCount(r, j, path, "total", 0, kMaxEntitiesPerClient * kMaxClients, n.total);
  if (auto names = readNames(r, j, path, "archetypes", false)) n.archetypes = *names;
  if (auto v = r.string(j, path, "updates", false)) {
    if (*v == "moving") {
      n.updates = NpcSpec::Updates::kMoving;
    } else if (*v == "all") {
      n.updates = NpcSpec::Updates::kAll;
    } else {
      r.error(joinPath(path, "updates"), "expected \"moving\" or \"all\", got \"" + *v + "\"");
    }
  }
}

void readActions(JsonReader& r, const json& root, ActionSpec& a) {
  auto it = root.find("actions");
  if (it == root.end() || !r.isObject(*it, "/actions")) return;
  const json& j = *it;
  const std::string path = "/actions";
  r.onlyKeys(j, path,
             {"failure_rate", "default_duration_s", "progress_interval_s", "default_speed_mps"});
  readFraction(r, j, path, "failure_rate", a.failure_rate);
  readNumber(r, j, path, "default_duration_s", 0.0, false, a.default_duration_s);
  readNumber(r, j, path, "progress_interval_s", 0.0, false, a.progress_interval_s);
  readNumber(r, j, path, "default_speed_mps", 0.0, true, a.default_speed_mps);
}

void readExpect(JsonReader& r, const json& root, Expect& e) {
  auto it = root.find("expect");
  if (it == root.end() || !r.isObject(*it, "/expect")) return;
  const json& j = *it;
  const std::string path = "/expect";
  r.onlyKeys(j, path, {"max_errors", "max_p99_latency_ticks", "min_updates_per_s", "min_actions"});
  auto unsignedKey = [&](const char* key, std::optional<uint64_t>& out) {
    if (auto v = r.integer(j, path, key, false)) {
      if (*v < 0) {
        r.error(joinPath(path, key), "must be >= 0");
      } else {
        out = static_cast<uint64_t>(*v);
      }
    }
  };
  auto numberKey = [&](const char* key, std::optional<double>& out) {
    if (auto v = r.number(j, path, key, false)) {
      if (!(std::isfinite(*v) && *v >= 0.0)) {
        r.error(joinPath(path, key), "must be >= 0");
      } else {
        out = *v;
      }
    }
  };
  unsignedKey("max_errors", e.max_errors);
  numberKey("max_p99_latency_ticks", e.max_p99_latency_ticks);
  numberKey("min_updates_per_s", e.min_updates_per_s);
  unsignedKey("min_actions", e.min_actions);
}

void readScenario(JsonReader& r, const json& j, Scenario& s) {
  if (!r.isObject(j, "")) return;
  r.onlyKeys(j, "",
             {"$schema", "description", "clients", "duration_s", "warmup_s", "rate_hz", "seed", "area",
              "players", "npcs", "actions", "subscribe_events", "expect",
              "max_items_per_update"});
  if (auto v = r.string(j, "", "description", false)) s.description = *v;
  readCount(r, j, "", "clients", 1, kMaxClients, s.clients);
  readNumber(r, j, "", "duration_s", 0.0, true, s.duration_s);
  readNumber(r, j, "", "warmup_s", 0.0, false, s.warmup_s);
  readNumber(r, j, "", "rate_hz", 0.0, true, s.rate_hz);
  readCount(r, j, "", "max_items_per_update", 1, 1000000, s.max_items_per_update);
  if (s.rate_hz > 1000.0) r.error("/rate_hz", "must be at most 1000");
  if (auto v = r.integer(j, "", "seed", false)) {
    if (*v < 0) {
      r.error("/seed", "must be >= 0");
    } else {
      s.seed = static_cast<uint64_t>(*v);
    }
  }
  readArea(r, j, s);
  readPlayers(r, j, s.players);
  readNpcs(r, j, s.npcs);
  readActions(r, j, s.actions);
  const int64_t entities = int64_t{s.players.per_client} + s.npcs.countFor(0, s.clients);
  if (r.ok() && entities > kMaxEntitiesPerClient) {
    r.error("/npcs", "players + NPCs per client (" + std::to_string(entities) +
                         ") exceed " + std::to_string(kMaxEntitiesPerClient) +
                         ", one WorldUpdate's worth; use more clients");
  }
  if (auto names = readNames(r, j, "", "subscribe_events", true)) {
    s.subscribe_events.clear();
    for (size_t i = 0; i < names->size(); ++i) {
      const std::string& name = (*names)[i];
      if (eventKindValue(name) == 0) {
        r.error(joinPath("/subscribe_events", i),
                "\"" + name + "\" is not an event kind (" + eventKindList() + ")");
      }
      s.subscribe_events.push_back(name);
    }
  }
  readExpect(r, j, s.expect);
}

}  // namespace

uint32_t NpcSpec::countFor(uint32_t index, uint32_t clients) const {
  if (total == 0 || clients == 0) return per_client;
  return total / clients + (index < total % clients ? 1 : 0);
}

uint32_t Scenario::totalNpcs() const {
  return npcs.total > 0 ? npcs.total : npcs.per_client * clients;
}

int eventKindValue(std::string_view name) {
  std::string full = "EVENT_KIND_";
  for (char c : name) full += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  v1::EventKind kind = v1::EVENT_KIND_UNSPECIFIED;
  if (!v1::EventKind_Parse(full, &kind)) return 0;
  return static_cast<int>(kind);
}

std::string eventKindList() {
  std::string list;
  const google::protobuf::EnumDescriptor* d = v1::EventKind_descriptor();
  for (int i = 0; i < d->value_count(); ++i) {
    if (d->value(i)->number() == 0) continue;
    std::string name = d->value(i)->name().substr(std::string_view("EVENT_KIND_").size());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    list += (list.empty() ? "" : ", ") + name;
  }
  return list;
}

bool parseScenario(const std::string& name, std::string_view text, Scenario& out,
                   std::vector<std::string>& errors) {
  JsonReader r(name);
  json root;
  Scenario s;
  s.file = name;
  if (r.parse(text, root)) readScenario(r, root, s);
  errors.insert(errors.end(), r.errors().begin(), r.errors().end());
  if (!r.ok()) return false;
  out = std::move(s);
  return true;
}

bool loadScenario(const std::string& path, Scenario& out, std::vector<std::string>& errors) {
  JsonReader r(path);
  json root;
  Scenario s;
  s.file = path;
  if (r.parseFile(root)) readScenario(r, root, s);
  errors.insert(errors.end(), r.errors().begin(), r.errors().end());
  if (!r.ok()) return false;
  out = std::move(s);
  return true;
}

}  // namespace npc::bots
