// Simulation: actions make stimuli (seed 004, "resolution emits stimuli"; seed 000). A
// completed action can be heard (a door opening) and seen by the agents near it: the
// archetype's "emits" (core/agent/archetype.h) gives a sound and a signal; the daemon's own
// Take, Drop and Give tell the agents within kWitnessRadiusM that an object was taken,
// dropped or handed over (OnObjectTaken / OnObjectDropped / OnItemGiven, subject = the
// object or receiver, sender = the actor, action = the action's name). An external action
// (a game's ExternalAction) reaches its receiver as OnExternalAction naming the actor
// (sender and subject) and the action. Signals travel through perception like any other,
// so they reach selection trees and behavior trees (with their data) next tick.
#include "intent/intention_event.h"
#include "sim/simulation.h"

namespace npc {

namespace {

// Who notices the daemon's inventory actions without being told [metres].
constexpr float kWitnessRadiusM = 10.f;

}  // namespace

void Simulation::resolveActionStimuli() {
  action_stimuli_.clear();
  SignalNames& signals = perception_.signalNames();
  external_action_signal_ = signals.intern("OnExternalAction");
  for (size_t a = 0; a < archetypes_.size(); ++a) {
    for (const ActionDef& def : archetypes_.at(static_cast<uint16_t>(a)).actions) {
      if (!def.emits.any()) continue;
      ResolvedStimulus r;
      r.archetype = static_cast<uint16_t>(a);
      r.action = names_.intern(def.name);
      r.sound_radius_m = def.emits.sound_radius_m;
      if (auto kind = parseSoundKind(def.emits.sound_kind)) r.sound_kind = *kind;
      if (!def.emits.signal.empty()) r.signal = signals.intern(def.emits.signal);
      r.signal_radius_m = def.emits.signal_radius_m;
      action_stimuli_.push_back(r);
    }
  }
  // The built-in inventory actions, for every archetype (its own "emits" comes first).
  const std::pair<const char*, const char*> witnessed[] = {
      {"Take", "OnObjectTaken"}, {"Drop", "OnObjectDropped"}, {"Give", "OnItemGiven"}};
  for (const auto& [action, signal] : witnessed) {
    ResolvedStimulus r;
    r.action = names_.intern(action);
    r.signal = signals.intern(signal);
    r.signal_radius_m = kWitnessRadiusM;
    action_stimuli_.push_back(r);
  }
}

void Simulation::emitActionStimuli(const Agent& agent, const IntentionEvent& event) {
  const ResolvedStimulus* found = nullptr;
  for (const ResolvedStimulus& r : action_stimuli_) {
    if (r.action != event.action) continue;
    if (r.archetype == agent.archetype) {
      found = &r;
      break;
    }
    if (r.archetype == ResolvedStimulus::kAnyArchetype && !found) found = &r;
  }
  if (!found) return;
  const Entity* body = world_.entities().get(agent.entity);
  if (!body) return;
  // Where it happened: at what the action concerned if it is still there (Give's receiver,
  // the dropped object), else where the actor stands (a taken object is gone; a client-side
  // action's door is within the actor's reach).
  const Entity* subject = world_.entities().get(event.subject);
  const Vec3 at = subject ? subject->position : body->position;
  if (found->sound_radius_m > 0.f) {
    Sound sound;
    // Anonymous: a door opening is not an agent's movement, so its own kind does not filter
    // it out as friendly noise, and the actor hears it too.
    sound.source = EntityId::kNone;
    sound.position = at;
    sound.radius_m = found->sound_radius_m;
    sound.kind = found->sound_kind;
    wakePlacesReachedBy(at, sound.radius_m, "a sound");
    perception_.addSound(sound);  // a full tick's queue drops it, as any other sound
    noteCrossing(sound);
  }
  if (found->signal != SignalId::kNone) {
    SignalRequest request;
    request.id = found->signal;
    request.scope = SignalScope::kRadius;
    request.sender = agent.id;
    request.subject = event.subject;
    request.position = at;
    request.radius_m = found->signal_radius_m;
    request.action = event.action;
    perception_.postSignal(request);
    noteCrossing(request);
  }
}

void Simulation::signalExternalAction(EntityId agent, EntityId from, const std::string& action) {
  SignalRequest request;
  request.id = external_action_signal_;
  request.scope = SignalScope::kAgent;
  request.target = agent;
  request.sender = from;
  request.subject = from;
  if (const Entity* actor = world_.entities().get(from)) request.position = actor->position;
  if (!action.empty()) request.action = names_.intern(action);
  perception_.postSignal(request);
}

}  // namespace npc
