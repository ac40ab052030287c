// StateMachine + State + Transitions (BT-REFERENCE.md §2a).
#include <cstdint>
#include <string>
#include <vector>

#include "mbt/load_context.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/nodes/standard_nodes.h"

namespace npc {
namespace {

struct StateMachineData {
  uint8_t current = 0;
  uint8_t pending = 0xff;  // transition waiting for the next update
};

// <StateMachine> of <State name> children, each with an optional <Transitions> list of
// <Transition onEvent to> and one <BehaviorTree> holding one node. The first state is the
// initial one. An event matching a transition of the pending (else current) state makes
// that transition pending — the event still reaches the current state's nodes — and the
// switch happens at the next update: the old state's nodes are terminated, the new one
// ticks. A transition to the current state restarts it. The machine finishes when its
// state's node does. State names are unique ignoring case; `to` must name a state.
class StateMachineNode : public MbtNodeT<StateMachineData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    bool ok = true;
    const std::vector<pugi::xml_node> states = xml.children();
    if (states.empty() || states.size() >= 255) {
      xml.error("needs 1 to 254 <State> children, has " + std::to_string(states.size()));
      return false;
    }
    struct PendingTransition {
      size_t index;
      std::string to;
      Location at;
    };
    std::vector<PendingTransition> targets;
    for (pugi::xml_node element : states) {
      MbtXmlElement state(element, ctx);
      if (state.tag() != "State") {
        state.acceptAll();
        state.error("is not allowed in <StateMachine>; expected <State name>");
        ok = false;
        continue;
      }
      const auto name = state.name("name", true);
      State def;
      def.name = name ? std::string(*name) : std::string();
      def.first = static_cast<uint16_t>(transitions_.size());
      if (name) {
        for (const State& other : states_) {
          if (equalsNoCase(other.name, *name)) {
            state.error("name", "duplicate state \"" + std::string(*name) + "\" (state names "
                                "ignore case)");
            ok = false;
          }
        }
      } else {
        ok = false;
      }
      size_t trees = 0;
      size_t transition_lists = 0;
      for (pugi::xml_node part : state.children()) {
        MbtXmlElement section(part, ctx);
        if (section.tag() == "Transitions") {
          if (++transition_lists > 1) section.error("appears twice in one <State>");
          for (pugi::xml_node t : section.children()) {
            MbtXmlElement transition(t, ctx);
            if (transition.tag() != "Transition") {
              transition.acceptAll();
              transition.error("is not allowed in <Transitions>; expected <Transition "
                               "onEvent to>");
              ok = false;
              continue;
            }
            const auto event = transition.name("onEvent", true);
            const auto to = transition.name("to", true);
            if (!event || !to) {
              ok = false;
              continue;
            }
            targets.push_back({transitions_.size(), std::string(*to), transition.where("to")});
            transitions_.push_back({ctx.signal(*event), 0});
          }
        } else if (section.tag() == "BehaviorTree") {
          ++trees;
          const std::vector<pugi::xml_node> nodes = section.children();
          if (nodes.size() != 1) {
            section.error("takes exactly 1 node, has " + std::to_string(nodes.size()));
            ok = false;
          } else if (trees == 1) {
            ok &= ctx.loadChild(nodes[0]).has_value();
          }
        } else {
          section.acceptAll();
          section.error("is not allowed in <State>; expected <Transitions> or <BehaviorTree>");
          ok = false;
        }
      }
      if (trees != 1) {
        state.error("needs exactly one <BehaviorTree>, has " + std::to_string(trees));
        ok = false;
      }
      def.count = static_cast<uint16_t>(transitions_.size() - def.first);
      states_.push_back(std::move(def));
    }
    for (const PendingTransition& t : targets) {
      size_t found = states_.size();
      for (size_t s = 0; s < states_.size(); ++s) {
        if (equalsNoCase(states_[s].name, t.to)) found = s;
      }
      if (found == states_.size()) {
        ctx.diagnostics().error(t.at, "<Transition> to \"" + t.to + "\" is not a state of "
                                      "this <StateMachine>");
        ok = false;
        continue;
      }
      transitions_[t.index].to = static_cast<uint8_t>(found);
    }
    return ok;
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    const StateMachineData& d = data(ctx);
    out = "state " + states_[d.current].name;
    if (d.pending != 0xff) out += " (to " + states_[d.pending].name + " next tick)";
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    StateMachineData& d = data(ctx);
    if (d.pending != 0xff) {
      child(d.current).terminate(ctx);
      d.current = d.pending;
      d.pending = 0xff;
    }
    return child(d.current).tick(ctx);
  }
  void handleEvent(MbtContext& ctx, SignalId event) const override {
    StateMachineData& d = data(ctx);
    const State& from = states_[d.pending != 0xff ? d.pending : d.current];
    for (uint16_t i = from.first; i < from.first + from.count; ++i) {
      if (transitions_[i].event == event) {
        d.pending = transitions_[i].to;
        return;
      }
    }
  }

 private:
  struct State {
    std::string name;
    uint16_t first = 0;  // its transitions in transitions_
    uint16_t count = 0;
  };
  struct Transition {
    SignalId event;
    uint8_t to;
  };
  std::vector<State> states_;  // state i runs child i
  std::vector<Transition> transitions_;
};

}  // namespace

void registerMbtStateMachineNode(MbtNodeFactory& factory) {
  factory.add<StateMachineNode>("StateMachine");
}

}  // namespace npc
