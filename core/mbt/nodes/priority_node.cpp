// Priority + Case (BT-REFERENCE.md §2a): runs the first case whose condition holds and
// switches when a variable change makes an earlier case true (or the current one false).
#include <cstdint>
#include <string>
#include <vector>

#include "mbt/instance.h"
#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"
#include "mbt/tree.h"

namespace npc {
namespace {

struct PriorityData {
  uint8_t current = 0xff;  // case running; 0xff: none chosen yet / none true
};

// Cases are chosen on entry and again whenever a variable flipped since the previous tick
// began (not on timestamps or Lua state). Changing case terminates the old case's child.
// No true case → Failure. <Case condition> missing or empty means true.
class PriorityNode : public MbtNodeT<PriorityData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    bool ok = true;
    const std::vector<pugi::xml_node> cases = xml.children();
    if (cases.empty() || cases.size() >= 255) {
      xml.error("needs 1 to 254 <Case> children, has " + std::to_string(cases.size()));
      return false;
    }
    for (pugi::xml_node element : cases) {
      MbtXmlElement item(element, ctx);
      if (item.tag() != "Case") {
        item.acceptAll();
        item.error("is not allowed in <Priority>; expected <Case condition>");
        ok = false;
        continue;
      }
      CompiledCondition condition;
      ok &= ctx.condition(item, "condition", condition, false, /*empty_is_true=*/true);
      conditions_.push_back(condition);
      const std::vector<pugi::xml_node> nodes = item.children();
      if (nodes.size() != 1) {
        item.error("takes exactly 1 child node, has " + std::to_string(nodes.size()));
        ok = false;
        continue;
      }
      ok &= ctx.loadChild(nodes[0]).has_value();
    }
    return ok;
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    const uint8_t c = data(ctx).current;
    out = c == 0xff ? "no case" : "case " + std::to_string(c + 1) + " (line " +
                                      std::to_string(child(c).line()) + ")";
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    PriorityData& d = data(ctx);
    if (d.current == 0xff || ctx.instance.variablesChanged()) {
      uint8_t chosen = 0xff;
      for (size_t i = 0; i < conditions_.size(); ++i) {
        if (ctx.tree.evaluate(conditions_[i], ctx.instance.variables())) {
          chosen = static_cast<uint8_t>(i);
          break;
        }
      }
      if (chosen != d.current) {
        if (d.current != 0xff) child(d.current).terminate(ctx);
        d.current = chosen;
      }
    }
    if (d.current == 0xff) return MbtStatus::kFailure;
    return child(d.current).tick(ctx);
  }

 private:
  std::vector<CompiledCondition> conditions_;  // case i runs child i
};

}  // namespace

void registerMbtPriorityNode(MbtNodeFactory& factory) {
  factory.add<PriorityNode>("Priority");
}

}  // namespace npc
