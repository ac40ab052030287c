#include "intent_codec.h"

namespace npc {

void encodeIntent(const Agent& agent, const NameTable& actions, pb::IntentState& out) {
  for (ActionListId list : agent.intent.access.influences()) {
    out.add_influences(static_cast<uint32_t>(list));
  }
  const IntentionQueue& queue = agent.intent.queue;
  for (uint8_t i = 0; i < queue.size(); ++i) {
    const Intention& in = queue.at(i);
    pb::IntentionState& o = *out.add_queue();
    o.set_id(raw(in.id));
    o.set_action(actions.name(in.action));
    o.set_started(in.started());
    o.set_date_s(in.date_s);
    o.set_started_s(in.started_s);
    o.set_flags(in.flags);
    o.set_progress(in.progress);
  }
  out.set_actions_completed(agent.actions_completed);
  out.set_actions_failed(agent.actions_failed);
}

void decodeIntent(const pb::IntentState& in, SimStateAccess& access, AgentRecord& out) {
  out.influences.clear();
  for (uint32_t list : in.influences()) out.influences.push_back(static_cast<ActionListId>(list));
  out.interrupted.clear();
  for (const pb::IntentionState& i : in.queue()) {
    if (!i.started()) continue;
    out.interrupted.push_back({IntentionId{i.id()}, access.internAction(i.action()), i.progress()});
  }
  out.actions_completed = in.actions_completed();
  out.actions_failed = in.actions_failed();
}

}  // namespace npc
