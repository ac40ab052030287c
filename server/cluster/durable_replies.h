// DurableReplies: a cluster node answers a client's command only once Redis has it. A
// command on a place held here is applied by the tick and recorded into the place's input
// stream after the tick (NpcCourier, on its own thread); a node killed in between loses it,
// and with it the place's next holder does not apply it again. So the command's reply (an
// admin RPC's answer) is held back: its entry in the input stream is numbered when the tick's
// inputs are handed to the courier, and the answer goes out once the courier has settled
// that entry — stored (the answer as the simulation gave it), or not (the lease was lost,
// or the queue overflowed: UNAVAILABLE, "not kept"). A refusal is answered at once: nothing
// of it needs keeping. Stream updates have no answer and are not held.
//
// Thread: tick thread (the recorder, afterTick and stop all run there).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "sim/commands.h"
#include "world/ids.h"
#include "world/world.h"

namespace npc {

class DurableReplies {
 public:
  // Wraps `command`'s reply, if it has one, so that a successful answer waits for the
  // input entries of `places` (kNone for none; at least one not kNone).
  void hold(Command& command, std::array<PlaceIndex, 2> places);
  // After the tick: `place`'s inputs of it are the courier's entry `number`.
  void recorded(PlaceIndex place, uint64_t number);
  // After recorded(): the answers given this tick wait for their places' latest entries.
  void numberTick();
  // The courier settled every entry up to `through`; `lost` are those Redis did not store.
  // Answers what waited for them (a lost place named from `world`); returns how many.
  size_t settle(uint64_t through, std::span<const uint64_t> lost, const World& world);
  // Answers everything still waiting with UNAVAILABLE `why` (the node stops).
  void abandon(const std::string& why);
  size_t waiting() const { return given_.size() + numbered_.size(); }

 private:
  struct Held {
    std::array<PlaceIndex, 2> places{PlaceIndex::kNone, PlaceIndex::kNone};
    std::array<uint64_t, 2> entries{};  // the courier's numbers, 0 for none
    Status status;
    std::function<void(const Status&)> answer;  // the original reply, its other values bound
  };
  template <class... Args>
  void wrap(std::function<void(const Status&, Args...)>& reply, std::array<PlaceIndex, 2> places);

  std::vector<uint64_t> latest_;  // by place: its last entry number
  std::vector<Held> given_;       // answered this tick, entries not numbered yet
  std::deque<Held> numbered_;
  std::set<uint64_t> lost_;       // entries Redis did not store, not yet matched
};

}  // namespace npc
