// EpochFence: a game client's side of the cluster's lease fencing (README "Cluster"). Each
// action carries the lease epoch of its place, and a place's epochs only grow, so an action
// whose epoch is below one already seen for its place comes from a node that lost the place
// and is still speaking (a paused process, bytes in flight): the game must not carry it out.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace npc::bots {

class EpochFence {
 public:
  // Whether to carry out an action of `place` at `epoch` (and remember the epoch).
  bool accept(const std::string& place, uint64_t epoch) {
    uint64_t& highest = highest_[place];
    if (epoch < highest) return false;
    highest = epoch;
    return true;
  }

 private:
  std::map<std::string, uint64_t> highest_;
};

}  // namespace npc::bots
