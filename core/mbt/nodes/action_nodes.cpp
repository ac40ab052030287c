// Action nodes: Move, Shoot, Animate, Communicate, Look, Aim, ... and the generic <Action>
// (BT-REFERENCE.md §2b). Each becomes a request to MbtHost::startAction (an intention the
// game client performs) and returns Running until the host reports success or failure —
// or its timeout passes — then Success / Failure. Interrupted, it cancels the action.
// Fire-and-forget actions (SetAlertness, Stance, Communicate waitUntilFinished="0", ...)
// succeed as soon as they started.
//
// Parameters: every attribute present becomes a typed parameter named after it, in the
// order of the table below (text values interned, numbers with their unit, booleans as
// 0/1). Target attributes (to=, at=) take the forms of node_target.h (Target, RefPoint,
// Cover, InitialPosition, entity:<id>, x,y,z); a target that is not available fails the node.
#include <array>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include "mbt/host.h"
#include "mbt/instance.h"
#include "mbt/library.h"
#include "mbt/load_context.h"
#include "mbt/log_router.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/node_target.h"
#include "mbt/nodes/standard_nodes.h"

namespace npc {
namespace {

constexpr double kNever = std::numeric_limits<double>::infinity();

enum class Kind : uint8_t { kText, kNumber, kBool, kTarget, kSecondsOrKeyword };

struct AttrSpec {
  std::string_view name;
  Kind kind = Kind::kText;
  std::string_view unit;
  bool required = false;
  std::string_view keyword;  // kSecondsOrKeyword: this word means -1 (forever)
};

struct ActionSpec {
  std::string_view type;
  bool waits = true;
  std::vector<AttrSpec> attributes;
  std::string_view wait_attribute;     // boolean switching between waiting and not
  bool wait_default = true;
  std::string_view timeout_attribute;  // seconds: also the node's own timeout
  double default_timeout_s = 0.0;
  bool bubble = false;                 // Bubble: message is logged (log="1")
};

AttrSpec text(std::string_view name, bool required = false) {
  return {name, Kind::kText, "", required, ""};
}
AttrSpec number(std::string_view name, std::string_view unit, bool required = false) {
  return {name, Kind::kNumber, unit, required, ""};
}
AttrSpec flag(std::string_view name) { return {name, Kind::kBool, "", false, ""}; }
AttrSpec target(std::string_view name) { return {name, Kind::kTarget, "", true, ""}; }
AttrSpec secondsOr(std::string_view name, std::string_view keyword) {
  return {name, Kind::kSecondsOrKeyword, "s", false, keyword};
}

ActionSpec action(std::string_view type, bool waits, std::vector<AttrSpec> attributes) {
  ActionSpec spec;
  spec.type = type;
  spec.waits = waits;
  spec.attributes = std::move(attributes);
  return spec;
}

ActionSpec withTimeout(ActionSpec spec, double default_s = 0.0) {
  spec.attributes.push_back(number("timeout", "s"));
  spec.timeout_attribute = "timeout";
  spec.default_timeout_s = default_s;
  return spec;
}

ActionSpec withWaitSwitch(ActionSpec spec, std::string_view attribute) {
  spec.wait_attribute = attribute;
  return spec;
}

const std::vector<ActionSpec>& actionSpecs() {
  static const std::vector<ActionSpec> specs = [] {
    std::vector<ActionSpec> s;
    s.push_back(withTimeout(action(
        "Move", true,
        {target("to"), text("speed"), text("stance"), text("bodyOrientation"),
         number("stopWithinDistance", "m"), number("stopDistanceVariation", "m"),
         text("fireMode"), flag("avoidDangers"), flag("avoidGroupMates"),
         flag("considerActorsAsPathObstacles"), number("lengthToTrimFromThePathEnd", "m"),
         flag("strafe"), flag("glanceInMovementDirection"),
         flag("turnTowardsMovementDirectionBeforeMoving"), flag("moveToCover")})));
    s.push_back(withTimeout(action("Animate", true,
                                   {text("name", true), flag("urgent"), flag("loop"),
                                    flag("setBodyDirectionTowardsAttentionTarget")})));
    s.push_back(withWaitSwitch(
        withTimeout(action("Communicate", true,
                           {text("name", true), text("channel"), number("expiry", "s"),
                            number("minSilence", "s"), flag("ignoreSound"), flag("ignoreAnim")}),
                    8.0),
        "waitUntilFinished"));
    s.push_back(withTimeout(action(
        "Shoot", true,
        {target("at"), text("fireMode"), text("stance"), number("duration", "s"),
         number("aimObstructedTimeout", "s"), text("stanceToUseIfSlopeIsTooSteep"),
         number("allowedSlopeNormalDeviationFromUpInDegrees", "deg")})));
    s.push_back(withTimeout(action("ShootFromCover", true,
                                   {number("duration", "s"), text("fireMode"),
                                    number("aimObstructedTimeout", "s")})));
    s.push_back(action("AdjustCoverStance", true,
                       {secondsOr("duration", "continuous"), number("variation", "s")}));
    s.push_back(withTimeout(action("ThrowGrenade", true, {text("type")})));
    s.push_back(action("Look", true, {target("at")}));
    s.push_back(action("Aim", true,
                       {target("at"), number("angleThreshold", "deg"),
                        secondsOr("durationOnceWithinThreshold", "forever")}));
    s.push_back(withWaitSwitch(action("StopMovement", true, {flag("waitUntilIdleAnimation")}),
                               "waitUntilStopped"));
    s.push_back(action("LuaBehavior", true, {text("name", true)}));
    s.push_back(action("Stance", false,
                       {text("name", true), text("stanceToUseIfSlopeIsTooSteep"),
                        number("allowedSlopeNormalDeviationFromUpInDegrees", "deg")}));
    s.push_back(action("SetAlertness", false, {number("value", "", true)}));
    s.push_back(action("PullDownThreatLevel", false, {}));
    s.push_back(action("TurnBody", false, {}));
    s.push_back(action("ClearTargets", false, {}));
    ActionSpec bubble = action("Bubble", false,
                               {text("message", true), number("duration", "s"), flag("balloon")});
    bubble.bubble = true;
    s.push_back(bubble);
    return s;
  }();
  return specs;
}

// A target attribute and the index of the parameter it fills.
struct Target : MbtNodeTarget {
  uint8_t param = 0;
};

struct ActionData {
  MbtActionHandle handle = MbtActionHandle::kNone;  // kNone once finished
  double started_s = 0.0;
  double deadline_s = kNever;
  bool failed = false;  // could not start
};

class ActionNode : public MbtNodeT<ActionData> {
 public:
  explicit ActionNode(const ActionSpec* spec) : spec_(spec) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    return spec_ ? loadSpec(xml, ctx) : loadGeneric(xml, ctx);
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    const ActionData& d = data(ctx);
    out = d.failed ? "could not start"
                   : "waiting " + std::to_string(ctx.now_s - d.started_s) + " s";
    if (d.deadline_s != kNever) {
      out += ", timeout in " + std::to_string(d.deadline_s - ctx.now_s) + " s";
    }
  }
  std::string_view logMessage() const override { return message_; }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    ActionData& d = data(ctx);
    d.started_s = ctx.now_s;
    MbtActionRequest request = request_;
    for (uint8_t t = 0; t < target_count_; ++t) {
      const char* why = nullptr;
      if (!resolveMbtNodeTarget(targets_[t], ctx, request.params[targets_[t].param], why)) {
        d.failed = true;
        MbtErrorReporter(*this, ctx).logError("cannot start: the agent ", why);
        return;
      }
    }
    d.handle = ctx.host.startAction(request);
    if (d.handle == MbtActionHandle::kNone) {
      d.failed = true;
      MbtErrorReporter(*this, ctx).logError("the host could not start the action");
      return;
    }
    if (log_message_) MbtLogRouter::nodeText(ctx, *this, MbtLogKind::kMessage);
    if (!request_.waits) {
      d.handle = MbtActionHandle::kNone;
      return;
    }
    const double timeout = timeout_s_ > 0.0 ? timeout_s_ : ctx.library.config().action_timeout_s;
    if (timeout > 0.0) d.deadline_s = ctx.now_s + timeout;
  }
  MbtStatus update(MbtContext& ctx) const override {
    ActionData& d = data(ctx);
    if (d.failed) return MbtStatus::kFailure;
    if (!request_.waits) return MbtStatus::kSuccess;
    switch (ctx.host.pollAction(d.handle)) {
      case MbtActionState::kSucceeded:
        d.handle = MbtActionHandle::kNone;
        return MbtStatus::kSuccess;
      case MbtActionState::kFailed:
        d.handle = MbtActionHandle::kNone;
        return MbtStatus::kFailure;
      case MbtActionState::kRunning:
        break;
    }
    if (ctx.now_s < d.deadline_s) return MbtStatus::kRunning;
    ctx.host.cancelAction(d.handle);
    d.handle = MbtActionHandle::kNone;
    MbtErrorReporter(*this, ctx).logError("no result from the host before the timeout");
    return MbtStatus::kFailure;
  }
  void onTerminate(MbtContext& ctx) const override {
    const ActionData& d = data(ctx);
    if (d.handle != MbtActionHandle::kNone) ctx.host.cancelAction(d.handle);
  }

 private:
  MbtActionParam* addParam(MbtXmlElement& xml, MbtLoadContext& ctx, std::string_view name) {
    if (request_.param_count == kMaxMbtActionParams) {
      xml.error(name, "has more than " + std::to_string(kMaxMbtActionParams) +
                          " parameters; \"" + std::string(name) + "\" does not fit");
      return nullptr;
    }
    MbtActionParam& p = request_.params[request_.param_count++];
    p.name = ctx.name(name);
    p.unit = ctx.name("");
    return &p;
  }

  bool addTarget(MbtXmlElement& xml, MbtLoadContext& ctx, std::string_view name,
                 std::string_view text) {
    Target target;
    if (!parseMbtNodeTarget(text, target)) {
      xml.error(name, std::string(name) + " \"" + std::string(text) +
                          "\" is not a target (" + std::string(kMbtNodeTargetForms) + ")");
      return false;
    }
    if (target_count_ == targets_.size()) {
      xml.error(name, "has more than " + std::to_string(targets_.size()) + " targets");
      return false;
    }
    MbtActionParam* p = addParam(xml, ctx, name);
    if (!p) return false;
    target.param = static_cast<uint8_t>(request_.param_count - 1);
    targets_[target_count_++] = target;
    return true;
  }

  bool loadSpec(MbtXmlElement& xml, MbtLoadContext& ctx) {
    const ActionSpec& spec = *spec_;
    request_.name = ctx.name(spec.type);
    request_.waits = spec.waits;
    if (!spec.wait_attribute.empty()) {
      request_.waits = xml.boolean(spec.wait_attribute).value_or(spec.wait_default);
    }
    bool ok = true;
    for (const AttrSpec& a : spec.attributes) {
      if (!xml.has(a.name)) {
        if (a.required) ok &= xml.string(a.name, true).has_value();
        continue;
      }
      if (a.kind == Kind::kTarget) {
        ok &= addTarget(xml, ctx, a.name, *xml.string(a.name));
        continue;
      }
      double number = 0.0;
      std::string_view text;
      if (a.kind == Kind::kText) {
        text = *xml.string(a.name);
        if (spec.bubble && a.name == "message") message_ = text;
      } else if (a.kind == Kind::kBool) {
        const auto value = xml.boolean(a.name);
        if (!value) {
          ok = false;
          continue;
        }
        number = *value ? 1.0 : 0.0;
      } else if (a.kind == Kind::kSecondsOrKeyword &&
                 equalsNoCase(*xml.string(a.name), a.keyword)) {
        number = -1.0;
      } else {
        const auto value = xml.number(a.name);
        if (!value) {
          ok = false;
          continue;
        }
        number = *value;
        if (a.name == spec.timeout_attribute) timeout_s_ = number;
      }
      MbtActionParam* p = addParam(xml, ctx, a.name);
      if (!p) {
        ok = false;
        continue;
      }
      if (a.kind == Kind::kText) {
        p->type = MbtActionParam::Type::kText;
        p->text = ctx.name(text);
      } else {
        p->type = MbtActionParam::Type::kNumber;
        p->number = number;
        p->unit = ctx.name(a.unit);
      }
    }
    if (timeout_s_ == 0.0 && request_.waits) timeout_s_ = spec.default_timeout_s;
    if (spec.bubble) log_message_ = xml.boolean("log").value_or(true);
    if (spec.type == "SetAlertness" && ok) {
      const double value = request_.params[0].number;
      if (value < 0.0 || value > 2.0) {
        xml.error("value", "value must be 0, 1 or 2");
        ok = false;
      }
    }
    return ok;
  }

  // <Action name="..." [wait="0"] [timeout="s"] ...>: every other attribute is a parameter:
  // to/at/target are targets, numbers are numbers, "x,y,z" positions, anything else text.
  bool loadGeneric(MbtXmlElement& xml, MbtLoadContext& ctx) {
    const auto name = xml.name("name", true);
    request_.waits = xml.boolean("wait").value_or(true);
    timeout_s_ = xml.number("timeout", false, 0.0).value_or(0.0);
    if (!name) return false;
    request_.name = ctx.name(*name);
    bool ok = true;
    for (pugi::xml_attribute a = xml.node().first_attribute(); a; a = a.next_attribute()) {
      const std::string_view key = a.name();
      const std::string_view value = a.value();
      if (key == "name" || key == "wait" || key == "timeout" || key.substr(0, 1) == "_") {
        continue;
      }
      xml.accept(key);
      if (key == "to" || key == "at" || key == "target") {
        ok &= addTarget(xml, ctx, key, value);
        continue;
      }
      MbtActionParam* p = addParam(xml, ctx, key);
      if (!p) {
        ok = false;
        continue;
      }
      const std::string text(value);
      char* end = nullptr;
      const double number = std::strtod(text.c_str(), &end);
      Vec3 position;
      if (!text.empty() && end == text.c_str() + text.size()) {
        p->type = MbtActionParam::Type::kNumber;
        p->number = number;
      } else if (parseMbtPosition(value, position)) {
        p->type = MbtActionParam::Type::kPosition;
        p->position = position;
      } else {
        p->type = MbtActionParam::Type::kText;
        p->text = ctx.name(value);
      }
    }
    return ok;
  }

  const ActionSpec* spec_;
  MbtActionRequest request_;  // everything but the targets, which are resolved on entry
  std::array<Target, 2> targets_{};
  uint8_t target_count_ = 0;
  double timeout_s_ = 0.0;
  std::string message_;
  bool log_message_ = false;
};

}  // namespace

void registerMbtActionNodes(MbtNodeFactory& factory) {
  for (const ActionSpec& spec : actionSpecs()) {
    const ActionSpec* s = &spec;
    factory.addAction(std::string(spec.type), [s] { return std::make_unique<ActionNode>(s); });
  }
  factory.add("Action", [] { return std::make_unique<ActionNode>(nullptr); });
}

}  // namespace npc
