// CanReach: "can I walk there?" — melee or ranged, go round or take cover. Instant:
// Success when the agent can walk to the point `to` names (and, with maxPathLength, the
// walk is at most that many metres), Failure otherwise, also when `to` names nothing yet
// (no attention target, no RefPoint).
//
//   <CanReach to="Target" [maxPathLength="30"]/>
//
// `to` takes the point forms of node_target.h (Target, RefPoint, LastOp, Cover,
// InitialPosition, x,y,z); entity:<id> is refused at load: a tree does not know where
// another entity stands. The host answers (MbtHost::walkTo): the simulation walks the
// world's navmesh when it has one (off the mesh or no path: unreachable); without a
// navmesh the ground is open and every point is reachable along the straight line, so
// maxPathLength then compares the straight-line distance.
#include <string>

#include "mbt/host.h"
#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/node_target.h"
#include "mbt/nodes/standard_nodes.h"

namespace npc {
namespace {

class CanReachNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    bool ok = loadTarget(xml);
    if (xml.has("maxPathLength")) {
      const auto max = xml.number("maxPathLength", false, 0.0);
      ok &= max.has_value();
      max_length_m_ = static_cast<float>(max.value_or(0.0));
    }
    return ok;
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    MbtActionParam point;
    const char* why = nullptr;
    if (!resolveMbtNodeTarget(target_, ctx, point, why)) return MbtStatus::kFailure;
    const MbtWalk walk = ctx.host.walkTo(point.position);
    const bool near_enough = max_length_m_ < 0.f || walk.length_m <= max_length_m_;
    return walk.reachable && near_enough ? MbtStatus::kSuccess : MbtStatus::kFailure;
  }

 private:
  bool loadTarget(MbtXmlElement& xml) {
    const auto text = xml.string("to", true);
    if (!text) return false;
    if (!parseMbtNodeTarget(*text, target_)) {
      xml.error("to", "to \"" + std::string(*text) + "\" is not a target (" +
                          std::string(kMbtNodeTargetForms) + ")");
      return false;
    }
    if (target_.source == MbtNodeTarget::Source::kEntity) {
      xml.error("to", "to \"" + std::string(*text) +
                          "\": a tree cannot tell where another entity stands; use Target, "
                          "RefPoint, Cover, InitialPosition or x,y,z");
      return false;
    }
    return true;
  }

  MbtNodeTarget target_;
  float max_length_m_ = -1.f;  // < 0: any length
};

}  // namespace

void registerMbtCanReachNode(MbtNodeFactory& factory) { factory.add<CanReachNode>("CanReach"); }

}  // namespace npc
