// "cluster": several npcd nodes share a world by place, each place held by one node through
// a lease in Redis (server/cluster/README.md). Without the section npcd runs alone and holds
// every place.
//   "cluster": { "redis": "127.0.0.1:6379", "node_id": "npcd-a",
//                "advertise": "10.0.0.5:50051", "lease_ttl_s": 10,
//                "places": "balanced" | ["square", "bakery"],
//                "key_prefix": "npcd", "redis_timeout_ms": 500,
//                "snapshot_interval_s": 5 }
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace npc {

class JsonReader;

struct ClusterConfig {
  bool enabled = false;               // the section is present
  std::string redis_host = "127.0.0.1";
  int redis_port = 6379;
  std::string node_id;                // required; unique among the nodes; no '|'
  std::string advertise;              // where clients reach this node ("" = the listen address)
  double lease_ttl_s = 10.0;          // [Limit: 0.3..600]
  // Which places this node claims: every place it is given ("places": [...], static), or
  // unowned places up to its fair share of the world's places among the live nodes
  // ("balanced", the default).
  bool balanced = true;
  std::vector<std::string> places;
  std::string key_prefix = "npcd";
  double redis_timeout_ms = 500.0;    // connect and command timeout [Limit: 10..60000]
  // How often the places held here are written to Redis for their next holder; what they
  // apply in between is in their input streams, kept ten intervals (at least a minute)
  // [Limit: 0.1..3600]. A drain writes them once more.
  double snapshot_interval_s = 5.0;
};

// Reads the "cluster" object at /cluster, once the daemon config has passed its schema
// (config/schema/daemon_config.schema.json); problems are recorded in `r` naming the key.
void readClusterConfig(JsonReader& r, const nlohmann::json& j, ClusterConfig& out);

}  // namespace npc
