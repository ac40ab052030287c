// Sequence, Selector, Parallel (BT-REFERENCE.md §2a).
#include <cstdint>
#include <string>

#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"

namespace npc {
namespace {

struct CompositeData {
  uint8_t current = 0;
};

// Ticks the current child; on Success moves to the next one in the same tick. Failure or
// Running is returned as is. Earlier children are not checked again.
class SequenceNode : public MbtNodeT<CompositeData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    return ctx.loadChildren(xml, 1, kMaxCompositeChildren);
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = "child " + std::to_string(data(ctx).current + 1) + " of " +
          std::to_string(childCount());
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    CompositeData& d = data(ctx);
    for (;;) {
      const MbtStatus status = child(d.current).tick(ctx);
      if (status != MbtStatus::kSuccess) return status;
      if (++d.current == childCount()) return MbtStatus::kSuccess;
    }
  }
};

// Sequence with the roles of Success and Failure swapped.
class SelectorNode : public MbtNodeT<CompositeData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    return ctx.loadChildren(xml, 1, kMaxCompositeChildren);
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = "child " + std::to_string(data(ctx).current + 1) + " of " +
          std::to_string(childCount());
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    CompositeData& d = data(ctx);
    for (;;) {
      const MbtStatus status = child(d.current).tick(ctx);
      if (status != MbtStatus::kFailure) return status;
      if (++d.current == childCount()) return MbtStatus::kFailure;
    }
  }
};

struct ParallelData {
  uint32_t running = 0;  // bit i: child i has not finished
  uint8_t successes = 0;
  uint8_t failures = 0;
};

// Ticks every unfinished child each tick. successMode all (default) | any, failureMode
// any (default) | all; the success rule is checked first. Still-running children are
// terminated when it finishes (by MbtNode::leave).
class ParallelNode : public MbtNodeT<ParallelData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    success_any_ = xml.choice("successMode", {"all", "any"}).value_or(0) == 1;
    failure_all_ = xml.choice("failureMode", {"any", "all"}).value_or(0) == 1;
    return ctx.loadChildren(xml, 1, kMaxParallelChildren);
  }
  bool childrenRunConcurrently() const override { return true; }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    const ParallelData& d = data(ctx);
    out = std::to_string(d.successes) + " succeeded, " + std::to_string(d.failures) +
          " failed of " + std::to_string(childCount());
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    const size_t n = childCount();
    data(ctx).running = n >= 32 ? 0xffffffffu : (uint32_t{1} << n) - 1u;
  }
  MbtStatus update(MbtContext& ctx) const override {
    ParallelData& d = data(ctx);
    for (size_t i = 0; i < childCount(); ++i) {
      const uint32_t bit = uint32_t{1} << i;
      if (!(d.running & bit)) continue;
      const MbtStatus status = child(i).tick(ctx);
      if (status == MbtStatus::kRunning) continue;
      d.running &= ~bit;
      if (status == MbtStatus::kSuccess) {
        ++d.successes;
      } else {
        ++d.failures;
      }
    }
    const size_t n = childCount();
    if (success_any_ ? d.successes > 0 : d.successes == n) return MbtStatus::kSuccess;
    if (failure_all_ ? d.failures == n : d.failures > 0) return MbtStatus::kFailure;
    // Every child finished, neither rule holds (mixed results with all/all): CryEngine
    // would stay Running with nothing left to run; npcd fails instead.
    if (d.running == 0) return MbtStatus::kFailure;
    return MbtStatus::kRunning;
  }

 private:
  bool success_any_ = false;
  bool failure_all_ = false;
};

}  // namespace

void registerMbtCompositeNodes(MbtNodeFactory& factory) {
  factory.add<SequenceNode>("Sequence");
  factory.add<SelectorNode>("Selector");
  factory.add<ParallelNode>("Parallel");
}

}  // namespace npc
