// Shared fixtures for the MBT tests: a scripted host (actions complete when the test says
// so, time advances when the test says so) and a fixture that loads inline XML.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "mbt/library.h"

namespace npc::test {

// An MbtHost whose actions run until the test completes them.
class TestHost : public MbtHost {
 public:
  struct Action {
    MbtActionHandle handle = MbtActionHandle::kNone;
    std::string name;
    MbtActionRequest request;
    MbtActionState state = MbtActionState::kRunning;
    bool cancelled = false;
    double started_s = 0.0;
  };

  explicit TestHost(const NameTable<ActionNameId>& names) : names_(names) {
    view.id = static_cast<EntityId>(7);
  }

  double nowS() const override { return now; }
  const MbtAgentView& agent() const override { return view; }
  MbtActionHandle startAction(const MbtActionRequest& request) override {
    if (refuse_actions) return MbtActionHandle::kNone;
    Action a;
    a.handle = static_cast<MbtActionHandle>(actions.size() + 1);
    a.name = names_.name(request.name);
    a.request = request;
    a.started_s = now;
    if (!request.waits) a.state = MbtActionState::kSucceeded;
    actions.push_back(a);
    return a.handle;
  }
  MbtActionState pollAction(MbtActionHandle handle) override {
    ++polls;
    const size_t i = static_cast<size_t>(raw(handle));
    if (i == 0 || i > actions.size()) return MbtActionState::kFailed;
    return actions[i - 1].state;
  }
  void cancelAction(MbtActionHandle handle) override {
    const size_t i = static_cast<size_t>(raw(handle));
    if (i == 0 || i > actions.size()) return;
    actions[i - 1].cancelled = true;
    actions[i - 1].state = MbtActionState::kFailed;
  }
  void sendSignal(SignalId signal, MbtSignalScope scope) override {
    signals.push_back({signal, scope});
    signal_log.push_back({signal, scope});
  }
  std::span<const Obstacle> obstacles() const override { return obstacle_list; }
  // A scripted ground (when `ground` is set): a river along x = river_x that no walk
  // crosses, walks `detour` times the straight line, and the ground at z = 0 (points are
  // placed there). Unset: MbtHost's open ground.
  MbtWalk walkTo(Vec3 to) override {
    ++walks;
    if (!ground) return MbtHost::walkTo(to);
    if ((to.x > river_x) != (view.position.x > river_x)) return {false, 0.f};
    return {true, detour * length(to - view.position)};
  }
  bool placeOnGround(Vec3& point) override {
    if (!ground) return true;
    Vec3 on_ground{point.x, point.y, 0.f};
    if (!walkTo(on_ground).reachable) return false;
    point = on_ground;
    return true;
  }
  void log(const MbtLogMessage& message) override {
    if (record_logs) logs.push_back(std::string(message.text));
  }

  // --- test helpers ----------------------------------------------------------------------
  // Running (not cancelled) actions named `name`.
  size_t running(const std::string& name) const {
    size_t n = 0;
    for (const Action& a : actions) {
      n += a.name == name && a.state == MbtActionState::kRunning && !a.cancelled;
    }
    return n;
  }
  size_t started(const std::string& name) const {
    size_t n = 0;
    for (const Action& a : actions) n += a.name == name;
    return n;
  }
  Action* last(const std::string& name) {
    for (auto it = actions.rbegin(); it != actions.rend(); ++it) {
      if (it->name == name) return &*it;
    }
    return nullptr;
  }
  // Completes the newest running action called `name`; false if there is none.
  bool finish(const std::string& name, bool success = true) {
    for (auto it = actions.rbegin(); it != actions.rend(); ++it) {
      if (it->name == name && it->state == MbtActionState::kRunning) {
        it->state = success ? MbtActionState::kSucceeded : MbtActionState::kFailed;
        return true;
      }
    }
    return false;
  }
  // The action loops until cancelled (Animate loop="1"): a client never completes it.
  bool loops(const Action& a) const {
    for (const MbtActionParam& p : a.request.activeParams()) {
      if (names_.name(p.name) == "loop" && p.number != 0.0) return true;
    }
    return false;
  }
  // Completes every running action started at least `age_s` ago (not looping ones).
  void finishOlderThan(double age_s, bool success = true) {
    for (Action& a : actions) {
      if (a.state == MbtActionState::kRunning && now - a.started_s >= age_s && !loops(a)) {
        a.state = success ? MbtActionState::kSucceeded : MbtActionState::kFailed;
      }
    }
  }
  void seeTarget(EntityId target, Vec3 position) {
    view.target_class = MbtTargetClass::kVisible;
    view.target = target;
    view.target_position = position;
  }
  bool logged(const std::string& part) const {
    for (const std::string& l : logs) {
      if (l.find(part) != std::string::npos) return true;
    }
    return false;
  }

  double now = 0.0;
  MbtAgentView view;
  std::vector<Action> actions;
  std::vector<std::pair<SignalId, MbtSignalScope>> signals;     // not yet delivered
  std::vector<std::pair<SignalId, MbtSignalScope>> signal_log;  // every one sent
  std::vector<std::string> logs;
  std::vector<Obstacle> obstacle_list;
  bool ground = false;
  float river_x = 1e9f;
  float detour = 1.f;
  size_t walks = 0;
  bool record_logs = true;
  bool refuse_actions = false;
  size_t polls = 0;

 private:
  const NameTable<ActionNameId>& names_;
};

// A library, a host and one agent running a tree written inline.
struct MbtFixture {
  MbtLibrary library;
  TestHost host{library.names()};
  MbtInstance agent;

  // Loads `xml` as file "Test.xml" (tree "Test") and binds the agent; the report's text
  // is returned ("" = loaded cleanly).
  std::string load(const std::string& xml, const std::string& file = "Test.xml") {
    const MbtLoadReport report = library.loadSources({{file, xml}});
    if (report.ok()) {
      const std::string tree = file.substr(0, file.rfind('.'));
      library.bind(agent, tree.substr(tree.rfind('/') + 1), host.view.id, 1);
    }
    return report.text();
  }
  MbtStatus tick() { return agent.tick(host); }
  // Ticks `n` times, advancing time by dt before each tick.
  MbtStatus run(int n, double dt = 0.1) {
    MbtStatus s = MbtStatus::kRunning;
    for (int i = 0; i < n; ++i) {
      host.now += dt;
      s = tick();
    }
    return s;
  }
  void event(const std::string& name) { agent.handleEvent(library.signals().intern(name), host); }
  // Plays the game for `n` ticks of dt: signals the tree sent come back as events before
  // the next tick (every scope reaches the agent itself), actions finish after `action_s`.
  void play(int n, double dt = 0.1, double action_s = 0.3) {
    for (int i = 0; i < n; ++i) {
      std::vector<std::pair<SignalId, MbtSignalScope>> sent;
      sent.swap(host.signals);
      for (const auto& s : sent) {
        if (s.second != MbtSignalScope::kGroupExcludingSender) agent.handleEvent(s.first, host);
      }
      host.now += dt;
      tick();
      host.finishOlderThan(action_s);
    }
  }
  SignalId signal(const std::string& name) { return library.signals().intern(name); }
  bool sent(const std::string& name) const {
    for (const auto& s : host.signal_log) {
      if (const_cast<MbtLibrary&>(library).signals().name(s.first) == name) return true;
    }
    return false;
  }
  nlohmann::json describe() const { return library.describe(agent, host.now); }
  // Types of the running nodes, root first ("Sequence/Wait").
  std::string runningPath() const;
};

// Wraps `root` (one node) in a <BehaviorTree> with optional sections; line 1 is the
// <BehaviorTree> element, line 2 is <Root>, the node starts on line 3.
inline std::string tree(const std::string& root, const std::string& sections = "") {
  return "<BehaviorTree>\n<Root>\n" + root + "\n</Root>\n" + sections + "</BehaviorTree>\n";
}

}  // namespace npc::test

inline std::string npc::test::MbtFixture::runningPath() const {
  std::string out;
  const nlohmann::json view = describe();
  for (const auto& node : view["running"]) {
    if (!out.empty()) out += "/";
    out += node["type"].get<std::string>();
  }
  return out;
}
