#include "cluster/cluster_config.h"

#include <nlohmann/json.hpp>

#include "base/json_reader.h"

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

void readPlaces(JsonReader& r, const nlohmann::json& j, ClusterConfig& out) {
  if (!j.contains("places")) return;
  const nlohmann::json& places = j["places"];
  if (places.is_string()) {
    if (places.get<std::string>() != "balanced") {
      r.error("/cluster/places", "expected \"balanced\" or a list of place names");
    }
    return;
  }
  if (!r.isArray(places, "/cluster/places")) return;
  out.balanced = false;
  for (size_t i = 0; i < places.size(); ++i) {
    if (!places[i].is_string() || places[i].get<std::string>().empty()) {
      r.error(joinPath("/cluster/places", i), "expected a place name");
      continue;
    }
    out.places.push_back(places[i].get<std::string>());
  }
  if (out.places.empty()) r.error("/cluster/places", "names no place");
}

}  // namespace

void readClusterConfig(JsonReader& r, const nlohmann::json& j, ClusterConfig& out) {
  if (!r.isObject(j, kPath)) return;
  out.enabled = true;
  r.onlyKeys(j, kPath,
             {"redis", "node_id", "advertise", "lease_ttl_s", "places", "key_prefix",
              "redis_timeout_ms", "snapshot_interval_s"});
  if (auto v = r.string(j, kPath, "redis", false)) {
    if (!splitAddress(*v, out.redis_host, out.redis_port)) {
      r.error("/cluster/redis", "expected host:port, got \"" + *v + "\"");
    }
  }
  if (auto v = r.string(j, kPath, "node_id", true)) {
    out.node_id = *v;
    if (v->empty() || v->size() > 256 || v->find('|') != std::string::npos) {
      r.error("/cluster/node_id", "must be 1 to 256 bytes without '|'");
    }
  }
  if (auto v = r.string(j, kPath, "advertise", false)) {
    out.advertise = *v;
    if (v->find('|') != std::string::npos) r.error("/cluster/advertise", "must not contain '|'");
  }
  if (auto v = r.number(j, kPath, "lease_ttl_s", false)) {
    out.lease_ttl_s = *v;
    if (!(*v >= 0.3 && *v <= 600)) r.error("/cluster/lease_ttl_s", "must be within [0.3, 600]");
  }
  if (auto v = r.string(j, kPath, "key_prefix", false)) {
    out.key_prefix = *v;
    if (v->empty() || v->find_first_of("{}") != std::string::npos) {
      r.error("/cluster/key_prefix", "must be non-empty, without braces");
    }
  }
  if (auto v = r.number(j, kPath, "redis_timeout_ms", false)) {
    out.redis_timeout_ms = *v;
    if (!(*v >= 10 && *v <= 60000)) r.error("/cluster/redis_timeout_ms", "must be within [10, 60000]");
  }
  if (auto v = r.number(j, kPath, "snapshot_interval_s", false)) {
    out.snapshot_interval_s = *v;
    if (!(*v >= 0.1 && *v <= 3600)) {
      r.error("/cluster/snapshot_interval_s", "must be within [0.1, 3600]");
    }
  }
  readPlaces(r, j, out);
}

}  // namespace npc
