// What the daemon logs about its Connect clients (server/client_hub.cpp): each stream's
// arrival and departure at info, each error event sent to a client at debug, with who,
// which update and why.
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>

#include <catch2/catch.hpp>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;

namespace {

// Routes spdlog's default logger into a string for one scope, at debug level, text mode.
class CapturedLog {
 public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(out_);
    auto logger = std::make_shared<spdlog::logger>("captured", sink);
    logger->set_pattern("%l %v");
    logger->set_level(spdlog::level::debug);
    spdlog::set_default_logger(logger);
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  std::string text() {
    spdlog::default_logger()->flush();
    return out_.str();  // ostream_sink_mt writes under its own mutex; flush first
  }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream out_;
};

}  // namespace

TEST_CASE("Clients' streams and the errors sent to them are logged", "[grpc][logging]") {
  CapturedLog log;
  {
    TestServer server;
    StreamClient client(server.channel());
    const uint32_t id = client.waitWelcome();
    REQUIRE(id != 0);
    const std::string who = "client " + std::to_string(id);

    v1::WorldUpdate bad;  // refused at the edge: an NPC upsert with no archetype
    bad.set_seq(7);
    v1::Entity* e = addEntity(bad, 50, v1::ENTITY_KIND_NPC, 1.f, 1.f, "");
    e->clear_archetype();
    e->mutable_position()->set_x(std::numeric_limits<float>::quiet_NaN());
    REQUIRE(client.send(bad));
    v1::WorldUpdate unknown;  // refused by the tick thread: a result for no agent
    unknown.set_seq(8);
    v1::ActionResult* r = unknown.add_results();
    r->set_agent(999);
    r->set_intention(5);
    r->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);
    REQUIRE(client.send(unknown));
    REQUIRE(client.waitEvent([](const v1::Event& ev) {
      return ev.kind() == v1::EVENT_KIND_ERROR && ev.seq() == 8;
    }));
    REQUIRE(client.waitEvent([](const v1::Event& ev) {
      return ev.kind() == v1::EVENT_KIND_ERROR && ev.seq() == 7;
    }));
    client.halfClose();
    client.waitDone();
    REQUIRE(eventually([&] { return log.text().find(who + " disconnected") != std::string::npos; }));

    const std::string text = log.text();
    INFO(text);
    CHECK_THAT(text, Catch::Contains("info " + who + " connected, 1 streams open"));
    CHECK_THAT(text, Catch::Contains("debug error to " + who + " (update 7, input): "));
    CHECK_THAT(text, Catch::Contains("debug error to " + who +
                                     " (update 8, refused): action result: entity 999 is not an "
                                     "agent"));
    CHECK_THAT(text, Catch::Contains("info " + who + " disconnected, 0 streams open"));
  }
}
