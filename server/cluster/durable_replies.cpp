#include "cluster/durable_replies.h"

#include <algorithm>
#include <tuple>
#include <type_traits>
#include <utility>

namespace npc {

template <class... Args>
void DurableReplies::wrap(std::function<void(const Status&, Args...)>& reply, std::array<PlaceIndex, 2> places) {
  if (!reply) return;
  reply = [this, inner = std::move(reply), places](const Status& s, Args... args) {
    if (!s.isOk()) {
      inner(s, args...);  // refused: nothing was applied, nothing to keep
      return;
    }
    Held h;
    h.places = places;
    h.status = s;
    h.answer = [inner, values = std::tuple<std::decay_t<Args>...>(args...)](const Status& final) {
      std::apply([&](const auto&... v) { inner(final, v...); }, values);
    };
    given_.push_back(std::move(h));
  };
}

void DurableReplies::hold(Command& command, std::array<PlaceIndex, 2> places) {
  std::visit(
      [&](auto& c) {
        if constexpr (requires { c.reply; }) wrap(c.reply, places);
      },
      command.body);
}

void DurableReplies::recorded(PlaceIndex place, uint64_t number) {
  if (place == PlaceIndex::kNone) return;
  if (raw(place) >= latest_.size()) latest_.resize(raw(place) + 1, 0);
  latest_[raw(place)] = number;
}

void DurableReplies::numberTick() {
  for (Held& h : given_) {
    for (size_t i = 0; i < h.places.size(); ++i) {
      const PlaceIndex p = h.places[i];
      if (p != PlaceIndex::kNone && raw(p) < latest_.size()) h.entries[i] = latest_[raw(p)];
    }
    numbered_.push_back(std::move(h));
  }
  given_.clear();
}

size_t DurableReplies::settle(uint64_t through, std::span<const uint64_t> lost, const World& world) {
  lost_.insert(lost.begin(), lost.end());
  size_t answered = 0;
  for (auto it = numbered_.begin(); it != numbered_.end();) {
    const uint64_t last = std::max(it->entries[0], it->entries[1]);
    if (last > through) {
      ++it;
      continue;
    }
    Status status = it->status;
    for (size_t i = 0; i < it->entries.size(); ++i) {
      if (it->entries[i] == 0 || !lost_.count(it->entries[i])) continue;
      const Place* place = world.place(it->places[i]);
      status = {StatusCode::kUnavailable,
                "cluster: place \"" + (place ? place->name : std::string("?")) +
                    "\" was given up before Redis stored this command: it is not kept, send it to the place's holder"};
      break;
    }
    it->answer(status);
    it = numbered_.erase(it);
    ++answered;
  }
  // Entries settled long ago can no longer be waited for.
  while (lost_.size() > 4096) lost_.erase(lost_.begin());
  return answered;
}

void DurableReplies::abandon(const std::string& why) {
  numberTick();
  for (Held& h : numbered_) h.answer({StatusCode::kUnavailable, why});
  numbered_.clear();
}

}  // namespace npc
