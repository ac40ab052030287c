#include "stream_load.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <utility>

#include "base/thread_name.h"

namespace npc::bench {

namespace {

// Long enough for any bench run; a server that stops answering fails the stream instead
// of hanging the bench.
constexpr std::chrono::seconds kStreamDeadline{600};
// NPCs stand on a grid this far apart, so perception has neighbours to look at.
constexpr float kSpacingM = 2.f;
// How far every body moves each frame (back and forth): the upsert carries a change.
constexpr float kJitterM = 0.05f;
// Copying sample actions for every message would cost the reader more than the rest.
constexpr uint64_t kSampleEvery = 256;

std::shared_ptr<grpc::Channel> ownConnection(const std::string& target, size_t index) {
  grpc::ChannelArguments args;
  // One TCP connection per stream, as separate game servers would have (as the bots do).
  args.SetInt(GRPC_ARG_USE_LOCAL_SUBCHANNEL_POOL, 1);
  args.SetInt("npcd_stream_bench.stream", static_cast<int>(index));
  args.SetMaxReceiveMessageSize(-1);
  return grpc::CreateCustomChannel(target, grpc::InsecureChannelCredentials(), args);
}

void setPosition(v1::Entity* e, float x, float y) {
  e->mutable_position()->set_x(x);
  e->mutable_position()->set_y(y);
  e->mutable_position()->set_z(0.f);
}

}  // namespace

struct StreamLoad::Stream {
  size_t index = 0;
  std::unique_ptr<v1::NpcSim::Stub> stub;
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReaderWriter<v1::WorldUpdate, v1::ServerMessage>> stream;
  std::thread writer;
  std::thread reader;

  std::mutex mutex;
  std::vector<std::pair<uint64_t, uint64_t>> finished_actions;  // guarded by mutex: (agent, intention)

  std::atomic<uint64_t> updates_sent{0};
  std::atomic<uint64_t> update_bytes{0};
  std::atomic<uint64_t> results_sent{0};
  std::atomic<uint64_t> messages_received{0};
  std::atomic<uint64_t> message_bytes{0};
  std::atomic<uint64_t> actions_received{0};
  std::atomic<uint64_t> error_events{0};
  std::atomic<bool> welcomed{false};
  std::string first_error;  // reader thread only until stop() joined it
};

StreamLoad::StreamLoad(const LoadShape& shape, const std::string& target)
    : shape_(shape), target_(target) {}

StreamLoad::~StreamLoad() {
  for (auto& s : streams_) {
    s->context.TryCancel();
    if (s->writer.joinable()) s->writer.join();
    if (s->reader.joinable()) s->reader.join();
  }
}

void StreamLoad::start() {
  for (size_t i = 0; i < shape_.streams; ++i) {
    auto s = std::make_unique<Stream>();
    s->index = i;
    s->stub = v1::NpcSim::NewStub(ownConnection(target_, i));
    s->context.set_deadline(std::chrono::system_clock::now() + kStreamDeadline);
    s->stream = s->stub->Connect(&s->context);
    streams_.push_back(std::move(s));
  }
  for (auto& s : streams_) {
    // Named so that the bench can tell the client's CPU time from the server's.
    s->reader = std::thread([this, &s = *s] {
      setThreadName("load-reader");
      readLoop(s);
    });
    s->writer = std::thread([this, &s = *s] {
      setThreadName("load-writer");
      writeLoop(s);
    });
  }
}

std::vector<StreamEnd> StreamLoad::stop() {
  stopping_ = true;
  std::vector<StreamEnd> ends;
  for (auto& s : streams_) {
    s->writer.join();  // it half-closes on its way out
    s->reader.join();  // ends when the server finishes the stream
    ends.push_back({s->stream->Finish(), s->welcomed.load(), s->first_error});
  }
  return ends;
}

LoadCounts StreamLoad::counts() const {
  LoadCounts c;
  for (const auto& s : streams_) {
    c.updates_sent += s->updates_sent.load();
    c.update_bytes += s->update_bytes.load();
    c.results_sent += s->results_sent.load();
    c.messages_received += s->messages_received.load();
    c.message_bytes += s->message_bytes.load();
    c.actions_received += s->actions_received.load();
    c.error_events += s->error_events.load();
  }
  return c;
}

std::vector<v1::Action> StreamLoad::sampleActions() const {
  std::lock_guard lock(sample_mutex_);
  return sample_;
}

void StreamLoad::writeLoop(Stream& s) {
  // Ids per stream: NPCs from (index+1)*1,000,000 + 1, players from there + 500,000.
  const uint64_t base = (s.index + 1) * 1'000'000;
  const size_t side = static_cast<size_t>(std::ceil(std::sqrt(double(shape_.npcs_per_stream))));
  v1::WorldUpdate frame;
  std::vector<std::pair<float, float>> home;  // where each upserted body stands
  for (size_t i = 0; i < shape_.npcs_per_stream; ++i) {
    v1::Entity* e = frame.add_upserts();
    e->set_id(base + 1 + i);
    e->set_kind(v1::ENTITY_KIND_NPC);
    e->set_archetype(shape_.archetypes[i % shape_.archetypes.size()]);
    home.emplace_back(float(i % side) * kSpacingM, float(i / side) * kSpacingM);
  }
  for (size_t i = 0; i < shape_.players_per_stream; ++i) {
    v1::Entity* e = frame.add_upserts();
    e->set_id(base + 500'000 + i);
    e->set_kind(v1::ENTITY_KIND_PLAYER);
    // Players stand among the NPCs, one per row band.
    home.emplace_back(float(side / 2) * kSpacingM,
                      float((i * side) / std::max<size_t>(1, shape_.players_per_stream)) * kSpacingM);
  }
  const size_t bodies = static_cast<size_t>(frame.upserts_size());
  const size_t room = shape_.max_items_per_update > bodies ? shape_.max_items_per_update - bodies : 0;

  std::vector<std::pair<uint64_t, uint64_t>> owed;  // finished actions not yet reported
  std::vector<std::pair<uint64_t, uint64_t>> arrived;
  for (uint64_t seq = 1; !stopping_; ++seq) {
    frame.set_seq(seq);
    const float shift = (seq % 2 == 0) ? kJitterM : -kJitterM;
    for (size_t i = 0; i < bodies; ++i) {
      setPosition(frame.mutable_upserts(static_cast<int>(i)), home[i].first + shift, home[i].second);
    }
    {
      std::lock_guard lock(s.mutex);
      arrived.swap(s.finished_actions);
    }
    owed.insert(owed.end(), arrived.begin(), arrived.end());
    arrived.clear();
    frame.clear_results();
    const size_t reported = std::min(owed.size(), room);
    for (size_t i = 0; i < reported; ++i) {
      v1::ActionResult* r = frame.add_results();
      r->set_agent(owed[i].first);
      r->set_intention(owed[i].second);
      r->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);
    }
    owed.erase(owed.begin(), owed.begin() + static_cast<std::ptrdiff_t>(reported));
    const size_t bytes = frame.ByteSizeLong();
    if (!s.stream->Write(frame)) break;  // the server ended the stream
    s.updates_sent.fetch_add(1, std::memory_order_relaxed);
    s.update_bytes.fetch_add(bytes, std::memory_order_relaxed);
    s.results_sent.fetch_add(reported, std::memory_order_relaxed);
  }
  s.stream->WritesDone();
}

void StreamLoad::readLoop(Stream& s) {
  v1::ServerMessage message;
  bool first = true;
  while (s.stream->Read(&message)) {
    if (first) {
      s.welcomed = message.has_welcome();
      first = false;
    }
    const uint64_t n = s.messages_received.fetch_add(1, std::memory_order_relaxed) + 1;
    s.message_bytes.fetch_add(message.ByteSizeLong(), std::memory_order_relaxed);
    for (const v1::Event& e : message.events()) {
      if (e.kind() != v1::EVENT_KIND_ERROR) continue;
      s.error_events.fetch_add(1, std::memory_order_relaxed);
      if (s.first_error.empty()) s.first_error = e.text();
    }
    if (message.actions_size() == 0) continue;
    s.actions_received.fetch_add(static_cast<uint64_t>(message.actions_size()),
                                 std::memory_order_relaxed);
    {
      std::lock_guard lock(s.mutex);
      for (const v1::Action& a : message.actions()) {
        s.finished_actions.emplace_back(a.agent(), a.intention());
      }
    }
    std::lock_guard lock(sample_mutex_);
    if (sample_.empty() || n % kSampleEvery == 0) {
      sample_.assign(message.actions().begin(), message.actions().end());
    }
  }
}

}  // namespace npc::bench
