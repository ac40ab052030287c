#include "debug/debug_api.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <cmath>
#include <optional>

#include <nlohmann/json.hpp>

#include "debug/event_recorder.h"
#include "debug/health_history.h"
#include "debug/web_assets.h"
#include "sim/simulation.h"
#include "stats_board.h"

namespace npc {

namespace {

constexpr uint32_t kMaxWorldAgents = 20000;
constexpr size_t kMaxEvents = 2000;

HttpResponse jsonError(int status, const std::string& message) {
  return {status, "application/json", nlohmann::json{{"error", message}}.dump()};
}

HttpResponse fromStatus(const Status& s, const std::string& json) {
  switch (s.code()) {
    case StatusCode::kOk: return {200, "application/json", json};
    case StatusCode::kInvalidArgument: return jsonError(400, s.message());
    case StatusCode::kNotFound: return jsonError(404, s.message());
    case StatusCode::kPermissionDenied: return jsonError(403, s.message());
    case StatusCode::kFailedPrecondition:
    case StatusCode::kAlreadyExists: return jsonError(409, s.message());
    case StatusCode::kResourceExhausted:
    case StatusCode::kUnavailable: return jsonError(503, s.message());
  }
  return jsonError(500, s.message());
}

// Reads query parameter `name` as an unsigned integer; absent: nullopt, no error.
std::optional<uint64_t> unsignedParam(const HttpRequest& r, const std::string& name,
                                      std::string& error) {
  auto it = r.query.find(name);
  if (it == r.query.end() || it->second.empty()) return std::nullopt;
  uint64_t value = 0;
  const char* end = it->second.data() + it->second.size();
  auto [ptr, ec] = std::from_chars(it->second.data(), end, value);
  if (ec != std::errc() || ptr != end) {
    error = "parameter " + name + ": expected an unsigned integer, got \"" + it->second + "\"";
    return std::nullopt;
  }
  return value;
}

// The same, required: absent gives "parameter id: required (an agent id)".
std::optional<uint64_t> requiredIdParam(const HttpRequest& r, const std::string& name,
                                        const std::string& what, std::string& error) {
  const auto id = unsignedParam(r, name, error);
  if (!id && error.empty()) error = "parameter " + name + ": required (" + what + ")";
  return id;
}

std::optional<double> numberParam(const HttpRequest& r, const std::string& name,
                                  std::string& error) {
  auto it = r.query.find(name);
  if (it == r.query.end() || it->second.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(it->second.c_str(), &end);
  if (end != it->second.c_str() + it->second.size() || !std::isfinite(value)) {
    error = "parameter " + name + ": expected a finite number, got \"" + it->second + "\"";
    return std::nullopt;
  }
  return value;
}

// The reply of a command answering with JSON, as an HTTP answer.
std::function<void(const Status&, const std::string&)> jsonReply(HttpResponder respond) {
  return [respond = std::move(respond)](const Status& s, const std::string& json) {
    respond(fromStatus(s, json));
  };
}

void submitOr503(Simulation& sim, Command command, const HttpResponder& respond) {
  if (!sim.submit(std::move(command))) {
    respond(jsonError(503, "the simulation's command queue is full; retry later"));
  }
}

}  // namespace

DebugApi::DebugApi(Simulation& sim, const StatsBoard& stats, const EventRecorder& events,
                   const HealthHistory& health, AccessControl access)
    : sim_(sim), stats_(stats), events_(events), health_(health), access_(std::move(access)) {}

const ClientCredential* DebugApi::caller(const HttpRequest& request) const {
  constexpr std::string_view kBearer = "Bearer ";
  const std::string_view header = request.authorization;
  if (header.substr(0, kBearer.size()) == kBearer) {
    if (const ClientCredential* c = access_.identifyToken(header.substr(kBearer.size()))) return c;
  }
  auto token = request.query.find("token");
  return access_.identifyToken(token == request.query.end() ? std::string_view() : token->second);
}

void DebugApi::handle(const HttpRequest& request, HttpResponder respond) const {
  const ClientCredential* who = caller(request);
  if (who == nullptr) {
    return respond(jsonError(401, "missing or invalid bearer token (header \"Authorization: "
                                  "Bearer <token>\" or parameter token=<token>)"));
  }
  if (request.method != "GET" && request.method != "HEAD") {
    return respond(jsonError(405, request.method + " " + request.path + ": only GET is served"));
  }
  const std::string& path = request.path;
  if (path == "/api/world") return world(request, std::move(respond));
  if (path == "/api/agent") return agent(request, std::move(respond));
  if (path == "/api/plan") return plan(request, *who, std::move(respond));
  if (path == "/api/stealth") return stealth(request, std::move(respond));
  if (path == "/api/stats") return respond(stats());
  if (path == "/api/health") return respond({200, "application/json", health_.json().dump()});
  if (path == "/api/events") return respond(events(request));
  if (const WebAsset* asset = findWebAsset(path == "/" ? "/index.html" : path)) {
    return respond({200, std::string(asset->content_type), std::string(asset->content)});
  }
  respond(jsonError(404, path + ": no such page"));
}

void DebugApi::world(const HttpRequest& request, HttpResponder respond) const {
  std::string error;
  DescribeWorld query;
  const auto x0 = numberParam(request, "x0", error);
  const auto y0 = numberParam(request, "y0", error);
  const auto x1 = numberParam(request, "x1", error);
  const auto y1 = numberParam(request, "y1", error);
  const auto max = unsignedParam(request, "max", error);
  if (error.empty() && (x0 || y0 || x1 || y1)) {
    if (!(x0 && y0 && x1 && y1)) {
      error = "parameters x0, y0, x1, y1: give all four or none";
    } else if (*x0 > *x1 || *y0 > *y1) {
      error = "parameters x0, y0, x1, y1: need x0 <= x1 and y0 <= y1";
    } else {
      query.viewport = Aabb{{static_cast<float>(*x0), static_cast<float>(*y0), -1e9f},
                            {static_cast<float>(*x1), static_cast<float>(*y1), 1e9f}};
    }
  }
  if (max && *max > kMaxWorldAgents) {
    error = "parameter max: at most " + std::to_string(kMaxWorldAgents);
  }
  if (auto it = request.query.find("navmesh"); it != request.query.end()) {
    if (it->second == "1") {
      query.navmesh = true;
    } else if (it->second != "0") {
      error = "parameter navmesh: expected 0 or 1, got \"" + it->second + "\"";
    }
  }
  if (!error.empty()) return respond(jsonError(400, error));
  if (max) query.max_agents = query.max_entities = static_cast<uint32_t>(*max);
  query.reply = jsonReply(respond);
  submitOr503(sim_, Command{ClientId::kDaemon, 0, std::move(query)}, respond);
}

void DebugApi::agent(const HttpRequest& request, HttpResponder respond) const {
  std::string error;
  const auto id = requiredIdParam(request, "id", "an agent id", error);
  if (!error.empty()) return respond(jsonError(400, error));
  DescribeAgent command{static_cast<EntityId>(*id), jsonReply(respond)};
  submitOr503(sim_, Command{ClientId::kDaemon, 0, std::move(command)}, respond);
}

void DebugApi::plan(const HttpRequest& request, const ClientCredential& caller,
                    HttpResponder respond) const {
  std::string error;
  const auto id = requiredIdParam(request, "id", "an agent id", error);
  GetPlanTrace command;
  if (auto it = request.query.find("trace"); it != request.query.end()) {
    if (caller.role < Role::kAdmin) {
      return respond(
          jsonError(403, AccessControl::denied(caller, "/api/plan with trace").error_message()));
    }
    if (it->second == "on") {
      command.trace = true;
    } else if (it->second == "off") {
      command.trace = false;
    } else {
      error = "parameter trace: expected on or off, got \"" + it->second + "\"";
    }
  }
  if (auto it = request.query.find("planner"); it != request.query.end()) {
    command.planner = it->second;  // an unknown name is the simulation's 404
  }
  if (!error.empty()) return respond(jsonError(400, error));
  command.agent = static_cast<EntityId>(*id);
  command.reply = jsonReply(respond);
  submitOr503(sim_, Command{ClientId::kDaemon, 0, std::move(command)}, respond);
}

void DebugApi::stealth(const HttpRequest& request, HttpResponder respond) const {
  std::string error;
  const auto player = requiredIdParam(request, "player", "a player id", error);
  if (!error.empty()) return respond(jsonError(400, error));
  GetStealth command;
  command.player = static_cast<EntityId>(*player);
  command.reply = [respond, id = *player](const Status& s, EntityId agent, float value) {
    const nlohmann::json j = {{"player", id},
                              {"agent", agent == EntityId::kNone ? nlohmann::json(nullptr)
                                                                 : nlohmann::json(raw(agent))},
                              {"value", value}};
    respond(fromStatus(s, j.dump()));
  };
  submitOr503(sim_, Command{ClientId::kDaemon, 0, std::move(command)}, respond);
}

HttpResponse DebugApi::stats() const {
  const DaemonStats d = stats_.load();
  const SimStats& s = d.sim;
  const nlohmann::json j = {{"tick", s.tick},
                            {"sim_time_s", s.sim_time_s},
                            {"entities", s.entities},
                            {"agents", s.agents},
                            {"agents_awake", s.agents_awake},
                            {"agents_asleep", s.agents_asleep},
                            {"places", s.places},
                            {"places_awake", s.places_awake},
                            {"places_asleep", s.places_asleep},
                            {"obstacles", s.obstacles},
                            {"clients", d.clients},
                            {"clients_dropped", d.clients_dropped},
                            {"ticks_per_second", d.ticks_per_second},
                            {"tick_p50_ms", d.tick_p50_ms},
                            {"tick_p99_ms", d.tick_p99_ms},
                            {"tick_overruns", d.tick_overruns},
                            {"actions_emitted", s.actions_emitted},
                            {"actions_completed", s.actions_completed},
                            {"actions_failed", s.actions_failed},
                            {"errors", s.errors},
                            {"behavior_changes", s.behavior_changes},
                            {"signals_delivered", s.signals_delivered},
                            {"perception_rays", s.perception_rays},
                            {"plans", s.plans},
                            {"plans_failed", s.plans_failed},
                            {"plan_steps_failed", s.plan_steps_failed}};
  return {200, "application/json", j.dump()};
}

HttpResponse DebugApi::events(const HttpRequest& request) const {
  std::string error;
  const auto agent = unsignedParam(request, "agent", error);
  const auto after = unsignedParam(request, "after", error);
  const auto limit = unsignedParam(request, "limit", error);
  if (!error.empty()) return jsonError(400, error);
  auto place = request.query.find("place");
  const nlohmann::json j = events_.query(
      after.value_or(0), static_cast<EntityId>(agent.value_or(0)),
      place == request.query.end() ? std::string() : place->second,
      std::min<size_t>(limit.value_or(500), kMaxEvents));
  return {200, "application/json", j.dump()};
}

}  // namespace npc
