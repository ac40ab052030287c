// QueryTPS: a small stand-in for CryEngine's Tactical Point System. Computes one position
// from the agent, its attention target and the world's static obstacles, and stores it in
// the RefPoint or Cover register for Move/Shoot to="RefPoint"|"Cover". Instant: Success
// when a point was found, Failure otherwise (no target, no cover in range).
//
//   <QueryTPS name="CoverFromTarget" register="Cover" [query=] [radius=20] [distance=8]/>
//
// CryEngine's queries are defined elsewhere by name; npcd picks the kind from `query`
// (its own attribute) or infers it: register="Cover" → cover; a name containing "Random"
// or "Search" → random; "Away" → away; "TargetPosition" → target; otherwise near_target.
//   cover        nearest side of a hard-cover obstacle (within radius) facing away from the
//                target, so that the obstacle lies between the point and the target
//   near_target  on the line from the target to the agent, `distance` m from the target
//   away         radius/2 m from the agent, straight away from the target
//   random       a random point within radius of the agent (the agent's seeded stream)
//   target       the target's position
// Every candidate goes through MbtHost::placeOnGround: with a navmesh it is moved to the
// nearest point on the mesh, and dropped when it is off the mesh or the agent cannot walk
// to it (a cover spot inside a fenced yard, a point across a river), so Move to="RefPoint"
// never sends the agent somewhere it cannot go. Cover then takes the nearest cover spot
// that survives, random draws again (up to kRandomDraws times); the other kinds fail.
// Without a navmesh the host leaves candidates where they are.
// A game with a real TPS registers its own QueryTPS node (MbtNodeFactory::set).
#include <cmath>
#include <limits>
#include <string>

#include "mbt/host.h"
#include "mbt/instance.h"
#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"

namespace npc {
namespace {

enum class Query : uint8_t { kCover, kNearTarget, kAway, kRandom, kTarget };

// Draws of a random query before it gives up (each one a nearest-point and a path query).
constexpr int kRandomDraws = 8;

bool contains(std::string_view text, std::string_view part) {
  for (size_t i = 0; i + part.size() <= text.size(); ++i) {
    if (equalsNoCase(text.substr(i, part.size()), part)) return true;
  }
  return false;
}

Vec3 flatDirection(Vec3 from, Vec3 to) {
  Vec3 d{to.x - from.x, to.y - from.y, 0.f};
  const float len = length(d);
  return len > 1e-4f ? d * (1.f / len) : Vec3{1.f, 0.f, 0.f};
}

bool coverFrom(MbtHost& host, float radius, Vec3& out) {
  const MbtAgentView& self = host.agent();
  const Vec3 threat = self.target_position;
  float best = std::numeric_limits<float>::max();
  for (const Obstacle& o : host.obstacles()) {
    if (o.cover != Cover::kHard) continue;
    const Vec3 center = (o.box.min + o.box.max) * 0.5f;
    if (distanceSq(center, self.position) > radius * radius) continue;
    // Step out of the box on the side away from the threat.
    const Vec3 away = flatDirection(threat, center);
    const float half = 0.5f * std::max(o.box.max.x - o.box.min.x, o.box.max.y - o.box.min.y);
    Vec3 point = center + away * (half * 1.5f + 0.6f);
    point.z = self.position.z;
    // Snapped before the hiding test: the spot the agent can stand on must be the hidden one.
    if (!host.placeOnGround(point)) continue;
    Vec3 eye = threat;
    eye.z = point.z + 1.f;
    Vec3 low = point;
    low.z += 1.f;
    if (!segmentEntersBox(eye, low, o.box)) continue;  // the box does not hide the point
    const float d = distanceSq(point, self.position);
    if (d < best) {
      best = d;
      out = point;
    }
  }
  return best != std::numeric_limits<float>::max();
}

class QueryTpsNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto name = xml.name("name", true);
    const auto reg = xml.choice("register", {"RefPoint", "Cover"});
    register_ = reg.value_or(0) == 1 ? MbtRegister::kCover : MbtRegister::kRefPoint;
    radius_ = static_cast<float>(xml.number("radius", false, 0.0).value_or(20.0));
    distance_ = static_cast<float>(xml.number("distance", false, 0.0).value_or(8.0));
    if (const auto q = xml.choice("query", {"cover", "near_target", "away", "random", "target"})) {
      query_ = static_cast<Query>(*q);
    } else if (register_ == MbtRegister::kCover) {
      query_ = Query::kCover;
    } else if (name && (contains(*name, "Random") || contains(*name, "Search"))) {
      query_ = Query::kRandom;
    } else if (name && contains(*name, "Away")) {
      query_ = Query::kAway;
    } else if (name && contains(*name, "TargetPosition")) {
      query_ = Query::kTarget;
    } else {
      query_ = Query::kNearTarget;
    }
    return name.has_value();
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    Vec3 point;
    if (!find(ctx, point)) return MbtStatus::kFailure;
    ctx.instance.setRegister(register_, point);
    return MbtStatus::kSuccess;
  }

 private:
  // The query's point, on the ground the agent can walk to; false when there is none.
  bool find(MbtContext& ctx, Vec3& point) const {
    const MbtAgentView& self = ctx.host.agent();
    const bool has_target = self.target_class != MbtTargetClass::kNone;
    switch (query_) {
      case Query::kCover:
        return has_target && coverFrom(ctx.host, radius_, point);  // placed per candidate
      case Query::kRandom:
        for (int draw = 0; draw < kRandomDraws; ++draw) {
          point = randomPoint(ctx.instance.rng(), self.position);
          if (ctx.host.placeOnGround(point)) return true;
        }
        return false;
      case Query::kNearTarget:
        point = self.target_position + flatDirection(self.target_position, self.position) * distance_;
        break;
      case Query::kAway:
        point = self.position + flatDirection(self.target_position, self.position) * (radius_ * 0.5f);
        break;
      case Query::kTarget:
        point = self.target_position;
        break;
    }
    return has_target && ctx.host.placeOnGround(point);
  }

  Vec3 randomPoint(Rng& rng, Vec3 around) const {
    const float angle = rng.range(0.f, 6.2831853f);
    const float r = radius_ * static_cast<float>(std::sqrt(rng.uniform()));
    return around + Vec3{std::cos(angle) * r, std::sin(angle) * r, 0.f};
  }

  Query query_ = Query::kNearTarget;
  MbtRegister register_ = MbtRegister::kRefPoint;
  float radius_ = 20.f;
  float distance_ = 8.f;
};

}  // namespace

void registerMbtQueryTpsNode(MbtNodeFactory& factory) { factory.add<QueryTpsNode>("QueryTPS"); }

}  // namespace npc
