#include "intent/action_impl.h"

#include <algorithm>
#include <cmath>

#include "world/limits.h"

namespace npc {

namespace {

struct WaitState {
  double start_s;
  double end_s;
};

}  // namespace

WaitAction::WaitAction(NameTable<ActionNameId>& names)
    : ms_(names.intern("ms")), s_(names.intern("s")), min_(names.intern("min")),
      h_(names.intern("h")), empty_(names.intern("")) {}

double WaitAction::secondsPer(ActionNameId unit) const {
  if (unit == s_ || unit == ActionNameId::kNone || unit == empty_) return 1.0;
  if (unit == min_) return 60.0;
  if (unit == h_) return 3600.0;
  if (unit == ms_) return 0.001;
  return 0.0;
}

std::string WaitAction::checkArgs(std::span<const ActionArg> args,
                                  const NameTable<ActionNameId>& names) const {
  const ActionArg* delay = nthParam(args, ArgType::kValue);
  if (!delay) return "params: Wait needs a duration (a number with unit ms, s, min or h)";
  const std::string field = "params[" + std::to_string(delay - args.data()) + "]";
  const double scale = secondsPer(delay->unit);
  if (scale == 0.0) {
    return field + ".unit: \"" + names.name(delay->unit) +
           "\" is not a unit of time (ms, s, min or h)";
  }
  const double seconds = delay->value * scale;
  if (!(seconds >= 0.0 && seconds <= kMaxDelayS)) {
    const std::string unit = names.name(delay->unit);
    return field + ".number: must be within 0.." + formatNumber(kMaxDelayS) + " s (got " +
           formatNumber(delay->value) + " " + (unit.empty() ? "s" : unit) + ")";
  }
  return {};
}

bool WaitAction::initialize(ActionContext& ctx, Intention& intention) const {
  const ActionArg* delay = nthParam(intention.args(), ArgType::kValue);
  if (!delay || !std::isfinite(delay->value) || delay->value < 0.0) return false;
  const double scale = secondsPer(delay->unit);
  if (scale == 0.0) return false;
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
