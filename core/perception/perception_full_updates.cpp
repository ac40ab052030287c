// PerceptionSystem: which agents get a full update this tick, and running them on the tick
// thread alone or on a worker pool (step 5 of update()). Kept apart from
// perception_system.cpp, which holds what one full update does.
//
// On a pool the outcome is the one-thread outcome, whatever the thread timing:
//   1. the tick thread lists the due agents in visiting order (the cursor first), from the
//      flags the workers set while gathering the roster (perception_system.cpp);
//   2. with a ray budget, workers list due agents' sight lines, a block at a time (the
//      candidate, species and field-of-view tests a full update makes, without casting), and
//      the tick thread cuts the list where the one-thread loop would have run out of rays;
//      the full updates of step 3 follow those lists instead of querying the grid again;
//   3. worker w runs the full updates of the w-th contiguous slice of the list, writing only
//      those agents' PerceptionState and its own Lane (signals, counters, scratch);
//   4. the tick thread appends the lanes' signals in lane order, which is visiting order.
#include <algorithm>

#include "base/prefetch.h"
#include "base/worker_pool.h"
#include "perception/full_update_schedule.h"
#include "perception/perception_system.h"
#include "world/world.h"

namespace npc {

namespace {

// Due agents whose rays one worker counts per round when a ray budget is set: small enough
// that little is counted past the cut, large enough that a round outweighs waking workers.
constexpr size_t kRayCountBlockPerWorker = 256;

// Worker w's slice of `count` items: [begin, end).
std::pair<size_t, size_t> sliceOf(unsigned worker, unsigned workers, size_t count) {
  return {count * worker / workers, count * (worker + 1) / workers};
}

}  // namespace

void PerceptionSystem::fullUpdatesInline(const World& world, std::span<const Perceiver> perceivers,
                                         uint64_t tick, double now_s) {
  const EntityTable& entities = world.entities();
  Lane& lane = *lanes_[0];
  const uint64_t period = std::max<uint32_t>(config_.full_update_period_ticks, 1);
  const size_t n = perceivers.size();
  const size_t start = n ? cursor_ % n : 0;
  bool exhausted = false;
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    if (!roster_[i].due) continue;
    PerceptionState* st = perceivers[i].state;
    const Entity* self = entities.get(perceivers[i].entity);
    if (!exhausted && config_.max_rays_per_tick != 0 &&
        lane.stats.rays >= config_.max_rays_per_tick) {
      exhausted = true;
      cursor_ = i;  // the first agent left waiting goes first next tick
    }
    if (exhausted) {
      ++last_.deferred_updates;
      continue;
    }
    fullUpdate(world, *self, roster_[i].row, *st, now_s, lane);
    st->next_full_update_tick = firstTickAtOrAfter(tick + 1, fullUpdatePhase(self->id, period), period);
  }
}

void PerceptionSystem::fullUpdatesOnPool(const World& world, std::span<const Perceiver> perceivers,
                                         uint64_t tick, double now_s, WorkerPool& pool,
                                         SignalQueue& out) {
  const EntityTable& entities = world.entities();
  const unsigned workers = pool.size();
  while (lanes_.size() < workers) lanes_.push_back(std::make_unique<Lane>());
  for (unsigned w = 1; w < workers; ++w) {
    Lane& lane = *lanes_[w];
    if (lane.own.capacity() != out.capacity()) {
      lane.own = SignalQueue(out.capacity());
      lane.dropped_before = 0;
    }
    lane.own.clear();
    lane.out = &lane.own;
    lane.candidates.resize(lanes_[0]->candidates.size());
  }

  // 1. The due agents, in the order the one-thread loop visits them.
  const uint64_t period = std::max<uint32_t>(config_.full_update_period_ticks, 1);
  const size_t n = perceivers.size();
  const size_t start = n ? cursor_ % n : 0;
  due_.clear();
  for (size_t k = 0; k < n; ++k) {
    const size_t i = (start + k) % n;
    if (roster_[i].due) due_.push_back(static_cast<uint32_t>(i));
  }

  // 2. The ray budget: the one-thread loop stops before the first due agent that finds
  // the budget spent. Rays are counted a block at a time, so that agents far past the cut
  // (most of them at 100,000 agents) are not looked at.
  // The sight lines found while counting are kept for step 3, so the grid is queried once.
  size_t run = due_.size();
  const bool listed = config_.max_rays_per_tick != 0;
  if (listed) {
    due_sight_.resize(due_.size());
    for (unsigned w = 0; w < workers; ++w) lanes_[w]->sight_lines.clear();
    const size_t block = static_cast<size_t>(workers) * kRayCountBlockPerWorker;
    uint64_t rays = 0;
    for (size_t b0 = 0; b0 < due_.size() && run == due_.size(); b0 += block) {
      const size_t b1 = std::min(due_.size(), b0 + block);
      pool.run([&](unsigned w) {
        const auto [begin, end] = sliceOf(w, workers, b1 - b0);
        for (size_t j = b0 + begin; j < b0 + end; ++j) {
          const Perceiver& p = perceivers[due_[j]];
          due_sight_[j] = listSightLines(*entities.get(p.entity), entities.rowOf(p.entity),
                                         *p.state, *lanes_[w], w);
        }
      });
      for (size_t j = b0; j < b1; ++j) {
        if (rays >= config_.max_rays_per_tick) {
          run = j;
          cursor_ = due_[j];
          break;
        }
        rays += due_sight_[j].rays;
      }
    }
    last_.deferred_updates += due_.size() - run;
  }

  // 3. The full updates, one slice per worker.
  pool.run([&](unsigned w) {
    Lane& lane = *lanes_[w];
    const auto [begin, end] = sliceOf(w, workers, run);
    for (size_t j = begin; j < end; ++j) {
      const Perceiver& p = perceivers[due_[j]];
      const Entity& self = *entities.get(p.entity);
      fullUpdate(world, self, entities.rowOf(p.entity), *p.state, now_s, lane,
                 listed ? &due_sight_[j] : nullptr);
      p.state->next_full_update_tick =
          firstTickAtOrAfter(tick + 1, fullUpdatePhase(self.id, period), period);
    }
  });

  // 4. Lane 0 wrote to `out` directly; the others follow in order. Pushes `out` refuses are
  // counted as dropped, as they would have been on one thread.
  for (unsigned w = 1; w < workers; ++w) {
    Lane& lane = *lanes_[w];
    uint64_t sent = 0;
    for (const Signal& signal : lane.own.signals()) sent += out.push(signal) ? 1 : 0;
    lane.stats.signals_sent = sent;
    out.countDropped(lane.own.dropped() - lane.dropped_before);
    lane.dropped_before = lane.own.dropped();
  }
}

}  // namespace npc
