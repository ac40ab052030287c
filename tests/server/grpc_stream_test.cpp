// End-to-end tests of the gRPC adapter's streams over real gRPC on 127.0.0.1 (fixture:
// grpc_fixture.h). Admin calls beyond spawn/despawn/describe: admin_rpc_test.cpp.
#include <chrono>
#include <future>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <grpcpp/generic/generic_stub.h>
#include <grpcpp/grpcpp.h>
#include <nlohmann/json.hpp>

#include "grpc_fixture.h"

using namespace npc;
using namespace npc::test;
using namespace std::chrono_literals;

TEST_CASE("A game client streams its world and performs its NPCs' actions", "[grpc]") {
  TestServer server;
  StreamClient client(server.channel());

  SECTION("Should act, take the outcome, then greet the player the NPC has come to see") {
    auto welcome = client.waitMessage([](const v1::ServerMessage& m) { return m.has_welcome(); });
    REQUIRE(welcome);
    CHECK(welcome->welcome().client_id() >= 1);
    CHECK(welcome->welcome().tick_dt() == Approx(0.05));
    CHECK(client.messages().front().has_welcome());  // the first message of the stream

    v1::WorldUpdate update;
    update.set_seq(1);
    v1::Entity* villager = addEntity(update, 1, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager");
    setVec(villager->mutable_forward(), 1.f, 0.f, 0.f);
    addEntity(update, 2, v1::ENTITY_KIND_PLAYER, 3.f, 0.f);  // in front, 3 m away
    REQUIRE(client.send(update));

    auto spawned = client.waitEvent([](const v1::Event& e) {
      return e.kind() == v1::EVENT_KIND_AGENT_SPAWNED && e.agent() == 1;
    });
    REQUIRE(spawned);
    CHECK(spawned->place() == "square");
    CHECK(spawned->text() == "villager");

    // Seeing takes a few perception updates; until then the villager wanders.
    auto first = client.waitAction([](const v1::Action& a) { return a.agent() == 1; });
    REQUIRE(first);
    CHECK(first->name() == "MoveTo");
    CHECK(first->intention() != 0);
    CHECK(first->place() == "square");
    Admin admin(server.channel());
    REQUIRE(eventually([&] {
      v1::GetStealthMeterRequest request;
      request.set_player(2);
      v1::GetStealthMeterResponse meter;
      return admin.call(&v1::NpcSim::Stub::GetStealthMeter, request, &meter).ok() &&
             meter.agent() == 1 && meter.value() == 10.f;  // 10: visible
    }));

    v1::WorldUpdate result;
    result.set_seq(2);
    v1::ActionResult* r = result.add_results();
    r->set_agent(1);
    r->set_intention(first->intention());
    r->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);
    REQUIRE(client.send(result));

    auto completed = client.waitEvent([&](const v1::Event& e) {
      return e.kind() == v1::EVENT_KIND_INTENTION_COMPLETED && e.agent() == 1;
    });
    REQUIRE(completed);
    CHECK(completed->place() == "square");

    auto greet = client.waitAction([&](const v1::Action& a) {
      return a.agent() == 1 && a.intention() != first->intention();
    });
    REQUIRE(greet);
    CHECK(greet->name() == "Greet");
    CHECK(greet->intention() > first->intention());
    CHECK(greet->place() == "square");
    CHECK(hasEntityParam(*greet, "target", 2));
  }

  SECTION("Should flush the replies to the last update before finishing OK on half-close") {
    REQUIRE(client.waitWelcome() != 0);
    v1::WorldUpdate update;
    update.set_seq(9);
    addEntity(update, 50, v1::ENTITY_KIND_NPC, 0.f, 0.f, "ghost");
    REQUIRE(client.send(update));
    client.halfClose();

    auto status = client.waitDone();
    REQUIRE(status);
    CHECK(status->error_code() == grpc::StatusCode::OK);
    CHECK(client.waitError(9, "entity 50: archetype \"ghost\" is unknown"));
    CHECK(eventually([&] { return server.hub().clientCount() == 0; }));
  }
}

TEST_CASE("Bad input is reported to its sender only, item by item", "[grpc]") {
  TestServer server;
  Admin admin(server.channel());
  StreamClient first(server.channel());
  StreamClient second(server.channel());
  REQUIRE(first.waitWelcome() != 0);
  REQUIRE(second.waitWelcome() != 0);

  SECTION("Should name item, field and seq of each error and still apply the valid item") {
    v1::WorldUpdate update;
    update.set_seq(11);
    setVec(addEntity(update, 100, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager")->mutable_position(),
           std::numeric_limits<float>::quiet_NaN(), 0.f, 0.f);
    addEntity(update, 101, v1::ENTITY_KIND_NPC, 0.f, 0.f, "nope");
    addEntity(update, 0, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager");
    addEntity(update, 102, v1::ENTITY_KIND_NPC, 5.f, 5.f, "villager");
    v1::ActionResult* r = update.add_results();
    r->set_agent(999);
    r->set_intention(1);
    r->set_outcome(v1::ActionResult::OUTCOME_COMPLETED);
    REQUIRE(first.send(update));

    // Checked by the adapter before the simulation sees the update:
    CHECK(first.waitError(11, "upserts[0] (id 100).position: must be finite"));
    CHECK(first.waitError(11, "upserts[2]: id must not be 0"));
    // Checked by the simulation, routed back to this client with the same seq:
    CHECK(first.waitError(11, "entity 101: archetype \"nope\" is unknown"));
    CHECK(first.waitError(11, "action result: entity 999 is not an agent"));

    std::string json;
    REQUIRE(admin.get(102, &json).ok());
    CHECK(nlohmann::json::parse(json).at("archetype").get<std::string>() == "villager");
    CHECK(admin.get(100).error_code() == grpc::StatusCode::NOT_FOUND);

    // The second client's own error comes after the first client's ones were published;
    // its stream is ordered, so had it been sent those, they would be here already.
    v1::WorldUpdate other;
    other.set_seq(500);
    other.add_removals(0);
    REQUIRE(second.send(other));
    REQUIRE(second.waitError(500, "removals[0]: id must not be 0"));
    int leaked = 0;
    for (const auto& m : second.messages()) {
      for (const auto& e : m.events()) leaked += e.kind() == v1::EVENT_KIND_ERROR && e.seq() == 11;
    }
    CHECK(leaked == 0);
  }

  SECTION("Should refuse an update with too many items as a whole") {
    v1::WorldUpdate update;
    update.set_seq(12);
    for (int i = 0; i < 10001; ++i) update.add_removals(1000 + i);
    REQUIRE(first.send(update));

    CHECK(first.waitError(
        12, "update: 10001 items exceed the limit of 10000 per update; nothing was applied"));
  }
}

TEST_CASE("Admin calls are answered from the tick thread", "[grpc]") {
  TestServer server;
  Admin admin(server.channel());

  SECTION("Should spawn once, refuse a duplicate, and describe the agent as JSON") {
    v1::SpawnAgentResponse reply;
    grpc::Status first = admin.spawn(200, "villager", v1::ENTITY_KIND_UNSPECIFIED, &reply);
    REQUIRE(first.ok());
    CHECK(reply.id() == 200);

    grpc::Status again = admin.spawn(200, "villager", v1::ENTITY_KIND_NPC);
    CHECK(again.error_code() == grpc::StatusCode::ALREADY_EXISTS);
    CHECK(again.error_message() == "entity 200: already exists");

    std::string json;
    REQUIRE(admin.get(200, &json).ok());
    const auto view = nlohmann::json::parse(json);
    CHECK(view.at("id").get<uint64_t>() == 200);
    CHECK(view.at("archetype").get<std::string>() == "villager");
    REQUIRE(view.at("position").size() == 3);
    CHECK(view.at("position")[0].get<double>() == Approx(7.0));
    CHECK(view.at("position")[1].get<double>() == Approx(8.0));
    CHECK(view.at("owner").get<uint64_t>() == kUnownedRaw);  // admin agents belong to no client
  }

  SECTION("Should map core errors to gRPC codes") {
    grpc::Status gone = admin.despawn(12345);
    CHECK(gone.error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(gone.error_message() == "entity 12345: no such agent");
    CHECK(admin.get(12345).error_code() == grpc::StatusCode::NOT_FOUND);
    CHECK(admin.spawn(201, "nope", v1::ENTITY_KIND_NPC).error_code() ==
          grpc::StatusCode::INVALID_ARGUMENT);
  }

  SECTION("Should validate before queuing anything") {
    grpc::Status player = admin.spawn(202, "villager", v1::ENTITY_KIND_PLAYER);
    CHECK(player.error_code() == grpc::StatusCode::INVALID_ARGUMENT);
    CHECK(player.error_message() == "agent.kind: must be ENTITY_KIND_NPC or unset");
    grpc::Status no_archetype = admin.spawn(203, "", v1::ENTITY_KIND_NPC);
    CHECK(no_archetype.error_message() == "agent.archetype: is required");
    CHECK(admin.despawn(0).error_code() == grpc::StatusCode::INVALID_ARGUMENT);
  }

  SECTION("Should despawn an existing agent") {
    REQUIRE(admin.spawn(204, "statue", v1::ENTITY_KIND_NPC).ok());
    CHECK(admin.despawn(204).ok());
    CHECK(admin.get(204).error_code() == grpc::StatusCode::NOT_FOUND);
  }

  SECTION("Should report stats with the hub's client count") {
    StreamClient client(server.channel());
    REQUIRE(client.waitWelcome() != 0);
    REQUIRE(admin.spawn(205, "statue", v1::ENTITY_KIND_NPC).ok());
    v1::GetStatsResponse stats;
    REQUIRE(eventually([&] { return admin.stats(&stats).ok() && stats.agents() == 1; }));
    CHECK(stats.clients() == 1);
    CHECK(stats.clients_dropped() == 0);
    CHECK(stats.tick() > 0);
    CHECK(stats.places() == 1);
  }
}

TEST_CASE("Stealth events name the player and pass every place filter", "[grpc]") {
  TestServer server;
  StreamClient client(server.channel());
  REQUIRE(client.waitWelcome() != 0);

  SECTION("Should reach a client watching another place, with subject and value set") {
    v1::WorldUpdate subscribe;
    subscribe.set_seq(1);
    subscribe.mutable_subscribe()->add_places("elsewhere");
    subscribe.mutable_subscribe()->add_events(v1::EVENT_KIND_STEALTH);
    subscribe.mutable_subscribe()->add_events(v1::EVENT_KIND_AGENT_SPAWNED);
    REQUIRE(client.send(subscribe));
    v1::WorldUpdate world;
    world.set_seq(2);
    v1::Entity* villager = addEntity(world, 1, v1::ENTITY_KIND_NPC, 0.f, 0.f, "villager");
    setVec(villager->mutable_forward(), 1.f, 0.f, 0.f);
    addEntity(world, 2, v1::ENTITY_KIND_PLAYER, 3.f, 0.f);  // in front, 3 m away
    REQUIRE(client.send(world));

    auto stealth = client.waitEvent([](const v1::Event& e) {
      return e.kind() == v1::EVENT_KIND_STEALTH && e.subject() == 2;
    });
    REQUIRE(stealth);
    CHECK(stealth->agent() == 1);
    CHECK(stealth->value() > 0.f);
    CHECK(stealth->value() <= 10.f);
    CHECK(stealth->place() == "square");
    int spawned = 0;  // the place filter still holds for other kinds
    for (const auto& m : client.messages()) {
      for (const auto& e : m.events()) spawned += e.kind() == v1::EVENT_KIND_AGENT_SPAWNED;
    }
    CHECK(spawned == 0);
  }
}

TEST_CASE("An oversized message ends only its own stream", "[grpc]") {
  ServerSetup setup;
  setup.max_receive_bytes = 64 * 1024;
  TestServer server(setup);
  StreamClient big(server.channel());
  StreamClient other(server.channel());
  REQUIRE(big.waitWelcome() != 0);
  REQUIRE(other.waitWelcome() != 0);

  SECTION("Should end that stream with RESOURCE_EXHAUSTED and keep serving the other") {
    v1::WorldUpdate update;
    update.set_seq(1);
    update.add_signals()->set_name(std::string(100 * 1024, 'x'));
    big.send(update);  // may already fail: the server is allowed to reset the stream early

    auto status = big.waitDone();
    REQUIRE(status);
    CHECK(status->error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
    CHECK(eventually([&] { return server.hub().clientCount() == 1; }));

    v1::WorldUpdate small;
    small.set_seq(2);
    small.add_removals(0);
    REQUIRE(other.send(small));
    CHECK(other.waitError(2, "removals[0]: id must not be 0"));
  }
}

TEST_CASE("A client that vanishes releases its agents and leaves the others alone", "[grpc]") {
  TestServer server;
  Admin admin(server.channel());
  StreamClient stays(server.channel());
  REQUIRE(stays.waitWelcome() != 0);

  SECTION("Should drop the client count and hand its agents to nobody") {
    auto vanishing = std::make_unique<StreamClient>(server.channel());
    const uint32_t id = vanishing->waitWelcome();
    REQUIRE(id != 0);
    REQUIRE(server.hub().clientCount() == 2);
    v1::WorldUpdate update;
    update.set_seq(1);
    addEntity(update, 300, v1::ENTITY_KIND_NPC, 1.f, 1.f, "statue");
    REQUIRE(vanishing->send(update));
    REQUIRE(eventually([&] { return admin.owner(300) == id; }));

    vanishing->vanish();
    vanishing.reset();

    CHECK(eventually([&] { return server.hub().clientCount() == 1; }));
    CHECK(eventually([&] { return admin.owner(300) == kUnownedRaw; }));
    v1::WorldUpdate bad;
    bad.set_seq(2);
    bad.add_removals(0);
    REQUIRE(stays.send(bad));
    CHECK(stays.waitError(2, "removals[0]: id must not be 0"));
  }
}

TEST_CASE("A client that cannot keep up is dropped, the others keep receiving", "[grpc]") {
  ServerSetup setup;
  setup.limits.outbox_max_messages = 4;
  setup.tick_sleep = 5ms;
  TestServer server(setup);
  StreamClient slow(server.channel(), /*read=*/false);
  StreamClient noisy(server.channel());
  REQUIRE(noisy.waitWelcome() != 0);
  REQUIRE(eventually([&] { return server.hub().clientCount() == 2; }));

  SECTION("Should finish the slow stream with RESOURCE_EXHAUSTED and count it") {
    // The noisy client hears only its own errors; every agent it spawns and removes is
    // broadcast to the slow one, until the HTTP/2 window and then the outbox are full.
    v1::WorldUpdate quiet;
    quiet.set_seq(1);
    quiet.mutable_subscribe()->add_events(v1::EVENT_KIND_ERROR);
    REQUIRE(noisy.send(quiet));

    uint64_t seq = 2;
    uint64_t next_id = 1'000'000;
    const auto until = std::chrono::steady_clock::now() + 20s;
    while (server.hub().droppedCount() == 0 && std::chrono::steady_clock::now() < until) {
      v1::WorldUpdate churn;
      churn.set_seq(seq++);
      for (int i = 0; i < 1000; ++i) {
        addEntity(churn, next_id + i, v1::ENTITY_KIND_NPC, float(i % 100), float(i / 100),
                  "statue");
        if (next_id > 1'000'000) churn.add_removals(next_id - 1000 + i);
      }
      next_id += 1000;
      REQUIRE(noisy.send(churn));
      // Pace on the simulation, not the clock: one update per tick however slow ticks are.
      eventually([&] { return server.sim().queuedCommands() == 0; });
    }

    REQUIRE(server.hub().droppedCount() == 1);
    CHECK(eventually([&] { return server.hub().clientCount() == 1; }));

    v1::WorldUpdate bad;
    bad.set_seq(seq);
    bad.add_removals(0);
    REQUIRE(noisy.send(bad));
    CHECK(noisy.waitError(seq, "removals[0]: id must not be 0"));

    grpc::Status status = slow.readToEnd();
    CHECK(status.error_code() == grpc::StatusCode::RESOURCE_EXHAUSTED);
    CHECK_THAT(status.error_message(),
               Catch::Matches("client [0-9]+ too slow: outbox exceeded 4 messages"));
  }
}

TEST_CASE("Reads pause while the simulation's queue is over its bound", "[grpc]") {
  ServerSetup setup;
  setup.limits.max_inbox_commands = 10;
  TestServer server(setup);
  StreamClient client(server.channel());
  REQUIRE(client.waitWelcome() != 0);

  SECTION("Should not read the next update until a tick has drained the queue") {
    server.pauseTicks(true);
    v1::WorldUpdate flood;
    flood.set_seq(1);
    for (int i = 0; i < 20; ++i) flood.add_removals(5000 + i);
    REQUIRE(client.send(flood));
    REQUIRE(eventually([&] { return server.sim().queuedCommands() == 20; }));

    v1::WorldUpdate next;
    next.set_seq(2);
    next.add_removals(6000);
    next.add_removals(0);
    REQUIRE(client.send(next));
    std::this_thread::sleep_for(200ms);  // time enough to read it, were reads not paused
    CHECK(server.sim().queuedCommands() == 20);

    server.pauseTicks(false);
    CHECK(client.waitError(2, "removals[1]: id must not be 0"));
    CHECK(client.waitError(2, "entity 6000: unknown"));
  }
}

TEST_CASE("Draining ends every stream and refuses new ones", "[grpc]") {
  TestServer server;
  StreamClient client(server.channel());
  REQUIRE(client.waitWelcome() != 0);

  SECTION("Should finish open streams and new ones with UNAVAILABLE") {
    server.hub().drain();

    auto status = client.waitDone();
    REQUIRE(status);
    CHECK(status->error_code() == grpc::StatusCode::UNAVAILABLE);
    CHECK(status->error_message() == "npcd is shutting down");

    StreamClient late(server.channel());
    auto late_status = late.waitDone();
    REQUIRE(late_status);
    CHECK(late_status->error_code() == grpc::StatusCode::UNAVAILABLE);
    CHECK(late.messages().empty());
    CHECK(eventually([&] { return server.hub().clientCount() == 0; }));
  }
}

TEST_CASE("The standard health service reports SERVING", "[grpc]") {
  TestServer server;

  SECTION("Should answer grpc.health.v1.Health/Check with SERVING") {
    grpc::GenericStub stub(server.channel());
    grpc::ClientContext ctx;
    ctx.set_deadline(deadlineIn(5s));
    grpc::Slice empty("");
    grpc::ByteBuffer request(&empty, 1);  // HealthCheckRequest{service: ""} is zero bytes
    grpc::ByteBuffer response;
    std::promise<grpc::Status> done;
    stub.UnaryCall(&ctx, "/grpc.health.v1.Health/Check", grpc::StubOptions(), &request,
                   &response, [&](grpc::Status s) { done.set_value(std::move(s)); });
    auto future = done.get_future();
    REQUIRE(future.wait_for(10s) == std::future_status::ready);
    REQUIRE(future.get().ok());

    std::vector<grpc::Slice> slices;
    REQUIRE(response.Dump(&slices).ok());
    std::string bytes;
    for (const auto& s : slices) bytes.append(reinterpret_cast<const char*>(s.begin()), s.size());
    // HealthCheckResponse{status = 1 (SERVING)}: field 1, varint -> 0x08 0x01.
    CHECK(bytes == std::string("\x08\x01", 2));
  }
}
