#include "cluster/cluster_config.h"

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"

namespace npc {

namespace {

constexpr const char* kPath = "/cluster";

// "host:port", the port within 1..65535.
bool splitAddress(const std::string& address, std::string& host, int& port) {
  const size_t colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == address.size()) return false;
  const std::string digits = address.substr(colon + 1);
  if (digits.size() > 5 || digits.find_first_not_of("0123456789") != std::string::npos) return false;
  port = std::stoi(digits);
  host = address.substr(0, colon);
  return port >= 1 && port <= 65535;
}

// "balanced" (the schema allows no other string) or a list of place names.
void readPlaces(const nlohmann::json& j, ClusterConfig& out) {
  if (!j.contains("places") || j["places"].is_string()) return;
  out.balanced = false;
  for (const auto& place : j["places"]) out.places.push_back(place.get<std::string>());
}

}  // namespace

// The daemon config's schema has checked the section's keys, types and ranges (node_id's
// length and '|', the key prefix's braces, the places' form); the address needs parsing.
void readClusterConfig(JsonReader& r, const nlohmann::json& j, ClusterConfig& out) {
  out.enabled = true;
  if (auto v = r.string(j, kPath, "redis", false)) {
    if (!splitAddress(*v, out.redis_host, out.redis_port)) {
      r.error("/cluster/redis", "expected host:port, got \"" + *v + "\"");
    }
  }
  readConforming<std::string>(j, {{"node_id", &out.node_id},
                                  {"advertise", &out.advertise},
                                  {"key_prefix", &out.key_prefix}});
  readConforming<double>(j, {{"lease_ttl_s", &out.lease_ttl_s},
                             {"redis_timeout_ms", &out.redis_timeout_ms},
                             {"snapshot_interval_s", &out.snapshot_interval_s}});
  readPlaces(j, out);
}

}  // namespace npc
