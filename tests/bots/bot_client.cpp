#include "bot_client.h"

#include <algorithm>
#include <utility>

#include "frame_split.h"

namespace npc::bots {

namespace {

constexpr auto kWelcomeWait = std::chrono::seconds(5);
constexpr auto kCloseWait = std::chrono::seconds(10);
constexpr size_t kMaxErrorTexts = 20;

}  // namespace

BotClient::BotClient(const Scenario& scenario, uint32_t index,
                     std::shared_ptr<grpc::Channel> channel, std::string token,
                     Clock::time_point epoch, double deadline_s)
    : scenario_(scenario),
      stub_(v1::NpcSim::NewStub(std::move(channel))),
      epoch_(epoch),
      game_(scenario, index) {
  if (!token.empty()) context_.AddMetadata("authorization", "Bearer " + token);
  // gRPC deadlines are system_clock; a backstop only, the run ends well before it.
  context_.set_deadline(std::chrono::system_clock::now() +
                        std::chrono::duration_cast<std::chrono::system_clock::duration>(
                            std::chrono::duration<double>(deadline_s)));
  // A connection attempt that fails (16 clients dialling a daemon busy spawning once lost
  // one to a refused connect) is retried, as a game server would, instead of failing the
  // stream; the Welcome wait below still bounds how long a client waits.
  context_.set_wait_for_ready(true);
}

BotClient::~BotClient() {
  stop();
  join();
}

void BotClient::start() { game_thread_ = std::thread([this] { gameLoop(); }); }

void BotClient::stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
}

void BotClient::join() {
  if (game_thread_.joinable()) game_thread_.join();
}

ClientCounters BotClient::counters() const {
  std::lock_guard lock(mutex_);
  return counters_;
}

void BotClient::takeSamples(std::vector<LatencySample>& out) {
  std::lock_guard lock(mutex_);
  out.insert(out.end(), samples_.begin(), samples_.end());
  samples_.clear();
}

std::vector<std::string> BotClient::errorTexts() const {
  std::lock_guard lock(mutex_);
  return error_texts_;
}

double BotClient::now() const {
  return std::chrono::duration<double>(Clock::now() - epoch_).count();
}

void BotClient::fail(const std::string& why) {
  std::lock_guard lock(mutex_);
  if (counters_.failed) return;
  counters_.failed = true;
  counters_.failure = why;
}

void BotClient::gameLoop() {
  stream_ = stub_->Connect(&context_);
  reader_thread_ = std::thread([this] { readLoop(); });

  bool welcomed;
  {
    std::unique_lock lock(mutex_);
    welcomed = wake_.wait_for(lock, kWelcomeWait, [&] {
      return counters_.welcomed || reader_done_.load() || stopping_.load();
    }) && counters_.welcomed;
  }
  bool stream_ok = welcomed;
  if (!welcomed && !reader_done_ && !stopping_) {
    fail("no Welcome within 5 s");
    context_.TryCancel();
  }

  const auto period = std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(1.0 / scenario_.rate_hz));
  auto next = Clock::now();
  double last_s = now();
  uint64_t seq = 0;
  v1::WorldUpdate update;  // reused: Clear() keeps the entities' storage
  std::vector<v1::WorldUpdate> parts;  // what goes out: the frame, split if too large
  std::vector<ActionOrder> orders;
  while (stream_ok && !stopping_ && !reader_done_) {
    const double t = now();
    {
      std::lock_guard lock(mutex_);
      orders.swap(orders_);
    }
    uint64_t foreign = 0;
    for (const ActionOrder& o : orders) {
      if (!game_.start(o, t) && !o.ended_by_daemon) ++foreign;  // others' failures: not ours
    }
    orders.clear();

    update.Clear();
    update.set_seq(++seq);
    if (seq == 1) {
      v1::Subscription* sub = update.mutable_subscribe();
      for (const std::string& name : scenario_.subscribe_events) {
        sub->add_events(static_cast<v1::EventKind>(eventKindValue(name)));
      }
    }
    FrameCounts counts;
    const auto build_begin = Clock::now();
    game_.frame(t, t - last_s, update, counts);
    last_s = t;
    // A frame over the daemon's per-update limit goes out in parts (frame_split.h).
    const size_t sent = splitFrame(update, scenario_.max_items_per_update, parts);
    seq += sent - 1;
    const auto write_begin = Clock::now();
    for (size_t i = 0; i < sent && stream_ok; ++i) stream_ok = stream_->Write(parts[i]);
    const auto write_end = Clock::now();

    uint64_t late = 0;
    next += period;
    if (write_end > next + period) {
      const auto behind = (write_end - next) / period;
      next += behind * period;
      late = static_cast<uint64_t>(behind);
    }
    const double build_s = std::chrono::duration<double>(write_begin - build_begin).count();
    const double write_s = std::chrono::duration<double>(write_end - write_begin).count();
    std::unique_lock lock(mutex_);
    counters_.messages_sent += sent;
    counters_.split_frames += sent > 1 ? 1 : 0;
    counters_.items += counts;
    counters_.foreign_actions += foreign;
    counters_.late_frames += late;
    // Lateness is the harness's own when building the frame took longer than writing it,
    // the daemon's (reads paused: flow control) otherwise.
    (build_s >= write_s ? counters_.late_frames_own : counters_.late_frames_daemon) += late;
    counters_.build_s += build_s;
    counters_.build_max_s = std::max(counters_.build_max_s, build_s);
    counters_.write_s += write_s;
    counters_.write_max_s = std::max(counters_.write_max_s, write_s);
    counters_.superseded = game_.superseded();
    counters_.ended_by_daemon = game_.endedByDaemon();
    counters_.longest_action_s = game_.longestActionS();
    wake_.wait_until(lock, next, [&] { return stopping_.load() || reader_done_.load(); });
  }

  if (stream_ok && !reader_done_) {
    update.Clear();
    update.set_seq(++seq);
    FrameCounts counts;
    game_.farewell(update, counts);
    const size_t n = counts.items() > 0 ? splitFrame(update, scenario_.max_items_per_update, parts) : 0;
    bool written = n > 0;
    for (size_t i = 0; i < n && written; ++i) written = stream_->Write(parts[i]);
    if (written) {
      std::lock_guard lock(mutex_);
      counters_.messages_sent += n;
      counters_.items += counts;
    }
    stream_->WritesDone();
  }
  // The daemon ends the stream two ticks after the half-close.
  {
    std::unique_lock lock(mutex_);
    if (!wake_.wait_for(lock, kCloseWait, [&] { return reader_done_.load(); })) {
      lock.unlock();
      context_.TryCancel();
    }
  }
  reader_thread_.join();
  const grpc::Status status = stream_->Finish();
  if (!status.ok()) {
    static const char* const kCodes[] = {
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
        "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED"};
    const int code = static_cast<int>(status.error_code());
    fail(std::string(code >= 0 && code <= 16 ? kCodes[code] : "code " + std::to_string(code)) +
         ": " + status.error_message());
  } else if (!stopping_) {
    fail("the daemon ended the stream before the run did");
  }
}

void BotClient::readLoop() {
  v1::ServerMessage message;
  std::vector<ActionOrder> orders;
  while (stream_->Read(&message)) {
    const double t = now();
    // The daemon's own failures (timeouts) first: a tick ingests and expires before it
    // decides, so an agent's next action never precedes the end of its previous one.
    orders.clear();
    uint64_t actions = 0;
    for (const v1::Event& e : message.events()) {
      if (e.kind() == v1::EVENT_KIND_INTENTION_FAILED && e.agent() != 0) {
        ActionOrder o;
        o.agent = e.agent();
        o.ended_by_daemon = true;
        orders.push_back(std::move(o));
      }
    }
    uint64_t stale = 0;
    for (const v1::Action& a : message.actions()) {
      if (!fence_.accept(a.place(), a.epoch())) {  // a node that lost the place, late
        ++stale;
        continue;
      }
      orders.push_back(toOrder(a));
      ++actions;
    }

    std::lock_guard lock(mutex_);
    ++counters_.messages_received;
    if (message.has_welcome()) {
      counters_.welcomed = true;
      counters_.client_id = message.welcome().client_id();
      counters_.tick_dt_s = message.welcome().tick_dt();
      wake_.notify_all();
    }
    if (counters_.tick_dt_s > 0.0 && !message.has_welcome()) {  // the Welcome is off-grid
      samples_.push_back({t, t - static_cast<double>(message.tick()) * counters_.tick_dt_s,
                          static_cast<uint32_t>(actions)});
    }
    counters_.actions += actions;
    counters_.stale_actions += stale;
    orders_.insert(orders_.end(), orders.begin(), orders.end());
    for (const v1::Event& e : message.events()) {
      if (e.kind() == v1::EVENT_KIND_ERROR) {
        ++counters_.error_events;
        if (error_texts_.size() < kMaxErrorTexts) {
          error_texts_.push_back("seq " + std::to_string(e.seq()) + ": " + e.text());
        }
      } else {
        ++counters_.other_events;
      }
    }
  }
  {
    std::lock_guard lock(mutex_);
    reader_done_ = true;
  }
  wake_.notify_all();
}

}  // namespace npc::bots
