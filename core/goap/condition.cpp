#include "goap/condition.h"

namespace npc::goap {

bool holdsAny(const Condition& c, const GoapState& s, const LocationView* view) {
  for (const std::vector<Condition>& alternative : c.any) {
    bool all = true;
    for (const Condition& part : alternative) all = all && holdsPlain(part, s, view);
    if (all) return true;
  }
  return false;
}

}  // namespace npc::goap
