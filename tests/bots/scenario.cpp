#include "scenario.h"

#include <cctype>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"
#include "npc/v1/npc.pb.h"

namespace npc::bots {

using nlohmann::json;

namespace {

// One client streams at most this many players + NPCs (a game server's share of a world;
// frames beyond max_items_per_update are split, see frame_split.h).
constexpr int64_t kMaxEntitiesPerClient = 8000;

// The readers below run once the file has passed config/schema/bots_scenario.schema.json,
// which checks every key, type and range; they keep the rules that tie keys together.

// The schema bounds these only from below: the reader still refuses one beyond a float.
void readFloats(JsonReader& r, const json& j, const std::string& path,
                std::initializer_list<std::pair<const char*, float*>> fields) {
  for (const auto& [key, out] : fields) {
    if (auto v = r.number(j, path, key, false)) *out = static_cast<float>(*v);
  }
}

template <class T>
void readOptional(const json& j, const char* key, std::optional<T>& out) {
  if (auto it = j.find(key); it != j.end()) out = it->get<T>();
}

void readArea(JsonReader& r, const json& root, Scenario& s) {
  auto it = root.find("area");
  if (it == root.end()) return;
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
  if (it == root.end()) return;
  const json& j = *it;
  const std::string path = "/players";
  readConforming<uint32_t>(j, {{"per_client", &p.per_client}});
  readConforming<std::string>(j, {{"species", &p.species}, {"fight_signal", &p.fight_signal}});
  readFloats(r, j, path,
             {{"walk_mps", &p.walk_mps}, {"run_mps", &p.run_mps},
              {"footstep_radius_m", &p.footstep_radius_m},
              {"gunshot_radius_m", &p.gunshot_radius_m}, {"fight_radius_m", &p.fight_radius_m}});
  readConforming<double>(j, {{"run_fraction", &p.run_fraction}, {"footstep_hz", &p.footstep_hz},
                             {"gunshot_hz", &p.gunshot_hz}, {"fight_hz", &p.fight_hz}});
}

void readNpcs(JsonReader& r, const json& root, NpcSpec& n) {
  auto it = root.find("npcs");
  if (it == root.end()) return;
  const json& j = *it;
  const std::string path = "/npcs";
  if (j.contains("per_client") && j.contains("total")) {
    r.error(path, "give per_client or total, not both");
  }
  readConforming<uint32_t>(j, {{"per_client", &n.per_client},
                               {"total", &n.total},
                               {"spawn_per_frame", &n.spawn_per_frame}});
  if (j.contains("archetypes")) n.archetypes = j["archetypes"].get<std::vector<std::string>>();
  if (j.value("updates", "moving") == "all") n.updates = NpcSpec::Updates::kAll;
}

void readActions(JsonReader& r, const json& root, ActionSpec& a) {
  auto it = root.find("actions");
  if (it == root.end()) return;
  const json& j = *it;
  readConforming<double>(j, {{"failure_rate", &a.failure_rate},
                             {"default_duration_s", &a.default_duration_s},
                             {"progress_interval_s", &a.progress_interval_s}});
  readFloats(r, j, "/actions", {{"default_speed_mps", &a.default_speed_mps}});
}

void readExpect(const json& root, Expect& e) {
  auto it = root.find("expect");
  if (it == root.end()) return;
  readOptional(*it, "max_errors", e.max_errors);
  readOptional(*it, "max_p99_latency_ticks", e.max_p99_latency_ticks);
  readOptional(*it, "min_updates_per_s", e.min_updates_per_s);
  readOptional(*it, "min_actions", e.min_actions);
}

// Event kinds are the API's (EventKind in npc.proto), which the schema does not list.
void readEvents(JsonReader& r, const json& j, Scenario& s) {
  auto it = j.find("subscribe_events");
  if (it == j.end()) return;
  s.subscribe_events.clear();
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string name = (*it)[i].get<std::string>();
    if (eventKindValue(name) == 0) {
      r.error(joinPath("/subscribe_events", i),
              "\"" + name + "\" is not an event kind (" + eventKindList() + ")");
    }
    s.subscribe_events.push_back(name);
  }
}

void checkEntitiesPerClient(JsonReader& r, const Scenario& s) {
  const int64_t entities = int64_t{s.players.per_client} + s.npcs.countFor(0, s.clients);
  if (r.ok() && entities > kMaxEntitiesPerClient) {
    r.error("/npcs", "players + NPCs per client (" + std::to_string(entities) +
                         ") exceed " + std::to_string(kMaxEntitiesPerClient) +
                         ", one WorldUpdate's worth; use more clients");
  }
}

void readScenario(JsonReader& r, const json& j, Scenario& s) {
  if (!r.validate(j, SchemaId::kBotsScenario)) return;
  readConforming<std::string>(j, {{"description", &s.description}});
  readConforming<uint32_t>(
      j, {{"clients", &s.clients}, {"max_items_per_update", &s.max_items_per_update}});
  readConforming<uint64_t>(j, {{"seed", &s.seed}});
  readConforming<double>(
      j, {{"duration_s", &s.duration_s}, {"warmup_s", &s.warmup_s}, {"rate_hz", &s.rate_hz}});
  readArea(r, j, s);
  readPlayers(r, j, s.players);
  readNpcs(r, j, s.npcs);
  readActions(r, j, s.actions);
  checkEntitiesPerClient(r, s);
  readEvents(r, j, s);
  readExpect(j, s.expect);
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
