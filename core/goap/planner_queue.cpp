#include "goap/planner_queue.h"

#include <algorithm>

namespace npc::goap {

PlannerQueue::PlannerQueue(uint16_t capacity, uint16_t max_objects)
    : slots_(std::max<uint16_t>(capacity, 1)), fifo_(slots_.size()), max_objects_(max_objects) {
  for (Slot& s : slots_) s.objects.reserve(max_objects_);
}

PlannerQueue::Slot* PlannerQueue::slotOf(PlanTicket ticket) {
  const uint32_t t = static_cast<uint32_t>(ticket);
  const uint32_t index = (t & 0xffffu) - 1;
  if (t == 0 || index >= slots_.size()) return nullptr;
  Slot& s = slots_[index];
  return s.state != SlotState::kFree && s.generation == (t >> 16) ? &s : nullptr;
}

const PlannerQueue::Slot* PlannerQueue::slotOf(PlanTicket ticket) const {
  return const_cast<PlannerQueue*>(this)->slotOf(ticket);
}

PlanTicket PlannerQueue::submit(const PlanRequest& request) {
  if (count_ >= slots_.size()) return PlanTicket::kNone;
  size_t index = 0;
  while (index < slots_.size() && slots_[index].state != SlotState::kFree) ++index;
  if (index == slots_.size()) return PlanTicket::kNone;
  Slot& s = slots_[index];
  s.request = request;
  const size_t n = std::min<size_t>(request.objects.size(), max_objects_);
  dropped_objects_ += request.objects.size() - n;
  s.objects.assign(request.objects.begin(), request.objects.begin() + static_cast<ptrdiff_t>(n));
  s.request.objects = s.objects;
  const size_t t = std::min<size_t>(request.targets.size(), kMaxTargets);
  std::copy_n(request.targets.begin(), t, s.targets.begin());
  s.request.targets = {s.targets.data(), t};
  s.state = SlotState::kQueued;
  s.result.status = PlanStatus::kInProgress;
  fifo_[(head_ + count_) % fifo_.size()] = static_cast<uint16_t>(index);
  ++count_;
  return static_cast<PlanTicket>((uint32_t{s.generation} << 16) | static_cast<uint32_t>(index + 1));
}

uint32_t PlannerQueue::update(uint32_t max_expansions) {
  uint32_t spent = 0;
  while (spent < max_expansions) {
    if (running_ < 0) {
      if (count_ == 0) break;
      running_ = fifo_[head_];
      head_ = (head_ + 1) % fifo_.size();
      --count_;
      Slot& s = slots_[running_];
      s.state = SlotState::kRunning;
      ++spent;
      if (planner_.begin(s.request) != PlanStatus::kInProgress) {
        s.result = planner_.result();
        s.state = SlotState::kDone;
        running_ = -1;
      }
      continue;
    }
    Slot& s = slots_[running_];
    const uint32_t budget = max_expansions - spent;
    const uint32_t expanded_before = planner_.expansions();
    const PlanStatus st = planner_.step(budget);
    spent += std::max<uint32_t>(1, planner_.expansions() - expanded_before);
    if (st != PlanStatus::kInProgress) {
      s.result = planner_.result();
      s.state = SlotState::kDone;
      running_ = -1;
    }
  }
  return spent;
}

PlanStatus PlannerQueue::status(PlanTicket ticket) const {
  const Slot* s = slotOf(ticket);
  if (!s) return PlanStatus::kInvalidRequest;
  return s->state == SlotState::kDone ? s->result.status : PlanStatus::kInProgress;
}

const PlanResult* PlannerQueue::result(PlanTicket ticket) const {
  const Slot* s = slotOf(ticket);
  return s && s->state == SlotState::kDone ? &s->result : nullptr;
}

void PlannerQueue::release(PlanTicket ticket) {
  Slot* s = slotOf(ticket);
  if (!s) return;
  if (s->state == SlotState::kRunning) {
    planner_.cancel();
    running_ = -1;
  } else if (s->state == SlotState::kQueued) {
    // Remove it from the ring, keeping the order of the others.
    const auto index = static_cast<uint16_t>(s - slots_.data());
    size_t kept = 0;
    for (size_t i = 0; i < count_; ++i) {
      const uint16_t v = fifo_[(head_ + i) % fifo_.size()];
      if (v != index) fifo_[(head_ + kept++) % fifo_.size()] = v;
    }
    count_ = kept;
  }
  s->state = SlotState::kFree;
  ++s->generation;
  if (s->generation == 0) s->generation = 1;
}

}  // namespace npc::goap
