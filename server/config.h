// Daemon configuration: a JSON file (config/npcd.json) overridden by command-line flags.
// The file is checked against config/schema/daemon_config.schema.json first: unknown keys,
// wrong types and values out of range stop start-up with a message naming the key and
// where it is; the reader then checks what ties keys together (tls_cert with tls_key).
// Keys and defaults are listed in README.md ("Configuration").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "access_control.h"
#include "cluster/cluster_config.h"
#include "hibernation/place_dispatcher.h"
#include "perception/perception_config.h"
#include "sim/detail_tiers.h"
#include "world/limits.h"

namespace npc {

// "watchdog": a tick running past warn_budgets tick periods is logged with its phase and
// agent; after SIGTERM/SIGINT, a stop not done within shutdown_grace_s + shutdown_limit_s
// ends the process (exit code 3) even if a tick is stuck.
struct WatchdogConfig {
  double warn_budgets = 5.0;      // [Limit: > 0]
  double shutdown_limit_s = 5.0;  // [Limit: >= 0]
};

// max_clients' bound; the schema's "maximum" repeats it (config_test keeps them equal).
inline constexpr int64_t kMaxClientsLimit = 1000000;
// "snapshot": durable AI state (README.md "Snapshots"). Snapshots go to dir every
// interval_s (0 = only on SIGTERM and the admin Snapshot call), the newest `keep` stay.
// restore_on_start (or `npcd --restore latest|FILE`) starts from the newest good one.
struct SnapshotConfig {
  std::string dir;              // "" = snapshots off
  double interval_s = 0.0;      // [Limit: >= 0]
  uint32_t keep = 3;            // [Limit: >= 1]
  bool restore_on_start = false;
  std::string restore;          // "latest" or a file; from --restore or restore_on_start
  // The input journal beside each snapshot (server/input_journal.h), when dir is set.
  bool journal = true;
  std::string journal_sync = "interval";  // "tick" | "interval" | "none"
  double journal_sync_interval_ms = 100.0;  // [Limit: [1, 60000]]
};

struct DaemonConfig {
  std::string listen = "127.0.0.1:50051";
  double tick_hz = 10.0;               // simulation ticks per second
  uint64_t seed = 1;                   // world seed (determinism)
  std::string archetypes_dir;          // directory of archetype JSON files; "" = none
  std::string selection_trees_dir;     // directory of selection tree XML files; "" = none
  std::string behavior_trees_dir;      // directory of modular behavior tree XML; "" = none
  std::string world;                   // world file; "" = empty world
  bool simulated_players = false;      // run the built-in demo game (scripted players)
  std::string log_level = "info";      // trace, debug, info, warn, error, off
  std::string log_format = "text";     // text | json (one JSON object per line)
  bool access_log = false;             // one info line per gRPC call: method, client, code, ms
  double status_interval_s = 5.0;      // status line period; 0 = never
  int max_message_bytes = 4 << 20;     // largest WorldUpdate accepted
  uint32_t outbox_max_messages = 256;  // per client; beyond it the client is dropped
  uint32_t max_items_per_update = 10000;
  // Reads pause while more commands than this wait for the tick: room for a whole 100,000-NPC
  // world moved every tick, plus its action results.
  uint32_t max_inbox_commands = 262144;
  uint32_t max_agents = 100000;
  double grid_cell_m = 8.0;            // spatial index cell size
  double shutdown_grace_s = 5.0;       // how long in-flight RPCs get on SIGTERM
  bool derive_footsteps = true;        // moving players make footstep sounds
  std::string metrics_listen;          // Prometheus /metrics address ("" = off)
  std::string auth_token;              // bearer token every call must carry ("" = off;
                                       // env NPCD_AUTH_TOKEN overrides); required when
                                       // listening beyond loopback
  std::string tls_cert;                // PEM certificate chain; with tls_key enables TLS
  std::string tls_key;                 // PEM private key
  std::string tls_client_ca;           // PEM CA that signs client certificates ("" = none)
  std::string tls_client_auth = "none";  // none | request (verified if sent) | require
  std::vector<ClientCredential> clients;  // "clients": per-client credentials and roles
  // Connection hygiene (README.md "Security"): a connection that has not completed its
  // TLS/HTTP/2 handshake (client preface + SETTINGS) within handshake_timeout_s is closed;
  // one with no call in flight for max_connection_idle_s gets GOAWAY; keepalive pings every
  // keepalive_s find dead peers; max_memory_mb caps what gRPC may allocate for all
  // connections and calls. gRPC 1.51 has no connection-count cap: the handshake and idle
  // timeouts, the memory quota and max_clients (Connect streams) bound what clients hold.
  double handshake_timeout_s = 10.0;
  double max_connection_idle_s = 300.0;  // 0 = never
  double keepalive_s = 60.0;
  uint32_t max_memory_mb = 1024;
  // Connect streams open at once, all clients together; one more is refused with
  // RESOURCE_EXHAUSTED while the open ones carry on. [Limit: 1..kMaxClientsLimit]
  uint32_t max_clients = 1000;
  double max_updates_per_s = 0.0;      // per Connect stream; 0 = unlimited
  double definitions_poll_s = 0.0;     // reload changed selection trees this often; 0 = off
  PerceptionConfig perception;         // global perception tuning ("perception" object)
  std::string long_actions;            // long action definitions (JSON file); "" = none
  std::string influences;              // influences and their actions (JSON file); "" = none
  HibernationConfig hibernation;       // "hibernation": { "enabled": true, "quiet_s": 30 }
  std::string goap_dir;                // GOAP domains (JSON); "" = no planners
  std::string goap_statistics_dir;     // planner statistics, loaded at start, saved at exit
  uint32_t max_plans_per_tick = 256;   // planner searches per tick
  std::string debug_listen;            // debug page address (HTTP, "" = off); beyond
                                       // loopback only with auth_token (then required)
  // "world_bounds_m": { "half_extent": 100000, "min_z": -10000, "max_z": 10000 }: positions
  // outside x/y in +-half_extent or z in min_z..max_z are refused (world/limits.h).
  WorldBounds world_bounds;
  WatchdogConfig watchdog;             // "watchdog": { "warn_budgets": 5, "shutdown_limit_s": 5 }
  // "tick": { "threads": 2 }: threads of the tick's per-agent phases (the tick thread
  // included); 1 = the tick thread alone. 0 (the key absent) = one per hardware thread.
  // [Limit: 1..256 when given]
  uint32_t tick_threads = 0;
  // "tick": { "lod": { "near_m": 60, "far_period_ticks": 4 } }: awake agents with no player
  // within near_m run their perception, selection and behavior one tick in
  // far_period_ticks (core/sim/detail_tiers.h). Off without the key.
  DetailConfig detail;
  SnapshotConfig snapshot;             // "snapshot": { "dir": ..., "interval_s": 60, "keep": 3 }
  ClusterConfig cluster;               // "cluster": places leased in Redis (cluster_config.h)

  std::string source = "(defaults)";   // where this came from, for messages
};

// Reads `path` into `config` (keys absent from the file keep their defaults). Relative
// paths inside the file (archetypes_dir, world) are resolved against the file's directory.
// Returns false with every problem in `errors`, each naming the file and key.
bool loadConfigFile(const std::string& path, DaemonConfig& config, std::vector<std::string>& errors);
// Same, from JSON text; `base_dir` resolves relative paths.
bool parseConfig(const std::string& name, const std::string& text, const std::string& base_dir,
                 DaemonConfig& config, std::vector<std::string>& errors);

}  // namespace npc
