// Built-in behaviors: what a named behavior does until behavior trees drive it. A selection
// tree (or the archetype's fixed behavior) picks a behavior by name; the archetype maps the
// name to a BehaviorDef whose mode runs here, choosing the agent's next client-side action
// when it has none running:
//   idle         nothing
//   wander       MoveTo a random point near home, pause, repeat
//   greet        greet the attention target when it is a visible player (cooldown)
//   ambient      greet when possible, else wander
//   investigate  MoveTo the attention position (a sound, a memory, a suspicion), then
//                LookAround there once
//   attack       `action` on a visible attention target every cooldown; MoveTo a
//                remembered target's last known position
//   face_target  TurnTo a new attention target ("No Behavior" does this too)
// Everything reads the agent's perception (its attention target); nothing allocates.
#pragma once

#include <vector>

#include "agent/agent.h"
#include "agent/archetype.h"
#include "sim/tick_output.h"
#include "world/world.h"

namespace npc {

// Interned names the behaviors emit, resolved once so the tick never touches strings.
struct BehaviorVocabulary {
  ActionNameId move_to{0};
  ActionNameId turn_to{0};
  ActionNameId look_around{0};
  ActionNameId param_target{0};
  ActionNameId param_position{0};
  ActionNameId param_speed{0};
  ActionNameId param_duration{0};
  ActionNameId unit_s{0};
  ActionNameId unit_mps{0};
  std::vector<ActionNameId> greet_action;                 // per archetype index
  std::vector<std::vector<ActionNameId>> behavior_action; // per archetype, per BehaviorDef

  void intern(NameTable<ActionNameId>& names, const ArchetypeSet& archetypes);
};

class BuiltinBehaviors {
 public:
  BuiltinBehaviors(const ArchetypeSet& archetypes, const BehaviorVocabulary& vocabulary)
      : archetypes_(archetypes), vocabulary_(vocabulary) {}

  // If the agent is idle and its behavior has something to do, fills `out` with the action
  // to program (name and params) and returns true.
  bool decide(Agent& agent, const Entity& self, const World& world, double now_s,
              ActionOut& out) const;

  // Bookkeeping when the agent's running action ends. True when that action finished the
  // behavior's job (greet: the greeting; investigate: the look-around): the caller then
  // applies the BehaviorDef's set_when_done.
  bool onActionEnded(Agent& agent, ActionNameId action, double now_s, bool completed) const;
  // Bookkeeping when the selection tree switched the agent to another behavior.
  void onBehaviorEntered(Agent& agent) const;

 private:
  bool wander(Agent& agent, const Entity& self, const World& world, double now_s,
              const Archetype& type, ActionOut& out) const;
  bool greet(Agent& agent, const World& world, double now_s, const Archetype& type,
             ActionOut& out) const;
  bool investigate(Agent& agent, const BehaviorDef& def, const Archetype& type,
                   ActionOut& out) const;
  bool attack(Agent& agent, const BehaviorDef& def, const Archetype& type, double now_s,
              ActionOut& out) const;
  bool faceTarget(Agent& agent, ActionOut& out) const;

  const ArchetypeSet& archetypes_;
  const BehaviorVocabulary& vocabulary_;
};

}  // namespace npc
