// Plan and ExecutePlan: behavior trees driving the GOAP planner (seed 003 through the host).
//
//   <Sequence>
//     <Plan goal="StartFire" />   plans now: Success with a plan (or the goal already holds)
//     <ExecutePlan />             runs its steps as intentions: Success when all succeeded,
//   </Sequence>                   Failure when one failed or the facts broke the plan
//
// The planner, the agent's facts and the plan itself live in the host (the simulation), so
// these nodes keep no per-agent state: a tree that loops Plan / ExecutePlan replans after
// every failure, and the planner's own cooldowns and reuse keep that cheap. Without
// `goal`, <Plan> lets the planner's goal selection pick (priority, relevance).
// An agent with several planners (an archetype's "planners") names one on both nodes:
//   <Plan planner="gunnery" goal="Broadside" />  <ExecutePlan planner="gunnery" />
// without `planner` they drive its first.
#include <string>

#include "mbt/host.h"
#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"

namespace npc {
namespace {

MbtStatus toStatus(MbtPlanState state) {
  switch (state) {
    case MbtPlanState::kRunning: return MbtStatus::kRunning;
    case MbtPlanState::kSucceeded: return MbtStatus::kSuccess;
    case MbtPlanState::kFailed: return MbtStatus::kFailure;
  }
  return MbtStatus::kFailure;
}

class PlanNode : public MbtNode {
 public:
  bool needsTickThread() const override { return true; }  // the agent's planners
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    if (auto goal = xml.name("goal", false)) goal_ = *goal;
    if (auto planner = xml.name("planner", false)) planner_ = *planner;
    return true;
  }
  void debugText(const MbtContext&, std::string& out) const override {
    out = goal_.empty() ? "goal chosen by the planner" : "goal " + goal_;
    if (!planner_.empty()) out += " (planner " + planner_ + ")";
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    return toStatus(ctx.host.requestPlan(planner_, goal_));
  }

 private:
  std::string goal_;
  std::string planner_;
};

class ExecutePlanNode : public MbtNode {
 public:
  bool needsTickThread() const override { return true; }  // the agent's planners
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    if (auto planner = xml.name("planner", false)) planner_ = *planner;
    return true;
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override { return toStatus(ctx.host.executePlan(planner_)); }
  void onTerminate(MbtContext& ctx) const override { ctx.host.stopPlan(planner_); }

 private:
  std::string planner_;
};

}  // namespace

void registerMbtPlanNodes(MbtNodeFactory& factory) {
  factory.add<PlanNode>("Plan");
  factory.add<ExecutePlanNode>("ExecutePlan");
}

}  // namespace npc
