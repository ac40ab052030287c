#include "intent_codec.h"

#include <cstring>
#include <type_traits>

#include "zero_runs.h"

namespace npc {

void encodeIntent(const AgentCopy& agent, NameList actions, pb::IntentState& out) {
  for (ActionListId list : agent.intent.access.influences()) {
    out.add_influences(static_cast<uint32_t>(list));
  }
  const IntentionQueue& queue = agent.intent.queue;
  for (uint8_t i = 0; i < queue.size(); ++i) {
    const Intention& in = queue.at(i);
    pb::IntentionState& o = *out.add_queue();
    o.set_id(raw(in.id));
    o.set_action(nameAt(actions, raw(in.action)));
    o.set_started(in.started());
    o.set_date_s(in.date_s);
    o.set_started_s(in.started_s);
    o.set_flags(in.flags);
    o.set_progress(in.progress);
  }
  out.set_actions_completed(agent.actions_completed);
  out.set_actions_failed(agent.actions_failed);
  static_assert(std::is_trivially_copyable_v<IntentionQueue>, "the queue is copied as bytes");
  pb::IntentRunState& run = *out.mutable_run();
  static const std::string fresh = freshBytes<IntentionQueue>();
  run.set_queue(packAgainst({reinterpret_cast<const char*>(&queue), sizeof queue}, fresh));
  run.set_access_version(agent.intent.access.version());
  run.set_access_refused(agent.intent.access.refused());
  for (const Agent::Outcome& o : agent.recent_outcomes) {
    pb::IntentionOutcome& e = *run.add_recent_outcomes();
    e.set_intention(raw(o.intention));
    if (o.handle != o.intention) e.set_handle(raw(o.handle));
    e.set_succeeded(o.succeeded);
  }
  run.set_next_outcome(agent.next_outcome);
  for (const Agent::SentAction& a : agent.sent_actions) {
    pb::SentAction& e = *run.add_sent_actions();
    e.set_intention(raw(a.intention));
    e.set_to(static_cast<uint32_t>(a.to));
  }
  run.set_next_sent(agent.next_sent);
}

bool decodeIntentRun(const pb::IntentState& in, AgentRecord::Exact& out) {
  const pb::IntentRunState& run = in.run();
  static const std::string fresh = freshBytes<IntentionQueue>();
  const std::optional<std::string> queue = unpackAgainst(run.queue(), fresh);
  if (!in.has_run() || !queue ||
      run.recent_outcomes_size() != static_cast<int>(out.recent_outcomes.size()) ||
      run.sent_actions_size() != static_cast<int>(out.sent_actions.size())) {
    return false;
  }
  std::memcpy(static_cast<void*>(&out.queue), queue->data(), sizeof(IntentionQueue));
  out.access_version = run.access_version();
  out.access_refused = run.access_refused();
  for (size_t i = 0; i < out.recent_outcomes.size(); ++i) {
    const pb::IntentionOutcome& e = run.recent_outcomes(static_cast<int>(i));
    const IntentionId id{e.intention()};
    out.recent_outcomes[i] = {id, e.handle() != 0 ? IntentionId{e.handle()} : id, e.succeeded()};
  }
  out.next_outcome = static_cast<uint8_t>(run.next_outcome() % out.recent_outcomes.size());
  for (size_t i = 0; i < out.sent_actions.size(); ++i) {
    const pb::SentAction& e = run.sent_actions(static_cast<int>(i));
    out.sent_actions[i] = {IntentionId{e.intention()}, static_cast<ClientId>(e.to())};
  }
  out.next_sent = static_cast<uint8_t>(run.next_sent() % out.sent_actions.size());
  return true;
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
