// Loop, LoopUntilSuccess, SuppressFailure, RandomGate, IfCondition, GroupScope and the
// seed's LimitConcurrentUsers (BT-REFERENCE.md §2a–2b). Each has exactly one child.
#include <algorithm>
#include <cstdint>
#include <string>

#include "mbt/group_scopes.h"
#include "mbt/host.h"
#include "mbt/instance.h"
#include "mbt/library.h"
#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"
#include "mbt/tree.h"

namespace npc {
namespace {

struct LoopData {
  uint32_t done = 0;              // iterations that ended the way that continues the loop
  bool child_was_running = false;
};

// Loop (until_success = false): child Failure → Failure; Success counts an iteration and,
// below `count` (0 or absent: forever), restarts the child. LoopUntilSuccess: the mirror
// (Success → Success; Failure counts, `attemptCount` failures → Failure). The child is
// restarted in the same tick only if it was Running on the previous tick, so a child that
// finishes instantly runs once per tick instead of looping forever.
class LoopNode : public MbtNodeT<LoopData> {
 public:
  explicit LoopNode(bool until_success) : until_success_(until_success) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    limit_ = xml.count(until_success_ ? "attemptCount" : "count", false, 0xffffffu).value_or(0);
    return ctx.loadChildren(xml, 1, 1);
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    const LoopData& d = data(ctx);
    out = (until_success_ ? "attempt " : "iteration ") + std::to_string(d.done + 1);
    if (limit_) out += " of " + std::to_string(limit_);
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    LoopData& d = data(ctx);
    const MbtStatus ends = until_success_ ? MbtStatus::kSuccess : MbtStatus::kFailure;
    for (;;) {
      const MbtStatus status = child(0).tick(ctx);
      if (status == MbtStatus::kRunning) {
        d.child_was_running = true;
        return MbtStatus::kRunning;
      }
      if (status == ends) return status;
      ++d.done;
      if (limit_ != 0 && d.done >= limit_) {
        return until_success_ ? MbtStatus::kFailure : MbtStatus::kSuccess;
      }
      if (!d.child_was_running) return MbtStatus::kRunning;
      d.child_was_running = false;
    }
  }

 private:
  bool until_success_;
  uint32_t limit_ = 0;
};

// Running passes through; Success and Failure both become Success.
class SuppressFailureNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    return ctx.loadChildren(xml, 1, 1);
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    const MbtStatus status = child(0).tick(ctx);
    return status == MbtStatus::kRunning ? status : MbtStatus::kSuccess;
  }
};

struct GateData {
  bool open = false;
};

// Opens with probability opensWithChance (clamped to 0..1), rolled once on entry from the
// agent's seeded stream; closed → Failure, open → the child's status.
class RandomGateNode : public MbtNodeT<GateData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    chance_ = std::clamp(xml.number("opensWithChance", true).value_or(0.0), 0.0, 1.0);
    return ctx.loadChildren(xml, 1, 1);
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = data(ctx).open ? "open" : "closed";
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    data(ctx).open = ctx.instance.rng().uniform() < chance_;
  }
  MbtStatus update(MbtContext& ctx) const override {
    return data(ctx).open ? child(0).tick(ctx) : MbtStatus::kFailure;
  }

 private:
  double chance_ = 0.0;
};

// The condition is evaluated once, on entry: true → the child's status, false → Failure.
// The deprecated `equalTo` compares the condition's value with it (with a warning).
class IfConditionNode : public MbtNodeT<GateData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    bool ok = ctx.condition(xml, "condition", condition_, true);
    if (xml.has("equalTo")) {
      if (auto equal = xml.boolean("equalTo")) expected_ = *equal;
      xml.warning("equalTo", "equalTo is deprecated: write the comparison in the condition");
    }
    ok &= ctx.loadChildren(xml, 1, 1);
    return ok;
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = data(ctx).open ? "condition held" : "condition false";
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    data(ctx).open = ctx.tree.evaluate(condition_, ctx.instance.variables()) == expected_;
  }
  MbtStatus update(MbtContext& ctx) const override {
    return data(ctx).open ? child(0).tick(ctx) : MbtStatus::kFailure;
  }

 private:
  CompiledCondition condition_;
  bool expected_ = true;
};

struct ScopeData {
  uint64_t group = 0;  // the group entered (the agent's group may change meanwhile)
  bool entered = false;
};

// GroupScope name allowedConcurrentUsers (default 1): on entry, enters the named scope of
// the agent's group (MbtAgentView::group) if fewer than allowedConcurrentUsers agents are
// in it; full → Failure without running the child. Leaves the scope when terminated.
// LimitConcurrentUsers max [name] is the seed's spelling; without a name each node is its
// own scope ("LimitConcurrentUsers@file:line").
class GroupScopeNode : public MbtNodeT<ScopeData> {
 public:
  explicit GroupScopeNode(bool seed_spelling) : seed_spelling_(seed_spelling) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    std::string name;
    if (seed_spelling_) {
      allowed_ = xml.count("max", true, 0xffffffu).value_or(1);
      if (auto n = xml.name("name")) {
        name = *n;
      } else {
        name = "LimitConcurrentUsers@" + ctx.file().name + ":" + std::to_string(xml.line());
      }
    } else {
      if (auto n = xml.name("name", true)) name = *n;
      allowed_ = xml.count("allowedConcurrentUsers", false, 0xffffffu).value_or(1);
    }
    scope_ = ctx.scope(name);
    return ctx.loadChildren(xml, 1, 1);
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    const ScopeData& d = data(ctx);
    const MbtGroupScopes& scopes = ctx.library.groupScopes();
    out = "scope " + scopes.name(scope_) + (d.entered ? ": inside, " : ": full, ") +
          std::to_string(scopes.users(scope_, d.group)) + "/" + std::to_string(allowed_) +
          " users";
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    ScopeData& d = data(ctx);
    d.group = ctx.host.agent().group;
    d.entered = ctx.library.groupScopes().tryEnter(scope_, d.group, allowed_);
  }
  MbtStatus update(MbtContext& ctx) const override {
    return data(ctx).entered ? child(0).tick(ctx) : MbtStatus::kFailure;
  }
  void onTerminate(MbtContext& ctx) const override {
    const ScopeData& d = data(ctx);
    if (d.entered) ctx.library.groupScopes().leave(scope_, d.group);
  }
  void onRestored(MbtContext& ctx) const override {
    const ScopeData& d = data(ctx);
    if (d.entered) ctx.library.groupScopes().reenter(scope_, d.group);
  }

 private:
  bool seed_spelling_;
  GroupScopeId scope_{0};
  uint32_t allowed_ = 1;
};

}  // namespace

void registerMbtDecoratorNodes(MbtNodeFactory& factory) {
  factory.add("Loop", [] { return std::make_unique<LoopNode>(false); });
  factory.add("LoopUntilSuccess", [] { return std::make_unique<LoopNode>(true); });
  factory.add<SuppressFailureNode>("SuppressFailure");
  factory.add<RandomGateNode>("RandomGate");
  factory.add<IfConditionNode>("IfCondition");
  factory.add("GroupScope", [] { return std::make_unique<GroupScopeNode>(false); });
  factory.add("LimitConcurrentUsers", [] { return std::make_unique<GroupScopeNode>(true); });
}

}  // namespace npc
