// Wait, Timeout, WaitForEvent, Fail, Halt, Log, Breakpoint, SendEvent, SendTransitionEvent,
// Signal (alias SendSignal), SendTransitionSignal (BT-REFERENCE.md §2a–2b) and
// SetBehaviorVariable (seed 001).
#include <cstdint>
#include <limits>
#include <string>

#include "mbt/host.h"
#include "mbt/instance.h"
#include "mbt/library.h"
#include "mbt/load_context.h"
#include "mbt/log_router.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"

namespace npc {
namespace {

constexpr double kForever = std::numeric_limits<double>::infinity();

struct TimerData {
  double end_s = 0.0;
};

std::string secondsLeft(double end_s, double now_s) {
  if (end_s == kForever) return "forever";
  return std::to_string(end_s - now_s) + " s left";
}

// Wait duration [variation]: Running for duration + a random 0..variation seconds (drawn
// from the agent's stream), then Success. A negative duration waits forever (CryEngine
// files write duration="-1" for that).
// Timeout duration: the same timer, but ends in Failure; a leaf, used beside other
// branches in a Parallel to bound them.
class TimerNode : public MbtNodeT<TimerData> {
 public:
  explicit TimerNode(bool fails) : fails_(fails) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto duration = xml.number("duration", true);
    if (!fails_) variation_ = xml.number("variation", false, 0.0).value_or(0.0);
    duration_ = duration.value_or(0.0);
    return duration.has_value();
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = secondsLeft(data(ctx).end_s, ctx.now_s);
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    double end = duration_ < 0.0 ? kForever : ctx.now_s + duration_;
    if (variation_ > 0.0) end += ctx.instance.rng().uniform() * variation_;
    data(ctx).end_s = end;
  }
  MbtStatus update(MbtContext& ctx) const override {
    if (ctx.now_s < data(ctx).end_s) return MbtStatus::kRunning;
    return fails_ ? MbtStatus::kFailure : MbtStatus::kSuccess;
  }

 private:
  bool fails_;
  double duration_ = 0.0;
  double variation_ = 0.0;
};

struct EventData {
  bool received = false;
};

// Running until event `name` arrives while the node runs; then `result` (Success, or
// Failure — Lumberyard's undocumented attribute).
class WaitForEventNode : public MbtNodeT<EventData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto name = xml.name("name", true);
    const auto result = xml.choice("result", {"Success", "Failure"});
    if (result) result_ = *result == 0 ? MbtStatus::kSuccess : MbtStatus::kFailure;
    if (name) {
      event_ = ctx.signal(*name);
      name_ = *name;
    }
    return name.has_value();
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = "waiting for " + name_;
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    return data(ctx).received ? result_ : MbtStatus::kRunning;
  }
  void handleEvent(MbtContext& ctx, SignalId event) const override {
    if (event == event_) data(ctx).received = true;
  }

 private:
  SignalId event_ = SignalId::kNone;
  std::string name_;
  MbtStatus result_ = MbtStatus::kSuccess;
};

// Fail → Failure; Halt → Running forever.
class ConstantNode : public MbtNode {
 public:
  explicit ConstantNode(MbtStatus status) : status_(status) {}

 protected:
  MbtStatus update(MbtContext&) const override { return status_; }

 private:
  MbtStatus status_;
};

// Log message: appends the message to the agent's log → Success. Breakpoint: logs
// "breakpoint" (a server cannot stop in a debugger) → Success.
class LogNode : public MbtNode {
 public:
  explicit LogNode(bool breakpoint) : breakpoint_(breakpoint) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    if (breakpoint_) {
      message_ = "breakpoint";
      return true;
    }
    const auto message = xml.string("message", true);
    message_ = message.value_or("");
    return message.has_value();
  }
  std::string_view logMessage() const override { return message_; }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    MbtLogRouter::nodeText(ctx, *this, breakpoint_ ? MbtLogKind::kBreakpoint : MbtLogKind::kMessage);
    return MbtStatus::kSuccess;
  }

 private:
  bool breakpoint_;
  std::string message_;
};

// SendEvent name: dispatches the event to this agent's own tree immediately (signal
// variables, timestamps, running nodes — as Lumberyard's code does) → Success.
// SendTransitionEvent: the same on entry, then Running until the state machine it
// triggers leaves this node.
class SendEventNode : public MbtNode {
 public:
  explicit SendEventNode(bool transition) : transition_(transition) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto name = xml.name("name", true);
    if (name) event_ = ctx.signal(*name);
    return name.has_value();
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    if (transition_) ctx.instance.dispatchEvent(event_, ctx);
  }
  MbtStatus update(MbtContext& ctx) const override {
    if (transition_) return MbtStatus::kRunning;
    ctx.instance.dispatchEvent(event_, ctx);
    return MbtStatus::kSuccess;
  }

 private:
  bool transition_;
  SignalId event_ = SignalId::kNone;
};

// Signal name [filter=Sender|Group|GroupExcludingSender]: sends a signal into the world
// through the host → Success. It comes back to trees as an event (on a later tick).
// SendTransitionSignal: the same on entry, then Running (waits for the transition).
class SignalNode : public MbtNode {
 public:
  explicit SignalNode(bool transition) : transition_(transition) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto name = xml.name("name", true);
    const auto filter = xml.choice("filter", {"Sender", "Group", "GroupExcludingSender"});
    if (filter) scope_ = static_cast<MbtSignalScope>(*filter);
    if (name) signal_ = ctx.signal(*name);
    return name.has_value();
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    if (transition_) ctx.host.sendSignal(signal_, scope_);
  }
  MbtStatus update(MbtContext& ctx) const override {
    if (transition_) return MbtStatus::kRunning;
    ctx.host.sendSignal(signal_, scope_);
    return MbtStatus::kSuccess;
  }

 private:
  bool transition_;
  SignalId signal_ = SignalId::kNone;
  MbtSignalScope scope_ = MbtSignalScope::kSelf;
};

// SetBehaviorVariable name value: sets one of the agent's behavior selection variables
// through the host (seed 001: a behavior may change its own selection) → Success; Failure,
// logged, when the agent's selection tree declares no such variable.
class SetBehaviorVariableNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto name = xml.name("name", true);
    const auto value = xml.boolean("value");
    if (name) name_ = *name;
    value_ = value.value_or(true);
    return name.has_value() && (value.has_value() || !xml.has("value"));
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    if (ctx.host.setSelectionVariable(name_, value_)) return MbtStatus::kSuccess;
    MbtErrorReporter(*this, ctx).logError("the agent's selection tree declares no variable ",
                                          name_);
    return MbtStatus::kFailure;
  }

 private:
  std::string name_;
  bool value_ = true;
};

}  // namespace

void registerMbtLeafNodes(MbtNodeFactory& factory) {
  factory.add("Wait", [] { return std::make_unique<TimerNode>(false); });
  factory.add("Timeout", [] { return std::make_unique<TimerNode>(true); });
  factory.add<WaitForEventNode>("WaitForEvent");
  factory.add("Fail", [] { return std::make_unique<ConstantNode>(MbtStatus::kFailure); });
  factory.add("Halt", [] { return std::make_unique<ConstantNode>(MbtStatus::kRunning); });
  factory.add("Log", [] { return std::make_unique<LogNode>(false); });
  factory.add("Breakpoint", [] { return std::make_unique<LogNode>(true); });
  factory.add("SendEvent", [] { return std::make_unique<SendEventNode>(false); });
  factory.add("SendTransitionEvent", [] { return std::make_unique<SendEventNode>(true); });
  factory.add("Signal", [] { return std::make_unique<SignalNode>(false); });
  factory.add("SendSignal", [] { return std::make_unique<SignalNode>(false); });
  factory.add("SendTransitionSignal", [] { return std::make_unique<SignalNode>(true); });
  factory.add<SetBehaviorVariableNode>("SetBehaviorVariable");
}

}  // namespace npc
