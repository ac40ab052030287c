#include "config.h"

#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"

namespace npc {

using nlohmann::json;

namespace {

std::string resolvePath(const std::string& base_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute() || base_dir.empty()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

// The schema (config/schema/daemon_config.schema.json) has checked every key, type and
// range by the time these run; what is left are rules that tie keys together.
void checkTogether(const DaemonConfig& c, JsonReader& r) {
  if (c.tls_cert.empty() != c.tls_key.empty()) {
    r.error(c.tls_cert.empty() ? "/tls_cert" : "/tls_key", "tls_cert and tls_key go together");
  }
  if (c.tls_client_auth != "none" && (c.tls_client_ca.empty() || c.tls_cert.empty())) {
    r.error("/tls_client_auth", "needs tls_client_ca, tls_cert and tls_key");
  }
}

// "clients": [{"name": "eu-1", "token_env": "NPCD_EU1_TOKEN", "role": "game"},
//             {"name": "ops", "certificate": "ops.studio.example", "role": "admin"}]
// A token_env names a variable read now, so a missing one is found at start-up.
ClientCredential readClient(JsonReader& r, const json& j, const std::string& path) {
  ClientCredential cred;
  readConforming<std::string>(
      j, {{"name", &cred.name}, {"token", &cred.token}, {"certificate", &cred.certificate}});
  cred.role = parseRole(j["role"].get<std::string>()).value_or(cred.role);  // an enum there
  if (auto it = j.find("token_env"); it != j.end()) {
    const std::string name = it->get<std::string>();
    const char* value = std::getenv(name.c_str());
    if (value == nullptr || *value == '\0') {
      r.error(path + "/token_env", "environment variable " + name + " is not set");
    } else {
      cred.token = value;
    }
  }
  if (cred.token.empty() && cred.certificate.empty() && !j.contains("token_env")) {
    r.error(path, "needs token, token_env or certificate");
  }
  return cred;
}

void readClients(JsonReader& r, const json& list, DaemonConfig& c) {
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = joinPath("/clients", i);
    ClientCredential cred = readClient(r, list[i], path);
    for (const ClientCredential& other : c.clients) {
      if (other.name == cred.name) r.error(path + "/name", "\"" + cred.name + "\" is used twice");
      if (!cred.token.empty() && other.token == cred.token) {
        r.error(path + "/token", "same token as client \"" + other.name + "\"");
      }
    }
    c.clients.push_back(std::move(cred));
  }
}

void readWorldBounds(JsonReader& r, const json& j, WorldBounds& b) {
  readConforming<double>(
      j, {{"half_extent", &b.half_extent_m}, {"min_z", &b.min_z_m}, {"max_z", &b.max_z_m}});
  if (!(b.min_z_m < b.max_z_m)) r.error("/world_bounds_m", "min_z must be < max_z");
}

void readSnapshot(JsonReader& r, const json& j, const std::string& base_dir, SnapshotConfig& c) {
  if (auto it = j.find("dir"); it != j.end()) c.dir = resolvePath(base_dir, it->get<std::string>());
  readConforming<double>(j, {{"interval_s", &c.interval_s}});
  readConforming<uint32_t>(j, {{"keep", &c.keep}});
  readConforming<bool>(j, {{"restore_on_start", &c.restore_on_start}});
  if (c.dir.empty() && (c.interval_s > 0 || c.restore_on_start)) {
    r.error("/snapshot/dir", "is required for interval_s and restore_on_start");
  }
  if (c.restore_on_start) c.restore = "latest";
  if (!j.contains("journal")) return;
  const json& journal = j["journal"];
  readConforming<bool>(journal, {{"enabled", &c.journal}});
  readConforming<std::string>(journal, {{"sync", &c.journal_sync}});
  readConforming<double>(journal, {{"sync_interval_ms", &c.journal_sync_interval_ms}});
}

// "tick": { "threads": 2, "lod": { "near_m": 60, "far_period_ticks": 4 } }
void readTick(const json& t, DaemonConfig& c) {
  readConforming<uint32_t>(t, {{"threads", &c.tick_threads}});
  if (!t.contains("lod")) return;
  c.detail.enabled = true;
  readConforming<float>(t["lod"], {{"near_m", &c.detail.near_m}});
  readConforming<uint32_t>(t["lod"], {{"far_period_ticks", &c.detail.far_period_ticks}});
}

// Keys naming files and folders, relative to the config file's folder.
void readPaths(const json& j, const std::string& base_dir, DaemonConfig& c) {
  const std::pair<const char*, std::string*> paths[] = {
      {"archetypes_dir", &c.archetypes_dir}, {"selection_trees_dir", &c.selection_trees_dir},
      {"behavior_trees_dir", &c.behavior_trees_dir}, {"world", &c.world},
      {"tls_cert", &c.tls_cert}, {"tls_key", &c.tls_key}, {"tls_client_ca", &c.tls_client_ca},
      {"long_actions", &c.long_actions}, {"influences", &c.influences},
      {"goap_dir", &c.goap_dir}, {"goap_statistics_dir", &c.goap_statistics_dir}};
  for (const auto& [key, out] : paths) {
    if (auto it = j.find(key); it != j.end()) *out = resolvePath(base_dir, it->get<std::string>());
  }
}

void readNetwork(JsonReader& r, const json& j, DaemonConfig& c) {
  readConforming<std::string>(
      j, {{"listen", &c.listen}, {"metrics_listen", &c.metrics_listen},
          {"debug_listen", &c.debug_listen}, {"auth_token", &c.auth_token},
          {"tls_client_auth", &c.tls_client_auth}});
  if (j.contains("clients")) readClients(r, j["clients"], c);
  readConforming<double>(
      j, {{"handshake_timeout_s", &c.handshake_timeout_s},
          {"max_connection_idle_s", &c.max_connection_idle_s}, {"keepalive_s", &c.keepalive_s},
          {"max_updates_per_s", &c.max_updates_per_s}});
  readConforming<uint32_t>(
      j, {{"max_memory_mb", &c.max_memory_mb}, {"max_clients", &c.max_clients},
          {"outbox_max_messages", &c.outbox_max_messages},
          {"max_items_per_update", &c.max_items_per_update},
          {"max_inbox_commands", &c.max_inbox_commands}});
  // Beyond 1 GiB is gRPC's "no limit" (-1). The schema sets no upper bound.
  if (auto it = j.find("max_message_bytes"); it != j.end()) {
    const uint64_t bytes = it->get<uint64_t>();
    c.max_message_bytes = bytes > (uint64_t{1} << 30) ? -1 : static_cast<int>(bytes);
  }
}

void readSimulation(JsonReader& r, const json& j, DaemonConfig& c) {
  readConforming<double>(j, {{"tick_hz", &c.tick_hz},
                             {"definitions_poll_s", &c.definitions_poll_s},
                             {"grid_cell_m", &c.grid_cell_m}});
  readConforming<uint64_t>(j, {{"seed", &c.seed}});
  readConforming<bool>(j, {{"simulated_players", &c.simulated_players},
                           {"derive_footsteps", &c.derive_footsteps}});
  readConforming<uint32_t>(
      j, {{"max_agents", &c.max_agents}, {"max_plans_per_tick", &c.max_plans_per_tick}});
  if (j.contains("perception")) {
    readPerceptionConfig(j["perception"], "/perception", r, c.perception);
  }
  if (j.contains("world_bounds_m")) readWorldBounds(r, j["world_bounds_m"], c.world_bounds);
  if (j.contains("tick")) readTick(j["tick"], c);
  if (j.contains("hibernation")) {
    readConforming<bool>(j["hibernation"], {{"enabled", &c.hibernation.enabled}});
    readConforming<double>(j["hibernation"], {{"quiet_s", &c.hibernation.quiet_s}});
  }
  if (j.contains("watchdog")) {
    readConforming<double>(j["watchdog"], {{"warn_budgets", &c.watchdog.warn_budgets},
                                           {"shutdown_limit_s", &c.watchdog.shutdown_limit_s}});
  }
}

void readOperations(JsonReader& r, const json& j, const std::string& base_dir, DaemonConfig& c) {
  readConforming<std::string>(j, {{"log_level", &c.log_level}, {"log_format", &c.log_format}});
  readConforming<bool>(j, {{"access_log", &c.access_log}});
  readConforming<double>(j, {{"status_interval_s", &c.status_interval_s},
                             {"shutdown_grace_s", &c.shutdown_grace_s}});
  if (j.contains("snapshot")) readSnapshot(r, j["snapshot"], base_dir, c.snapshot);
  if (j.contains("cluster")) readClusterConfig(r, j["cluster"], c.cluster);
}

// A document that fails its schema stops at the schema's errors: the readers below
// assume its shape.
bool readConfig(JsonReader& r, const json* root, const std::string& base_dir, DaemonConfig& c,
                std::vector<std::string>& errors) {
  if (root && r.validate(*root, SchemaId::kDaemonConfig)) {
    readPaths(*root, base_dir, c);
    readNetwork(r, *root, c);
    readSimulation(r, *root, c);
    readOperations(r, *root, base_dir, c);
    checkTogether(c, r);
    c.source = r.file();
  }
  errors.insert(errors.end(), r.errors().begin(), r.errors().end());
  return r.ok();
}

}  // namespace

bool parseConfig(const std::string& name, const std::string& text, const std::string& base_dir,
                 DaemonConfig& c, std::vector<std::string>& errors) {
  JsonReader r(name);
  json j;
  const bool parsed = r.parse(text, j);
  return readConfig(r, parsed ? &j : nullptr, base_dir, c, errors);
}

bool loadConfigFile(const std::string& path, DaemonConfig& c, std::vector<std::string>& errors) {
  JsonReader r(path);
  json j;
  const bool parsed = r.parseFile(j);
  const std::string base = std::filesystem::path(path).parent_path().string();
  return readConfig(r, parsed ? &j : nullptr, base, c, errors);
}

}  // namespace npc
