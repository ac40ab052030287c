// SleeperList: one place's sleeping agents, shareable with a snapshot capture.
//
// A world's sleepers are most of its agents (a million asleep beside ten thousand awake is
// the usual shape of a large world) and they change rarely: a place falls asleep or wakes,
// the game moves a sleeper's body, a client leaves. Copying them into every capture cost
// the tick thread a memcpy of 240 MB per million; sharing costs it one reference per place.
//
// share() hands out the rows as they are and marks them frozen: from then on they are
// never written again, by anyone. The next edit() makes the list a private copy first
// (copy on write, once per capture and changed place), so a capture being encoded on
// another thread never sees a change, and no thread has to ask whether the other still
// holds a reference: the last holder frees the old rows, whichever thread it is.
// Thread: the simulation's (tick) thread; shared rows may be read by any thread.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "hibernation/dormant_agent.h"

namespace npc {

class SleeperList {
 public:
  using Rows = std::vector<DormantAgent>;
  using Shared = std::shared_ptr<const Rows>;

  std::span<const DormantAgent> rows() const;
  size_t size() const { return rows_ ? rows_->size() : 0; }
  bool empty() const { return size() == 0; }
  const DormantAgent& operator[](size_t i) const { return (*rows_)[i]; }
  auto begin() const { return rows().begin(); }
  auto end() const { return rows().end(); }

  // The rows to change in place: a private copy first when a capture holds them.
  Rows& edit();
  // The rows, for a capture; frozen from now on (null when there are none).
  Shared share() const;
  // Moves the rows out and leaves the list empty (a place waking up).
  Rows take();
  // Heap bytes the list holds (shared rows count here until they are copied away).
  size_t capacityBytes() const { return rows_ ? rows_->capacity() * sizeof(DormantAgent) : 0; }
  // Gives back spare capacity (sleepers are many and change rarely).
  void shrinkToFit();

 private:
  std::shared_ptr<Rows> rows_;
  mutable bool shared_ = false;  // share() handed the rows out: edit() copies first
};

}  // namespace npc
