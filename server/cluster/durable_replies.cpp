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

// Searched from the back: an update's commands come one after another, so their client's
// records are the last ones made, and a tick of many clients and places costs a few steps a
// command rather than a walk over all of them.
void DurableReplies::holdStream(ClientId client, uint64_t seq, std::array<PlaceIndex, 2> places) {
  StreamTick& t = given_stream_;
  auto highest = std::find_if(t.highest.rbegin(), t.highest.rend(),
                              [&](const StoredUpdate& h) { return h.client == client; });
  if (highest == t.highest.rend()) {
    t.highest.push_back({client, seq});
  } else {
    highest->seq = std::max(highest->seq, seq);
  }
  for (PlaceIndex place : places) {
    if (place == PlaceIndex::kNone) continue;
    auto run = std::find_if(t.runs.rbegin(), t.runs.rend(), [&](const StreamTick::Run& r) {
      return r.client == client && r.place == place;
    });
    if (run == t.runs.rend()) {
      t.runs.push_back({client, place, seq, seq, 0});
    } else {
      run->first_seq = std::min(run->first_seq, seq);
      run->last_seq = std::max(run->last_seq, seq);
    }
  }
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
  if (given_stream_.empty()) return;
  for (StreamTick::Run& run : given_stream_.runs) {
    if (raw(run.place) < latest_.size()) run.entry = latest_[raw(run.place)];
    given_stream_.last_entry = std::max(given_stream_.last_entry, run.entry);
  }
  if (open_ticks_ == stream_ticks_.size()) stream_ticks_.emplace_back();
  std::swap(stream_ticks_[open_ticks_++], given_stream_);  // the spare's capacity comes back
  given_stream_.clear();
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
  settleStreams(through, world);
  // Entries settled long ago can no longer be waited for.
  while (lost_.size() > 4096) lost_.erase(lost_.begin());
  return answered;
}

// Ticks settle in order: a tick whose entries are not all settled holds the later ones back,
// so that a client's stored_seq covers every update below it.
void DurableReplies::settleStreams(uint64_t through, const World& world) {
  stored_.clear();
  unkept_.clear();
  size_t settled = 0;
  for (; settled < open_ticks_ && stream_ticks_[settled].last_entry <= through; ++settled) {
    const StreamTick& t = stream_ticks_[settled];
    for (const StoredUpdate& h : t.highest) {
      auto mark = std::find_if(stored_.begin(), stored_.end(),
                               [&](const StoredUpdate& s) { return s.client == h.client; });
      if (mark == stored_.end()) {
        stored_.push_back(h);
      } else {
        mark->seq = std::max(mark->seq, h.seq);
      }
    }
    for (const StreamTick::Run& run : t.runs) {
      if (run.entry == 0 || !lost_.count(run.entry)) continue;
      const Place* place = world.place(run.place);
      unkept_.push_back({run.client, run.first_seq, run.last_seq, place ? place->name : std::string("?")});
    }
  }
  if (settled == 0) return;
  std::rotate(stream_ticks_.begin(), stream_ticks_.begin() + static_cast<ptrdiff_t>(settled),
              stream_ticks_.begin() + static_cast<ptrdiff_t>(open_ticks_));
  open_ticks_ -= settled;
  for (size_t i = open_ticks_; i < open_ticks_ + settled; ++i) stream_ticks_[i].clear();
}

void DurableReplies::abandon(const std::string& why) {
  numberTick();
  open_ticks_ = 0;  // the streams end with the node: nothing more is said on them
  for (Held& h : numbered_) h.answer({StatusCode::kUnavailable, why});
  numbered_.clear();
}

}  // namespace npc
