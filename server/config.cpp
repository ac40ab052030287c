#include "config.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"

namespace npc {

using nlohmann::json;

namespace {

bool validLogLevel(const std::string& level) {
  for (const char* l : {"trace", "debug", "info", "warn", "error", "off"}) {
    if (level == l) return true;
  }
  return false;
}

std::string resolvePath(const std::string& base_dir, const std::string& path) {
  if (path.empty() || std::filesystem::path(path).is_absolute() || base_dir.empty()) return path;
  return (std::filesystem::path(base_dir) / path).lexically_normal().string();
}

void validate(DaemonConfig& c, JsonReader& r) {
  if (!(c.tick_hz > 0.0 && c.tick_hz <= 1000.0)) r.error("/tick_hz", "must be within (0, 1000]");
  if (!validLogLevel(c.log_level)) {
    r.error("/log_level", "expected trace, debug, info, warn, error or off");
  }
  if (c.log_format != "text" && c.log_format != "json") r.error("/log_format", "expected text or json");
  if (c.status_interval_s < 0.0) r.error("/status_interval_s", "must be >= 0");
  if (c.max_message_bytes < 1024) r.error("/max_message_bytes", "must be >= 1024");
  if (c.outbox_max_messages < 1) r.error("/outbox_max_messages", "must be >= 1");
  if (c.max_items_per_update < 1) r.error("/max_items_per_update", "must be >= 1");
  if (!(c.grid_cell_m >= kMinGridCellM && c.grid_cell_m <= kMaxGridCellM)) {
    r.error("/grid_cell_m", "must be within [" + formatNumber(kMinGridCellM) + ", " +
                                formatNumber(kMaxGridCellM) + "] m");
  }
  if (c.shutdown_grace_s < 0.0) r.error("/shutdown_grace_s", "must be >= 0");
  if (c.definitions_poll_s < 0.0) r.error("/definitions_poll_s", "must be >= 0");
  if (c.max_updates_per_s < 0.0) r.error("/max_updates_per_s", "must be >= 0");
  if (c.tls_cert.empty() != c.tls_key.empty()) {
    r.error(c.tls_cert.empty() ? "/tls_cert" : "/tls_key", "tls_cert and tls_key go together");
  }
  if (c.listen.empty()) r.error("/listen", "must not be empty");
  if (c.tls_client_auth != "none" && c.tls_client_auth != "request" &&
      c.tls_client_auth != "require") {
    r.error("/tls_client_auth", "expected none, request or require");
  }
  if (c.tls_client_auth != "none" && (c.tls_client_ca.empty() || c.tls_cert.empty())) {
    r.error("/tls_client_auth", "needs tls_client_ca, tls_cert and tls_key");
  }
  if (!(c.handshake_timeout_s > 0.0)) r.error("/handshake_timeout_s", "must be > 0");
  if (!(c.max_connection_idle_s >= 0.0)) r.error("/max_connection_idle_s", "must be >= 0");
  if (!(c.keepalive_s >= 1.0)) r.error("/keepalive_s", "must be >= 1");
  if (c.max_memory_mb < 16) r.error("/max_memory_mb", "must be >= 16");
}

// "clients": [{"name": "eu-1", "token_env": "NPCD_EU1_TOKEN", "role": "game"},
//             {"name": "ops", "certificate": "ops.studio.example", "role": "admin"}]
void readClients(JsonReader& r, const json& list, DaemonConfig& c) {
  if (!r.isArray(list, "/clients")) return;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string path = "/clients/" + std::to_string(i);
    const json& j = list[i];
    if (!r.isObject(j, path)) continue;
    r.onlyKeys(j, path, {"name", "token", "token_env", "certificate", "role"});
    ClientCredential cred;
    if (auto v = r.string(j, path, "name", true)) cred.name = *v;
    if (auto v = r.string(j, path, "token", false)) cred.token = *v;
    if (auto v = r.string(j, path, "token_env", false)) {
      const char* value = std::getenv(v->c_str());
      if (value == nullptr || *value == '\0') {
        r.error(path + "/token_env", "environment variable " + *v + " is not set");
      } else {
        cred.token = value;
      }
    }
    if (auto v = r.string(j, path, "certificate", false)) cred.certificate = *v;
    if (auto v = r.string(j, path, "role", true)) {
      if (auto role = parseRole(*v)) {
        cred.role = *role;
      } else {
        r.error(path + "/role", "expected game, admin or observer");
      }
    }
    if (cred.name.empty() && j.contains("name")) r.error(path + "/name", "must not be empty");
    if (cred.token.empty() && cred.certificate.empty() && !j.contains("token_env")) {
      r.error(path, "needs token, token_env or certificate");
    }
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
  const char* path = "/world_bounds_m";
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path, {"half_extent", "min_z", "max_z"});
  if (auto v = r.number(j, path, "half_extent", false)) {
    if (!(*v > 0.0 && *v <= kMaxWorldHalfExtentM)) {
      r.error("/world_bounds_m/half_extent",
              "must be within (0, " + formatNumber(kMaxWorldHalfExtentM) + "] m");
    } else {
      b.half_extent_m = *v;
    }
  }
  if (auto v = r.number(j, path, "min_z", false)) b.min_z_m = *v;
  if (auto v = r.number(j, path, "max_z", false)) b.max_z_m = *v;
  if (!(b.min_z_m < b.max_z_m && std::fabs(b.min_z_m) <= kMaxWorldHalfExtentM &&
        std::fabs(b.max_z_m) <= kMaxWorldHalfExtentM)) {
    r.error("/world_bounds_m", "min_z must be < max_z, both within +-" +
                                   formatNumber(kMaxWorldHalfExtentM) + " m");
  }
}

void readJournal(JsonReader& r, const json& j, SnapshotConfig& c) {
  const char* path = "/snapshot/journal";
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path, {"enabled", "sync", "sync_interval_ms"});
  if (auto v = r.boolean(j, path, "enabled", false)) c.journal = *v;
  if (auto v = r.string(j, path, "sync", false)) {
    if (*v == "tick" || *v == "interval" || *v == "none") {
      c.journal_sync = *v;
    } else {
      r.error("/snapshot/journal/sync", "must be \"tick\", \"interval\" or \"none\"");
    }
  }
  if (auto v = r.number(j, path, "sync_interval_ms", false)) {
    if (*v >= 1 && *v <= 60000) {
      c.journal_sync_interval_ms = *v;
    } else {
      r.error("/snapshot/journal/sync_interval_ms", "must be within [1, 60000]");
    }
  }
}

void readSnapshot(JsonReader& r, const json& j, const std::string& base_dir, SnapshotConfig& c) {
  const char* path = "/snapshot";
  if (!r.isObject(j, path)) return;
  r.onlyKeys(j, path, {"dir", "interval_s", "keep", "restore_on_start", "journal"});
  if (auto v = r.string(j, path, "dir", false)) c.dir = resolvePath(base_dir, *v);
  if (auto v = r.number(j, path, "interval_s", false)) {
    c.interval_s = *v;
    if (!(*v >= 0 && *v <= 86400)) r.error("/snapshot/interval_s", "must be within [0, 86400]");
  }
  if (auto v = r.integer(j, path, "keep", false)) {
    if (*v < 1 || *v > 10000) {
      r.error("/snapshot/keep", "must be within [1, 10000]");
    } else {
      c.keep = static_cast<uint32_t>(*v);
    }
  }
  if (auto v = r.boolean(j, path, "restore_on_start", false)) c.restore_on_start = *v;
  if (c.dir.empty() && (c.interval_s > 0 || c.restore_on_start)) {
    r.error("/snapshot/dir", "is required for interval_s and restore_on_start");
  }
  if (c.restore_on_start) c.restore = "latest";
  if (j.contains("journal")) readJournal(r, j["journal"], c);
}

template <class T>
void readUnsigned(JsonReader& r, const json& j, const char* key, T& out) {
  if (auto v = r.integer(j, "", key, false)) {
    if (*v < 0) {
      r.error(std::string("/") + key, "must be >= 0");
    } else {
      out = static_cast<T>(*v);
    }
  }
}

bool readConfig(JsonReader& r, const json* root, const std::string& base_dir, DaemonConfig& c,
                std::vector<std::string>& errors) {
  if (root && r.isObject(*root, "")) {
    const json& j = *root;
    r.onlyKeys(j, "",
               {"$schema", "listen", "tick_hz", "seed", "archetypes_dir", "selection_trees_dir",
                "behavior_trees_dir", "world",
                "simulated_players", "log_level", "log_format", "status_interval_s",
                "max_message_bytes", "outbox_max_messages", "max_items_per_update",
                "max_agents", "grid_cell_m", "shutdown_grace_s", "derive_footsteps",
                "definitions_poll_s", "metrics_listen", "auth_token", "tls_cert", "tls_key",
                "max_updates_per_s", "perception", "long_actions", "influences", "hibernation",
                "goap_dir", "goap_statistics_dir", "max_plans_per_tick", "debug_listen",
                "world_bounds_m", "watchdog", "tls_client_ca", "tls_client_auth", "clients",
                "handshake_timeout_s", "max_connection_idle_s", "keepalive_s", "max_memory_mb",
                "max_clients", "tick", "snapshot", "access_log", "cluster"});
    if (auto v = r.string(j, "", "listen", false)) c.listen = *v;
    if (auto v = r.number(j, "", "tick_hz", false)) c.tick_hz = *v;
    readUnsigned(r, j, "seed", c.seed);
    if (auto v = r.string(j, "", "archetypes_dir", false)) c.archetypes_dir = resolvePath(base_dir, *v);
    if (auto v = r.string(j, "", "selection_trees_dir", false)) {
      c.selection_trees_dir = resolvePath(base_dir, *v);
    }
    if (auto v = r.string(j, "", "behavior_trees_dir", false)) {
      c.behavior_trees_dir = resolvePath(base_dir, *v);
    }
    if (auto v = r.string(j, "", "world", false)) c.world = resolvePath(base_dir, *v);
    if (auto v = r.boolean(j, "", "derive_footsteps", false)) c.derive_footsteps = *v;
    if (auto v = r.boolean(j, "", "access_log", false)) c.access_log = *v;
    if (auto v = r.number(j, "", "definitions_poll_s", false)) c.definitions_poll_s = *v;
    if (auto v = r.string(j, "", "metrics_listen", false)) c.metrics_listen = *v;
    if (auto v = r.string(j, "", "debug_listen", false)) c.debug_listen = *v;
    if (auto v = r.string(j, "", "auth_token", false)) c.auth_token = *v;
    if (auto v = r.string(j, "", "tls_cert", false)) c.tls_cert = resolvePath(base_dir, *v);
    if (auto v = r.string(j, "", "tls_key", false)) c.tls_key = resolvePath(base_dir, *v);
    if (auto v = r.number(j, "", "max_updates_per_s", false)) c.max_updates_per_s = *v;
    if (auto v = r.string(j, "", "tls_client_ca", false)) c.tls_client_ca = resolvePath(base_dir, *v);
    if (auto v = r.string(j, "", "tls_client_auth", false)) c.tls_client_auth = *v;
    if (j.contains("clients")) readClients(r, j["clients"], c);
    if (auto v = r.number(j, "", "handshake_timeout_s", false)) c.handshake_timeout_s = *v;
    if (auto v = r.number(j, "", "max_connection_idle_s", false)) c.max_connection_idle_s = *v;
    if (auto v = r.number(j, "", "keepalive_s", false)) c.keepalive_s = *v;
    readUnsigned(r, j, "max_memory_mb", c.max_memory_mb);
    if (auto v = r.integer(j, "", "max_clients", false)) {
      if (*v < 1 || *v > kMaxClientsLimit) {
        r.error("/max_clients", "must be within [1, " + std::to_string(kMaxClientsLimit) + "]");
      } else {
        c.max_clients = static_cast<uint32_t>(*v);
      }
    }
    if (j.contains("perception")) readPerceptionConfig(j["perception"], "/perception", r, c.perception);
    if (auto v = r.string(j, "", "long_actions", false)) c.long_actions = resolvePath(base_dir, *v);
    if (auto v = r.string(j, "", "influences", false)) c.influences = resolvePath(base_dir, *v);
    if (j.contains("hibernation") && r.isObject(j["hibernation"], "/hibernation")) {
      const json& h = j["hibernation"];
      r.onlyKeys(h, "/hibernation", {"enabled", "quiet_s"});
      if (auto v = r.boolean(h, "/hibernation", "enabled", false)) c.hibernation.enabled = *v;
      if (auto v = r.number(h, "/hibernation", "quiet_s", false)) {
        c.hibernation.quiet_s = *v;
        if (!(*v >= 0)) r.error("/hibernation/quiet_s", "must be >= 0");
      }
    }
    if (j.contains("watchdog") && r.isObject(j["watchdog"], "/watchdog")) {
      const json& w = j["watchdog"];
      r.onlyKeys(w, "/watchdog", {"warn_budgets", "shutdown_limit_s"});
      if (auto v = r.number(w, "/watchdog", "warn_budgets", false)) {
        c.watchdog.warn_budgets = *v;
        if (!(*v > 0 && *v <= 1e6)) r.error("/watchdog/warn_budgets", "must be within (0, 1000000]");
      }
      if (auto v = r.number(w, "/watchdog", "shutdown_limit_s", false)) {
        c.watchdog.shutdown_limit_s = *v;
        if (!(*v >= 0 && *v <= 3600)) r.error("/watchdog/shutdown_limit_s", "must be within [0, 3600]");
      }
    }
    if (j.contains("tick") && r.isObject(j["tick"], "/tick")) {
      const json& t = j["tick"];
      r.onlyKeys(t, "/tick", {"threads", "lod"});
      if (auto v = r.integer(t, "/tick", "threads", false)) {
        if (*v >= 1 && *v <= 256) {
          c.tick_threads = static_cast<uint32_t>(*v);
        } else {
          r.error("/tick/threads", "must be within [1, 256]");
        }
      }
      if (t.contains("lod") && r.isObject(t["lod"], "/tick/lod")) {
        const json& l = t["lod"];
        r.onlyKeys(l, "/tick/lod", {"near_m", "far_period_ticks"});
        c.detail.enabled = true;
        if (auto v = r.number(l, "/tick/lod", "near_m", false)) {
          c.detail.near_m = static_cast<float>(*v);
          if (!(*v > 0 && *v <= 100000)) r.error("/tick/lod/near_m", "must be within (0, 100000]");
        }
        if (auto v = r.integer(l, "/tick/lod", "far_period_ticks", false)) {
          if (*v >= 1 && *v <= 1000) {
            c.detail.far_period_ticks = static_cast<uint32_t>(*v);
          } else {
            r.error("/tick/lod/far_period_ticks", "must be within [1, 1000]");
          }
        }
      }
    }
    if (auto v = r.string(j, "", "goap_dir", false)) c.goap_dir = resolvePath(base_dir, *v);
    if (auto v = r.string(j, "", "goap_statistics_dir", false)) {
      c.goap_statistics_dir = resolvePath(base_dir, *v);
    }
    readUnsigned(r, j, "max_plans_per_tick", c.max_plans_per_tick);
    if (j.contains("world_bounds_m")) readWorldBounds(r, j["world_bounds_m"], c.world_bounds);
    if (j.contains("snapshot")) readSnapshot(r, j["snapshot"], base_dir, c.snapshot);
    if (j.contains("cluster")) readClusterConfig(r, j["cluster"], c.cluster);
    if (auto v = r.boolean(j, "", "simulated_players", false)) c.simulated_players = *v;
    if (auto v = r.string(j, "", "log_level", false)) c.log_level = *v;
    if (auto v = r.string(j, "", "log_format", false)) c.log_format = *v;
    if (auto v = r.number(j, "", "status_interval_s", false)) c.status_interval_s = *v;
    if (auto v = r.integer(j, "", "max_message_bytes", false)) {
      c.max_message_bytes = *v > (1ll << 30) ? -1 : static_cast<int>(*v);
    }
    readUnsigned(r, j, "outbox_max_messages", c.outbox_max_messages);
    readUnsigned(r, j, "max_items_per_update", c.max_items_per_update);
    readUnsigned(r, j, "max_agents", c.max_agents);
    if (auto v = r.number(j, "", "grid_cell_m", false)) c.grid_cell_m = *v;
    if (auto v = r.number(j, "", "shutdown_grace_s", false)) c.shutdown_grace_s = *v;
    validate(c, r);
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
