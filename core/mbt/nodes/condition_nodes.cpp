// AssertCondition, MonitorCondition and the timestamp nodes IfTime, WaitUntilTime,
// AssertTime (BT-REFERENCE.md §2a, §3). Time comparisons are strict on elapsed seconds.
#include <cstdint>
#include <string>

#include "mbt/instance.h"
#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"
#include "mbt/tree.h"

namespace npc {
namespace {

// Instant: Success when the condition holds, else Failure.
class AssertConditionNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    return ctx.condition(xml, "condition", condition_, true);
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    return ctx.tree.evaluate(condition_, ctx.instance.variables()) ? MbtStatus::kSuccess
                                                                   : MbtStatus::kFailure;
  }

 private:
  CompiledCondition condition_;
};

// Running until the condition holds, then Success. Never fails (pair it with a Parallel).
class MonitorConditionNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    return ctx.condition(xml, "condition", condition_, true);
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    return ctx.tree.evaluate(condition_, ctx.instance.variables()) ? MbtStatus::kSuccess
                                                                   : MbtStatus::kRunning;
  }

 private:
  CompiledCondition condition_;
};

// since="Timestamp" with exactly one of isMoreThan / isLessThan (seconds).
class TimeTest {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) {
    const auto stamp = ctx.timestamp(xml, "since");
    const bool more = xml.has("isMoreThan");
    const bool less = xml.has("isLessThan");
    if (more == less) {
      xml.error(more ? "takes only one of isMoreThan and isLessThan"
                     : "needs attribute \"isMoreThan\" or \"isLessThan\"");
      xml.accept("isMoreThan");
      xml.accept("isLessThan");
      return false;
    }
    more_than_ = more;
    const auto seconds = xml.number(more ? "isMoreThan" : "isLessThan", true);
    if (!stamp || !seconds) return false;
    timestamp_ = *stamp;
    seconds_ = *seconds;
    return true;
  }
  // The comparison on a valid timestamp; false when it is not set (or was invalidated).
  bool holds(const MbtContext& ctx) const {
    const std::optional<double> elapsed = ctx.instance.elapsed(timestamp_, ctx.now_s);
    if (!elapsed) return false;
    return more_than_ ? *elapsed > seconds_ : *elapsed < seconds_;
  }
  bool neverSet(const MbtContext& ctx) const { return !ctx.instance.timestamp(timestamp_).ever_set; }
  std::string describe(const MbtContext& ctx) const {
    const std::optional<double> elapsed = ctx.instance.elapsed(timestamp_, ctx.now_s);
    const std::string& name = ctx.tree.timestamps()[timestamp_].name;
    if (!elapsed) return name + (neverSet(ctx) ? " never set" : " cleared");
    return name + " " + std::to_string(*elapsed) + " s ago" + (more_than_ ? " (> " : " (< ") +
           std::to_string(seconds_) + ")";
  }

 private:
  uint8_t timestamp_ = 0;
  bool more_than_ = true;
  double seconds_ = 0.0;
};

struct GateData {
  bool open = false;
};

// Decorator, evaluated once on entry: open when the comparison holds, or when the
// timestamp was never set and orNeverBeenSet="1". Closed → Failure.
class IfTimeNode : public MbtNodeT<GateData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    bool ok = test_.load(xml, ctx);
    or_never_set_ = xml.boolean("orNeverBeenSet").value_or(false);
    ok &= ctx.loadChildren(xml, 1, 1);
    return ok;
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = test_.describe(ctx);
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    data(ctx).open = test_.holds(ctx) || (or_never_set_ && test_.neverSet(ctx));
  }
  MbtStatus update(MbtContext& ctx) const override {
    return data(ctx).open ? child(0).tick(ctx) : MbtStatus::kFailure;
  }

 private:
  TimeTest test_;
  bool or_never_set_ = false;
};

// Running until the comparison holds → Success. A never-set timestamp succeeds only with
// succeedIfNeverBeenSet="1" (CryEngine's attribute; the docs' orNeverBeenSet is accepted
// too), otherwise the node keeps waiting (CryEngine's code; the docs say it fails).
class WaitUntilTimeNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const bool ok = test_.load(xml, ctx);
    const bool code_spelling = xml.boolean("succeedIfNeverBeenSet").value_or(false);
    const bool doc_spelling = xml.boolean("orNeverBeenSet").value_or(false);
    succeed_if_never_set_ = code_spelling || doc_spelling;
    return ok;
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = test_.describe(ctx);
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    if (test_.holds(ctx) || (succeed_if_never_set_ && test_.neverSet(ctx))) {
      return MbtStatus::kSuccess;
    }
    return MbtStatus::kRunning;
  }

 private:
  TimeTest test_;
  bool succeed_if_never_set_ = false;
};

// Instant Success / Failure of the same test as IfTime.
class AssertTimeNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const bool ok = test_.load(xml, ctx);
    or_never_set_ = xml.boolean("orNeverBeenSet").value_or(false);
    return ok;
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    return test_.holds(ctx) || (or_never_set_ && test_.neverSet(ctx)) ? MbtStatus::kSuccess
                                                                     : MbtStatus::kFailure;
  }

 private:
  TimeTest test_;
  bool or_never_set_ = false;
};

}  // namespace

void registerMbtConditionNodes(MbtNodeFactory& factory) {
  factory.add<AssertConditionNode>("AssertCondition");
  factory.add<MonitorConditionNode>("MonitorCondition");
  factory.add<IfTimeNode>("IfTime");
  factory.add<WaitUntilTimeNode>("WaitUntilTime");
  factory.add<AssertTimeNode>("AssertTime");
}

}  // namespace npc
