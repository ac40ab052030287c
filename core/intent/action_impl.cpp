#include "intent/action_impl.h"

#include <algorithm>
#include <cmath>

namespace npc {

namespace {

struct WaitState {
  double start_s;
  double end_s;
};

}  // namespace

WaitAction::WaitAction(NameTable& names)
    : ms_(names.intern("ms")), s_(names.intern("s")), min_(names.intern("min")),
      h_(names.intern("h")), empty_(names.intern("")) {}

bool WaitAction::initialize(ActionContext& ctx, Intention& intention) const {
  const ActionArg* delay = nthParam(intention.args(), ArgType::kValue);
  if (!delay || !std::isfinite(delay->value) || delay->value < 0.0) return false;
  double scale;
  if (delay->unit == s_ || delay->unit == NameTable::kNone || delay->unit == empty_) {
    scale = 1.0;
  } else if (delay->unit == min_) {
    scale = 60.0;
  } else if (delay->unit == h_) {
    scale = 3600.0;
  } else if (delay->unit == ms_) {
    scale = 0.001;
  } else {
    return false;
  }
  intention.state.set(WaitState{ctx.now_s, ctx.now_s + delay->value * scale});
  return true;
}

PerformResult WaitAction::perform(ActionContext& ctx, Intention& intention) const {
  const WaitState s = intention.state.get<WaitState>();
  const double remaining = s.end_s - ctx.now_s;
  if (remaining <= static_cast<double>(ctx.time_left_s)) {
    return PerformResult::completed(static_cast<float>(std::max(0.0, remaining)));
  }
  const double total = s.end_s - s.start_s;
  const double waited = ctx.now_s + ctx.time_left_s - s.start_s;
  return PerformResult::continuing(static_cast<float>(std::clamp(waited / total, 0.0, 1.0)));
}

}  // namespace npc
