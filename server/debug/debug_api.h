// DebugApi: what the debug page asks the daemon, as HTTP routes. Static files (the page
// itself, built into the binary) and JSON:
//   GET /api/world?x0=&y0=&x1=&y1=&max=&navmesh=1
//                                          DescribeWorld: places, obstacles, agents, players
//                                          (within the x/y viewport if given; max agents,
//                                          default 2000, at most 20000; navmesh=1: and the
//                                          navmesh's polygons)
//   GET /api/agent?id=                     DescribeAgent (as GetAgent)
//   GET /api/plan?id=&planner=&trace=on|off  GetPlanTrace of one of the agent's planners
//                                          (default its first; trace switches tracing)
//   GET /api/stealth?player=               GetStealthMeter: the player's meter (0..10) and
//                                          the agent most aware of them
//   GET /api/stats                         GetStats's figures plus planner counters
//   GET /api/health                        one sample per second over the last minutes
//   GET /api/events?agent=&place=&after=&limit=   the recorder (EventRecorder::query)
// Simulation data goes through the admin RPCs' path: a command queued with submit() and
// answered by the tick thread, so HTTP threads never touch the simulation.
//
// With credentials configured (auth_token, clients) every route needs a token of one of
// them, as "Authorization: Bearer <token>" or as the URL parameter token=<token> (a browser
// opening the page); otherwise 401. Any role may read; switching plan tracing
// (/api/plan's trace=on|off) needs admin, otherwise 403 (AccessControl's roles).
// Errors are JSON {"error": "..."} with 400 (bad parameter, naming it), 401, 404 (unknown
// agent, player or route), 409 (no planner...), 503 (command queue full).
#pragma once

#include "access_control.h"
#include "debug/http_server.h"

namespace npc {

class EventRecorder;
class HealthHistory;
class Simulation;
class StatsBoard;

class DebugApi {
 public:
  DebugApi(Simulation& sim, const StatsBoard& stats, const EventRecorder& events,
           const HealthHistory& health, AccessControl access);

  // HttpHandler: any HTTP thread.
  void handle(const HttpRequest& request, HttpResponder respond) const;

 private:
  void world(const HttpRequest& request, HttpResponder respond) const;
  void agent(const HttpRequest& request, HttpResponder respond) const;
  void plan(const HttpRequest& request, const ClientCredential& caller,
            HttpResponder respond) const;
  void stealth(const HttpRequest& request, HttpResponder respond) const;
  HttpResponse stats() const;
  // Who sent `request` (its bearer header or token parameter), or null.
  const ClientCredential* caller(const HttpRequest& request) const;
  HttpResponse events(const HttpRequest& request) const;

  Simulation& sim_;
  const StatsBoard& stats_;
  const EventRecorder& events_;
  const HealthHistory& health_;
  AccessControl access_;
};

}  // namespace npc
