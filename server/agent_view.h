// The typed parts of GetAgent and GetPlanTrace, read from the JSON debug views the tick
// thread builds (Simulation::describeAgent, planTrace). The tick builds one view per call,
// and the typed fields are taken from it, so the two can never disagree; a key the view
// lacks leaves its field at the default.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "npc/v1/npc.pb.h"

namespace npc {

// The replies' typed fields from the JSON text of their view (left empty if it is not JSON).
void addTypedView(const std::string& view, v1::GetAgentResponse& out);
void addTypedView(const std::string& view, v1::GetPlanTraceResponse& out);

void toAgentView(const nlohmann::json& view, v1::AgentView& out);
void toPlanTraceResponse(const nlohmann::json& view, v1::GetPlanTraceResponse& out);

}  // namespace npc
