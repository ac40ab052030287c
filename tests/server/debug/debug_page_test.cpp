// The debug page served by a whole in-process daemon on the demo world: its routes, their
// errors, the bearer token and the loopback rule.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "daemon.h"
#include "../daemon_test_support.h"

using namespace npc;
using namespace npc::test;
using namespace std::chrono_literals;

namespace {

DaemonConfig demoConfig() {
  DaemonConfig c = demoDaemonConfig();
  c.metrics_listen.clear();
  c.debug_listen = "127.0.0.1:0";
  return c;
}

struct Response {
  int status = 0;
  std::string head;
  std::string body;
  nlohmann::json json() const { return nlohmann::json::parse(body); }
};

Response get(int port, const std::string& target, const std::string& headers = "") {
  const std::string raw = httpGet(port, target, headers);
  Response r;
  const size_t split = raw.find("\r\n\r\n");
  r.head = raw.substr(0, split);
  r.body = split == std::string::npos ? "" : raw.substr(split + 4);
  if (raw.size() > 12) r.status = std::stoi(raw.substr(9, 3));
  return r;
}

}  // namespace

TEST_CASE("The debug page serves the page and the demo world's data", "[daemon][debug]") {
  Daemon daemon(demoConfig());
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  const int port = daemon.debugPort();
  REQUIRE(port > 0);
  REQUIRE(waitFor([&] { return daemon.stats().load().sim.tick >= 5; }));

  SECTION("Should serve the page built into the binary") {
    const Response page = get(port, "/");
    REQUIRE(page.status == 200);
    REQUIRE_THAT(page.head, Catch::Contains("Content-Type: text/html"));
    REQUIRE_THAT(page.body, Catch::Contains("<canvas id=\"map\">"));
    const Response script = get(port, "/app.js");
    REQUIRE(script.status == 200);
    REQUIRE_THAT(script.head, Catch::Contains("Content-Type: text/javascript"));
  }
  SECTION("Should map places, obstacles, agents and players") {
    const nlohmann::json w = get(port, "/api/world").json();
    REQUIRE(w["places"].size() == 4);
    REQUIRE(w["places"][0]["name"] == "square");
    REQUIRE(w["obstacles"].size() >= 14);
    REQUIRE(w["players"].size() == 2);
    bool guard = false;
    for (const auto& a : w["agents"]) {
      if (a["id"] == 1201) {
        guard = true;
        REQUIRE(a["archetype"] == "guard");
        REQUIRE(a["place"] == "guard_post");
        REQUIRE(a["behavior"].is_string());
      }
    }
    REQUIRE(guard);
    REQUIRE(w["agents_matched"] == w["agents"].size());
  }
  SECTION("Should keep to the viewport and the agent limit, saying how many matched") {
    const nlohmann::json w = get(port, "/api/world?x0=-10&y0=40&x1=20&y1=60&max=1").json();
    REQUIRE(w["places"].size() == 1);
    REQUIRE(w["places"][0]["name"] == "guard_post");
    REQUIRE(w["agents"].size() == 1);
    REQUIRE(w["agents_matched"].get<int>() >= 2);  // the two guards at the post
  }
  SECTION("Should describe an agent with its behavior tree's nodes") {
    const nlohmann::json a = get(port, "/api/agent?id=1201").json();
    REQUIRE(a["archetype"] == "guard");
    REQUIRE(a["selection"]["tree"] == "Grunt");
    REQUIRE(a["selection"]["path"].size() > 0);
  }
  SECTION("Should outline the navmesh on request") {
    const nlohmann::json plain = get(port, "/api/world").json();
    REQUIRE_FALSE(plain.contains("navmesh"));
    const nlohmann::json w = get(port, "/api/world?navmesh=1").json();
    REQUIRE(w["navmesh"]["polygons"].size() > 10);  // the demo village's mesh
    REQUIRE(w["navmesh"]["matched"] == w["navmesh"]["polygons"].size());
    REQUIRE(w["navmesh"]["polygons"][0][0].size() == 3);
    const nlohmann::json square = get(port, "/api/world?navmesh=1&x0=-20&y0=-20&x1=20&y1=20").json();
    REQUIRE(square["navmesh"]["matched"] < w["navmesh"]["matched"]);
    REQUIRE(get(port, "/api/world?navmesh=yes").json()["error"] ==
            "parameter navmesh: expected 0 or 1, got \"yes\"");
  }
  SECTION("Should answer the planner monitor and the stats") {
    REQUIRE(get(port, "/api/plan?id=1501&trace=on").json()["traced"] == true);
    // The skirmisher's two planners, one at a time by name (the first without one).
    REQUIRE(get(port, "/api/plan?id=1503&planner=attack").json()["planner"]["name"] == "attack");
    REQUIRE(get(port, "/api/plan?id=1503").json()["planner"]["name"] == "footwork");
    const Response helm = get(port, "/api/plan?id=1503&planner=helm");
    REQUIRE(helm.status == 404);
    REQUIRE(helm.json()["error"] == "planner: archetype \"skirmisher\" has no planner \"helm\"");
    const nlohmann::json s = get(port, "/api/stats").json();
    REQUIRE(s["agents"].get<int>() > 10);
    REQUIRE(s.contains("plans"));
  }
  SECTION("Should record events and filter them by agent") {
    REQUIRE(waitFor([&] { return get(port, "/api/events?agent=1001").json()["events"].size() > 0; }));
    const nlohmann::json events = get(port, "/api/events?agent=1001").json();
    for (const auto& e : events["events"]) {
      REQUIRE((e["agent"] == 1001 || e["subject"] == 1001));
    }
    REQUIRE(get(port, "/api/events?limit=3").json()["events"].size() == 3);
  }
  SECTION("Should give a player's stealth meter and refuse a non-player") {
    const nlohmann::json m = get(port, "/api/stealth?player=1").json();
    REQUIRE(m["player"] == 1);
    REQUIRE(m["value"].get<double>() >= 0.0);
    REQUIRE(m["value"].get<double>() <= 10.0);
    const Response npc = get(port, "/api/stealth?player=1201");
    REQUIRE(npc.status == 404);
    REQUIRE(npc.json()["error"] == "entity 1201: no such player");
  }
  SECTION("Should refuse bad parameters, naming them") {
    const Response bad = get(port, "/api/agent?id=abc");
    REQUIRE(bad.status == 400);
    REQUIRE(bad.json()["error"] == "parameter id: expected an unsigned integer, got \"abc\"");
    REQUIRE(get(port, "/api/agent").json()["error"] == "parameter id: required (an agent id)");
    REQUIRE(get(port, "/api/world?x0=1").json()["error"] ==
            "parameters x0, y0, x1, y1: give all four or none");
    REQUIRE(get(port, "/api/plan?id=1501&trace=maybe").json()["error"] ==
            "parameter trace: expected on or off, got \"maybe\"");
  }
  SECTION("Should answer unknown agents and pages with 404 and planless agents with 409") {
    const Response missing = get(port, "/api/agent?id=999999");
    REQUIRE(missing.status == 404);
    REQUIRE(missing.json()["error"] == "entity 999999: no such agent");
    REQUIRE(get(port, "/nope.html").status == 404);
    REQUIRE(get(port, "/api/plan?id=1201").status == 409);
  }
  SECTION("Should collect one health sample per second") {
    REQUIRE(waitFor([&] { return get(port, "/api/health").json()["samples"].size() >= 1; }, 3000ms));
    const nlohmann::json sample = get(port, "/api/health").json()["samples"][0];
    REQUIRE(sample["ticks"].get<int>() > 0);
    REQUIRE(sample["agents_awake"].get<int>() > 0);
  }
  daemon.shutdown();
}

TEST_CASE("The debug page needs the bearer token when auth is on", "[daemon][debug][auth]") {
  DaemonConfig c = demoConfig();
  c.auth_token = "s3cret";
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  const int port = daemon.debugPort();
  SECTION("Should refuse a request without it") {
    const Response r = get(port, "/api/stats");
    REQUIRE(r.status == 401);
    REQUIRE(r.json()["error"] ==
            "missing or invalid bearer token (header \"Authorization: Bearer <token>\" or "
            "parameter token=<token>)");
    REQUIRE(get(port, "/").status == 401);
    REQUIRE(get(port, "/api/stats", "Authorization: Bearer wrong\r\n").status == 401);
  }
  SECTION("Should accept it as a header or a URL parameter") {
    REQUIRE(get(port, "/api/stats", "Authorization: Bearer s3cret\r\n").status == 200);
    REQUIRE(get(port, "/?token=s3cret").status == 200);
  }
  daemon.shutdown();
}

TEST_CASE("The debug page takes the clients' tokens with their roles", "[daemon][debug][auth]") {
  DaemonConfig c = demoConfig();
  c.clients = {{"dashboard", "token-o", "", Role::kObserver},
               {"eu-1", "token-g", "", Role::kGame},
               {"ops", "token-x", "", Role::kAdmin}};
  Daemon daemon(c);
  std::vector<std::string> errors;
  REQUIRE(daemon.start(errors));
  const int port = daemon.debugPort();
  REQUIRE(waitFor([&] { return daemon.stats().load().sim.tick >= 5; }));
  SECTION("Should let every role read, as a header or a URL parameter") {
    CHECK(get(port, "/api/stats", "Authorization: Bearer token-o\r\n").status == 200);
    CHECK(get(port, "/?token=token-o").status == 200);
    CHECK(get(port, "/api/plan?id=1501&token=token-g").status == 200);
    CHECK(get(port, "/api/world", "Authorization: Bearer token-x\r\n").status == 200);
    CHECK(get(port, "/api/stats").status == 401);
    CHECK(get(port, "/api/stats?token=token-z").status == 401);
  }
  SECTION("Should let only an admin switch plan tracing") {
    const Response observer = get(port, "/api/plan?id=1501&trace=on&token=token-o");
    CHECK(observer.status == 403);
    CHECK(observer.json()["error"] ==
          "/api/plan with trace: role observer (client \"dashboard\") may not call it");
    const Response game = get(port, "/api/plan?id=1501&trace=off&token=token-g");
    CHECK(game.status == 403);
    CHECK(game.json()["error"] ==
          "/api/plan with trace: role game (client \"eu-1\") may not call it");
    const Response admin = get(port, "/api/plan?id=1501&trace=on&token=token-x");
    CHECK(admin.status == 200);
    CHECK(admin.json()["traced"] == true);
  }
  daemon.shutdown();
}

TEST_CASE("The debug page stays on loopback unless auth is on", "[daemon][debug][auth]") {
  DaemonConfig c = demoConfig();
  c.debug_listen = "0.0.0.0:0";
  SECTION("Should refuse to start without a token, naming the address") {
    Daemon daemon(c);
    std::vector<std::string> errors;
    REQUIRE_FALSE(daemon.start(errors));
    REQUIRE(errors == std::vector<std::string>{
                          "debug_listen 0.0.0.0:0 beyond loopback needs auth_token (config), "
                          "NPCD_AUTH_TOKEN (env) or clients"});
  }
  SECTION("Should start beyond loopback with client credentials alone") {
    DaemonConfig with_clients = c;
    with_clients.listen = "127.0.0.1:0";
    with_clients.clients = {{"ops", "token-x", "", Role::kAdmin}};
    Daemon daemon(with_clients);
    std::vector<std::string> errors;
    REQUIRE(daemon.start(errors));
    CHECK(get(daemon.debugPort(), "/api/stats", "Authorization: Bearer token-x\r\n").status == 200);
    daemon.shutdown();
  }
  SECTION("Should be off by default") {
    DaemonConfig off = demoConfig();
    off.debug_listen.clear();
    Daemon daemon(off);
    std::vector<std::string> errors;
    REQUIRE(daemon.start(errors));
    REQUIRE(daemon.debugPort() == 0);
    daemon.shutdown();
  }
}
