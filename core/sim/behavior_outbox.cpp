#include "sim/behavior_outbox.h"

namespace npc {

BehaviorOutbox::BehaviorOutbox(const ActionRegistry& registry, size_t event_capacity)
    : event_storage_(event_capacity), events_(event_storage_) {
  intentions_.registry = &registry;
  intentions_.ids = &ids_;
  intentions_.events = &events_;
}

IntentionId BehaviorOutbox::firstProvisionalId(uint64_t tick, uint32_t lane) {
  constexpr uint64_t kTickMask = (uint64_t{1} << 37) - 1;
  return static_cast<IntentionId>((uint64_t{1} << 63) | (tick & kTickMask) << 26 |
                                  uint64_t{lane & 63u} << 20);
}

void BehaviorOutbox::clear() {
  events_.clear();
  signals_.clear();
  logs_.clear();
  texts_.clear();
  errors_.clear();
  agents_.clear();
}

void BehaviorOutbox::beginLane(uint64_t tick, uint32_t lane, double now_s) {
  ids_ = IntentionIdSource(raw(firstProvisionalId(tick, lane)));
  intentions_.now_s = now_s;
}

void BehaviorOutbox::beginAgent() {
  open_.events_begin = static_cast<uint32_t>(events_.size());
  open_.signals_begin = static_cast<uint32_t>(signals_.size());
  open_.logs_begin = static_cast<uint32_t>(logs_.size());
  open_.errors_begin = static_cast<uint32_t>(errors_.size());
  open_.first_id = static_cast<IntentionId>(ids_.peek());
}

int64_t BehaviorOutbox::endAgent() {
  open_.events_end = static_cast<uint32_t>(events_.size());
  open_.signals_end = static_cast<uint32_t>(signals_.size());
  open_.logs_end = static_cast<uint32_t>(logs_.size());
  open_.errors_end = static_cast<uint32_t>(errors_.size());
  open_.new_intentions = static_cast<uint32_t>(ids_.peek() - raw(open_.first_id));
  const bool left_nothing = open_.events_end == open_.events_begin &&
                            open_.signals_end == open_.signals_begin &&
                            open_.logs_end == open_.logs_begin &&
                            open_.errors_end == open_.errors_begin && open_.new_intentions == 0;
  if (left_nothing) return -1;
  agents_.push_back(open_);
  return static_cast<int64_t>(agents_.size() - 1);
}

void BehaviorOutbox::log(const MbtLogMessage& message) {
  LogRecord& r = logs_.emplace_back();
  r.message = message;
  r.message.text = {};
  r.text_begin = static_cast<uint32_t>(texts_.size());
  texts_.append(message.text);
  r.text_end = static_cast<uint32_t>(texts_.size());
}

MbtLogMessage BehaviorOutbox::logMessage(const AgentEffects& a, uint32_t i) const {
  const LogRecord& r = logs_[a.logs_begin + i];
  MbtLogMessage message = r.message;
  message.text = std::string_view(texts_).substr(r.text_begin, r.text_end - r.text_begin);
  return message;
}

}  // namespace npc
