// The journal codec: every command that changes state goes through encode and decode
// unchanged (compared through its encoding again), queries are not journaled, and a
// record with an unknown enum value or no body is refused with the reason.
#include <catch2/catch.hpp>

#include "journal_codec.h"
#include "message_diff.h"

using namespace npc;

namespace {

std::vector<Command> everyCommand() {
  EntityState state;
  state.id = EntityId{42};
  state.kind = EntityKind::kNpc;
  state.species = "human";
  state.position = Vec3{1.f, 2.f, 3.f};
  state.velocity = Vec3{0.5f, 0.f, 0.f};
  state.active = false;
  state.place = "village";
  state.archetype = "guard";
  state.lifetime_s = 4.f;
  IntentionParam where;
  where.type = IntentionParam::Type::kPosition;
  where.name = "to";
  where.position = Vec3{5.f, 6.f, 0.f};
  IntentionParam delay;
  delay.type = IntentionParam::Type::kNumber;
  delay.number = 2.5;
  delay.unit = "s";
  ProgramIntention program{EntityId{42}, "Go", 1.5, {where, delay}, IntentionId{7}, {}};
  GameAction game;
  game.agent = EntityId{42};
  game.action = "Die";
  game.coercive = true;
  game.params = {delay};
  SetSensors sensors;
  sensors.agent = EntityId{42};
  sensors.vision = false;
  sensors.fov_deg = 90.f;
  SetPerceptionTuning tuning;
  tuning.som_speed = 2.f;
  SetPlannerValue value;
  value.agent = EntityId{42};
  value.name = "hungry";
  value.value = "true";
  value.planner = "footwork";
  GetPlanTrace trace;
  trace.agent = EntityId{42};
  trace.trace = true;
  SignalEvent signal;
  signal.species = "human";
  signal.name = "OnAlarm";
  signal.group = GroupNumber{3};
  signal.value = 0.5f;
  signal.relayed = true;
  signal.subject = EntityId{60};
  signal.action = "Take";
  std::vector<CommandBody> bodies = {
      UpsertEntity{state},
      RemoveEntity{EntityId{9}},
      UpsertObstacle{{ObstacleId{3}, {{0.f, 0.f, 0.f}, {1.f, 2.f, 3.f}}, Cover::kSoft}},
      RemoveObstacle{ObstacleId{3}},
      SoundEvent{EntityId{5}, {1.f, 1.f, 0.f}, 12.f, "gunshot", 0.8f, true},
      signal,
      ActionResult{EntityId{42}, IntentionId{11}, ActionOutcome::kFailed, 0.25f, "blocked"},
      SpawnAgent{state, {}},
      DespawnAgent{EntityId{42}, {}},
      sensors,
      SetBehaviorVariable{EntityId{42}, "Alerted", true, {}},
      RegisterVisibilityType{"flowers", 1.5f, true, true, false, {}},
      SetAttributePrincipal{EntityId{8}, EntityId{9}, {}},
      ReloadDefinitions{},
      WakePlace{"forest", 3.0, {}},
      ClientGone{true},
      ClientBack{},
      program,
      CancelIntention{EntityId{42}, IntentionId{7}, {}},
      ExternalAction{EntityId{42}, EntityId{9}, "Push", true, {}},
      game,
      AddInfluence{EntityId{42}, "Flying", {}},
      RemoveInfluence{EntityId{42}, "Flying", {}},
      value,
      trace,
      tuning,
      InterruptInFlight{},
      BindClient{"game-eu"},
      HoldPlace{"market", true, 7, {}},
      NotePlaceHolder{"harbour", "node-b at 10.0.0.6:50051"},
      HandOver{EntityId{42}},
  };
  std::vector<Command> commands;
  uint32_t item = 0;
  for (CommandBody& body : bodies) {
    commands.push_back(Command{static_cast<ClientId>(3), 100 + item, std::move(body), item});
    ++item;
  }
  return commands;
}

}  // namespace

TEST_CASE("every command that changes state round-trips through the journal", "[state][journal]") {
  const std::vector<Command> commands = everyCommand();
  REQUIRE(commands.size() + 3 == std::variant_size_v<CommandBody>);  // all but the 3 queries
  for (const Command& command : commands) {
    INFO("command " << command.item);
    pb::JournalCommand encoded;
    REQUIRE(encodeCommand(command, encoded));
    pb::JournalCommand wire;
    REQUIRE(wire.ParseFromString(encoded.SerializeAsString()));
    Command decoded;
    std::string error;
    REQUIRE(decodeCommand(wire, decoded, error));
    CHECK(decoded.body.index() == command.body.index());
    CHECK(decoded.origin == command.origin);
    CHECK(decoded.seq == command.seq);
    CHECK(decoded.item == command.item);
    pb::JournalCommand again;
    REQUIRE(encodeCommand(decoded, again));
    CHECK(test::diff(encoded, again) == "");
  }
}

TEST_CASE("a decoded command keeps the fields it carried", "[state][journal]") {
  const std::vector<Command> commands = everyCommand();
  pb::JournalCommand encoded;
  REQUIRE(encodeCommand(commands[17], encoded));  // ProgramIntention
  Command decoded;
  std::string error;
  REQUIRE(decodeCommand(encoded, decoded, error));
  const auto& p = std::get<ProgramIntention>(decoded.body);
  CHECK(p.agent == EntityId{42});
  CHECK(p.action == "Go");
  CHECK(p.delay_s == 1.5);
  CHECK(p.depends_on == IntentionId{7});
  REQUIRE(p.params.size() == 2);
  CHECK(p.params[0].type == IntentionParam::Type::kPosition);
  CHECK(p.params[0].position.x == 5.f);
  CHECK(p.params[1].unit == "s");
  REQUIRE(encodeCommand(commands[0], encoded));  // UpsertEntity: unset optionals stay unset
  REQUIRE(decodeCommand(encoded, decoded, error));
  const EntityState& s = std::get<UpsertEntity>(decoded.body).state;
  CHECK(s.position.has_value());
  CHECK_FALSE(s.forward.has_value());
  CHECK_FALSE(s.eye_height_m.has_value());
  CHECK(s.active == std::optional<bool>(false));
  CHECK(s.lifetime_s == std::optional<float>(4.f));
  CHECK_FALSE(s.relayed);
  REQUIRE(encodeCommand(commands[5], encoded));  // SignalEvent: a relayed action's signal
  REQUIRE(decodeCommand(encoded, decoded, error));
  const SignalEvent& signal = std::get<SignalEvent>(decoded.body);
  CHECK(signal.subject == EntityId{60});
  CHECK(signal.action == "Take");
  CHECK(signal.relayed);
  EntityState visitor;  // a player relayed from another node
  visitor.id = EntityId{600};
  visitor.kind = EntityKind::kPlayer;
  visitor.relayed = true;
  REQUIRE(encodeCommand({ClientId::kDaemon, 0, UpsertEntity{visitor}}, encoded));
  REQUIRE(decodeCommand(encoded, decoded, error));
  CHECK(std::get<UpsertEntity>(decoded.body).state.relayed);
}

TEST_CASE("queries are not journaled", "[state][journal]") {
  pb::JournalCommand out;
  CHECK_FALSE(encodeCommand(Command{ClientId::kDaemon, 0, DescribeAgent{EntityId{1}, {}}}, out));
  CHECK_FALSE(encodeCommand(Command{ClientId::kDaemon, 0, GetStealth{EntityId{1}, {}}}, out));
  CHECK_FALSE(encodeCommand(Command{ClientId::kDaemon, 0, DescribeWorld{}}, out));
  GetPlanTrace read;
  read.agent = EntityId{1};
  CHECK_FALSE(encodeCommand(Command{ClientId::kDaemon, 0, read}, out));
  CHECK(out.body_case() == pb::JournalCommand::BODY_NOT_SET);
}

TEST_CASE("a journal record that does not fit a command is refused with the reason",
          "[state][journal]") {
  Command out;
  std::string error;
  pb::JournalCommand empty;
  CHECK_FALSE(decodeCommand(empty, out, error));
  CHECK(error == "a command without a body");
  pb::JournalCommand entity;
  entity.mutable_upsert_entity()->set_kind(9);
  CHECK_FALSE(decodeCommand(entity, out, error));
  CHECK(error == "entity kind 9 is unknown");
  pb::JournalCommand result;
  result.mutable_action_result()->set_outcome(7);
  CHECK_FALSE(decodeCommand(result, out, error));
  CHECK(error == "action outcome 7 is unknown");
  pb::JournalCommand program;
  program.mutable_program_intention()->add_params()->set_type(12);
  CHECK_FALSE(decodeCommand(program, out, error));
  CHECK(error == "parameter type 12 is unknown");
}
