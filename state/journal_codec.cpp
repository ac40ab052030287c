#include "journal_codec.h"

#include <type_traits>

#include "world_codec.h"

namespace npc {

namespace {

// --- encoding ------------------------------------------------------------------------------

template <class T, class Set>
void setIf(const std::optional<T>& value, Set&& set) {
  if (value) set(*value);
}

void encodeState(const EntityState& s, pb::JournalEntity& out) {
  out.set_id(raw(s.id));
  out.set_kind(static_cast<uint32_t>(s.kind));
  out.set_species(s.species);
  setIf(s.position, [&](Vec3 v) { encodeVec3(v, *out.mutable_position()); });
  setIf(s.forward, [&](Vec3 v) { encodeVec3(v, *out.mutable_forward()); });
  setIf(s.velocity, [&](Vec3 v) { encodeVec3(v, *out.mutable_velocity()); });
  setIf(s.eye_height_m, [&](float v) { out.set_eye_height_m(v); });
  setIf(s.active, [&](bool v) { out.set_active(v); });
  out.set_place(s.place);
  out.set_archetype(s.archetype);
  out.set_group(s.group);
  setIf(s.takeable, [&](bool v) { out.set_takeable(v); });
  setIf(s.lifetime_s, [&](float v) { out.set_lifetime_s(v); });
  out.set_relayed(s.relayed);
}

void encodeParams(const std::vector<IntentionParam>& params, pb::JournalIntention& out) {
  for (const IntentionParam& p : params) {
    pb::JournalIntentionParam& o = *out.add_params();
    o.set_type(static_cast<uint32_t>(p.type));
    o.set_name(p.name);
    o.set_entity(raw(p.entity));
    o.set_number(p.number);
    o.set_unit(p.unit);
    encodeVec3(p.position, *o.mutable_position());
    o.set_text(p.text);
  }
}

struct Encoder {
  pb::JournalCommand& out;

  bool operator()(const UpsertEntity& c) { return encodeState(c.state, *out.mutable_upsert_entity()), true; }
  bool operator()(const RemoveEntity& c) { return out.set_remove_entity(raw(c.id)), true; }
  bool operator()(const UpsertObstacle& c) {
    pb::JournalObstacle& o = *out.mutable_upsert_obstacle();
    o.set_id(raw(c.obstacle.id));
    encodeVec3(c.obstacle.box.min, *o.mutable_min());
    encodeVec3(c.obstacle.box.max, *o.mutable_max());
    o.set_cover(static_cast<uint32_t>(c.obstacle.cover));
    return true;
  }
  bool operator()(const RemoveObstacle& c) { return out.set_remove_obstacle(raw(c.id)), true; }
  bool operator()(const SoundEvent& c) {
    pb::JournalSound& o = *out.mutable_sound();
    o.set_source(raw(c.source));
    encodeVec3(c.position, *o.mutable_position());
    o.set_radius_m(c.radius_m);
    o.set_kind(c.kind);
    o.set_threat(c.threat);
    o.set_relayed(c.relayed);
    return true;
  }
  bool operator()(const SignalEvent& c) {
    pb::JournalSignal& o = *out.mutable_signal();
    o.set_target(raw(c.target));
    o.set_place(c.place);
    o.set_species(c.species);
    o.set_group(raw(c.group));
    o.set_group_name(c.group_name);
    o.set_radius_m(c.radius_m);
    encodeVec3(c.position, *o.mutable_position());
    o.set_name(c.name);
    o.set_sender(raw(c.sender));
    o.set_value(c.value);
    o.set_relayed(c.relayed);
    o.set_subject(raw(c.subject));
    o.set_action(c.action);
    return true;
  }
  bool operator()(const ActionResult& c) {
    pb::JournalActionResult& o = *out.mutable_action_result();
    o.set_agent(raw(c.agent));
    o.set_intention(raw(c.intention));
    o.set_outcome(static_cast<uint32_t>(c.outcome));
    o.set_progress(c.progress);
    o.set_reason(c.reason);
    return true;
  }
  bool operator()(const SpawnAgent& c) { return encodeState(c.state, *out.mutable_spawn_agent()), true; }
  bool operator()(const DespawnAgent& c) { return out.set_despawn_agent(raw(c.id)), true; }
  bool operator()(const DescribeAgent&) { return false; }
  bool operator()(const SetSensors& c) {
    pb::JournalSensors& o = *out.mutable_set_sensors();
    o.set_agent(raw(c.agent));
    setIf(c.vision, [&](bool v) { o.set_vision(v); });
    setIf(c.hearing, [&](bool v) { o.set_hearing(v); });
    setIf(c.signals, [&](bool v) { o.set_signals(v); });
    setIf(c.sight_range_m, [&](float v) { o.set_sight_range_m(v); });
    setIf(c.fov_deg, [&](float v) { o.set_fov_deg(v); });
    setIf(c.hearing_scale, [&](float v) { o.set_hearing_scale(v); });
    return true;
  }
  bool operator()(const SetBehaviorVariable& c) {
    pb::JournalBehaviorVariable& o = *out.mutable_set_behavior_variable();
    o.set_agent(raw(c.agent));
    o.set_name(c.name);
    o.set_value(c.value);
    return true;
  }
  bool operator()(const RegisterVisibilityType& c) {
    pb::JournalVisibilityType& o = *out.mutable_register_visibility_type();
    o.set_type(c.type);
    o.set_multiplier(c.multiplier);
    o.set_use_coefficient(c.use_coefficient);
    o.set_neutral(c.neutral);
    o.set_remove(c.remove);
    return true;
  }
  bool operator()(const SetAttributePrincipal& c) {
    pb::JournalAttributePrincipal& o = *out.mutable_set_attribute_principal();
    o.set_attribute(raw(c.attribute));
    o.set_principal(raw(c.principal));
    return true;
  }
  bool operator()(const GetStealth&) { return false; }
  bool operator()(const ReloadDefinitions&) { return out.mutable_reload_definitions(), true; }
  bool operator()(const WakePlace& c) {
    out.mutable_wake_place()->set_place(c.place);
    out.mutable_wake_place()->set_delay_s(c.delay_s);
    return true;
  }
  bool operator()(const ClientGone& c) {
    return out.mutable_client_gone()->set_keeps_ownership(c.keeps_ownership), true;
  }
  bool operator()(const ClientBack&) { return out.mutable_client_back(), true; }
  bool operator()(const ProgramIntention& c) {
    pb::JournalIntention& o = *out.mutable_program_intention();
    o.set_agent(raw(c.agent));
    o.set_action(c.action);
    o.set_delay_s(c.delay_s);
    encodeParams(c.params, o);
    o.set_depends_on(raw(c.depends_on));
    return true;
  }
  bool operator()(const CancelIntention& c) {
    out.mutable_cancel_intention()->set_agent(raw(c.agent));
    out.mutable_cancel_intention()->set_intention(raw(c.intention));
    return true;
  }
  bool operator()(const ExternalAction& c) {
    pb::JournalExternalAction& o = *out.mutable_external_action();
    o.set_agent(raw(c.agent));
    o.set_from(raw(c.from));
    o.set_action(c.action);
    o.set_coercive(c.coercive);
    return true;
  }
  bool operator()(const GameAction& c) {
    pb::JournalIntention& o = *out.mutable_game_action();
    o.set_agent(raw(c.agent));
    o.set_action(c.action);
    o.set_delay_s(c.delay_s);
    encodeParams(c.params, o);
    o.set_coercive(c.coercive);
    return true;
  }
  bool operator()(const AddInfluence& c) {
    out.mutable_add_influence()->set_agent(raw(c.agent));
    out.mutable_add_influence()->set_influence(c.influence);
    return true;
  }
  bool operator()(const RemoveInfluence& c) {
    out.mutable_remove_influence()->set_agent(raw(c.agent));
    out.mutable_remove_influence()->set_influence(c.influence);
    return true;
  }
  bool operator()(const SetPlannerValue& c) {
    pb::JournalPlannerValue& o = *out.mutable_set_planner_value();
    o.set_agent(raw(c.agent));
    o.set_name(c.name);
    o.set_value(c.value);
    o.set_blackboard(c.blackboard);
    o.set_planner(c.planner);
    return true;
  }
  bool operator()(const GetPlanTrace& c) {
    if (!c.trace) return false;  // reading a trace changes nothing
    pb::JournalPlanTrace& o = *out.mutable_plan_trace();
    o.set_agent(raw(c.agent));
    o.set_trace(*c.trace);
    o.set_planner(c.planner);
    return true;
  }
  bool operator()(const DescribeWorld&) { return false; }
  bool operator()(const InterruptInFlight&) { return out.mutable_interrupt_in_flight(), true; }
  bool operator()(const BindClient& c) {
    out.mutable_bind_client()->set_name(c.name);
    return true;
  }
  bool operator()(const NotePlaceHolder& c) {
    out.mutable_note_place_holder()->set_place(c.place);
    out.mutable_note_place_holder()->set_holder(c.holder);
    return true;
  }
  bool operator()(const HandOver& c) {
    out.mutable_hand_over()->set_id(raw(c.id));
    return true;
  }
  bool operator()(const HoldPlace& c) {
    pb::JournalHoldPlace& o = *out.mutable_hold_place();
    o.set_place(c.place);
    o.set_held(c.held);
    o.set_epoch(c.epoch);
    return true;
  }
  bool operator()(const SetPerceptionTuning& c) {
    pb::JournalPerceptionTuning& o = *out.mutable_set_perception_tuning();
    setIf(c.som_speed, [&](float v) { o.set_som_speed(v); });
    setIf(c.decay_per_update, [&](float v) { o.set_decay_per_update(v); });
    setIf(c.suspicious_threshold, [&](float v) { o.set_suspicious_threshold(v); });
    return true;
  }
};

// --- decoding ------------------------------------------------------------------------------

EntityState decodeState(const pb::JournalEntity& in) {
  EntityState s;
  s.id = EntityId{in.id()};
  s.kind = static_cast<EntityKind>(in.kind());
  s.species = in.species();
  if (in.has_position()) s.position = decodeVec3(in.position());
  if (in.has_forward()) s.forward = decodeVec3(in.forward());
  if (in.has_velocity()) s.velocity = decodeVec3(in.velocity());
  if (in.has_eye_height_m()) s.eye_height_m = in.eye_height_m();
  if (in.has_active()) s.active = in.active();
  s.place = in.place();
  s.archetype = in.archetype();
  s.group = in.group();
  if (in.has_takeable()) s.takeable = in.takeable();
  if (in.has_lifetime_s()) s.lifetime_s = in.lifetime_s();
  s.relayed = in.relayed();
  return s;
}

std::vector<IntentionParam> decodeParams(const pb::JournalIntention& in) {
  std::vector<IntentionParam> params;
  for (const pb::JournalIntentionParam& p : in.params()) {
    IntentionParam& o = params.emplace_back();
    o.type = static_cast<IntentionParam::Type>(p.type());
    o.name = p.name();
    o.entity = EntityId{p.entity()};
    o.number = p.number();
    o.unit = p.unit();
    o.position = decodeVec3(p.position());
    o.text = p.text();
  }
  return params;
}

// The enums a journal stores as numbers, checked before they are cast.
bool enumsInRange(const pb::JournalCommand& in, std::string& error) {
  auto entityKind = [&](const pb::JournalEntity& e) {
    if (e.kind() <= static_cast<uint32_t>(EntityKind::kAttribute)) return true;
    error = "entity kind " + std::to_string(e.kind()) + " is unknown";
    return false;
  };
  auto params = [&](const pb::JournalIntention& i) {
    for (const pb::JournalIntentionParam& p : i.params()) {
      if (p.type() > static_cast<uint32_t>(IntentionParam::Type::kText)) {
        error = "parameter type " + std::to_string(p.type()) + " is unknown";
        return false;
      }
    }
    return true;
  };
  switch (in.body_case()) {
    case pb::JournalCommand::kUpsertEntity: return entityKind(in.upsert_entity());
    case pb::JournalCommand::kSpawnAgent: return entityKind(in.spawn_agent());
    case pb::JournalCommand::kProgramIntention: return params(in.program_intention());
    case pb::JournalCommand::kGameAction: return params(in.game_action());
    case pb::JournalCommand::kActionResult:
      if (in.action_result().outcome() <= static_cast<uint32_t>(ActionOutcome::kProgress)) return true;
      error = "action outcome " + std::to_string(in.action_result().outcome()) + " is unknown";
      return false;
    case pb::JournalCommand::kUpsertObstacle:
      if (in.upsert_obstacle().cover() <= static_cast<uint32_t>(Cover::kSoft)) return true;
      error = "obstacle cover " + std::to_string(in.upsert_obstacle().cover()) + " is unknown";
      return false;
    case pb::JournalCommand::kSignal:
      if (in.signal().group() <= 0xffff) return true;
      error = "signal group " + std::to_string(in.signal().group()) + " is out of range";
      return false;
    default: return true;
  }
}

std::optional<CommandBody> decodeBody(const pb::JournalCommand& in) {
  switch (in.body_case()) {
    case pb::JournalCommand::kUpsertEntity: return UpsertEntity{decodeState(in.upsert_entity())};
    case pb::JournalCommand::kRemoveEntity: return RemoveEntity{EntityId{in.remove_entity()}};
    case pb::JournalCommand::kUpsertObstacle: {
      const pb::JournalObstacle& o = in.upsert_obstacle();
      return UpsertObstacle{{ObstacleId{o.id()}, {decodeVec3(o.min()), decodeVec3(o.max())},
                             static_cast<Cover>(o.cover())}};
    }
    case pb::JournalCommand::kRemoveObstacle: return RemoveObstacle{ObstacleId{in.remove_obstacle()}};
    case pb::JournalCommand::kSound: {
      const pb::JournalSound& o = in.sound();
      return SoundEvent{EntityId{o.source()}, decodeVec3(o.position()), o.radius_m(), o.kind(),
                        o.threat(), o.relayed()};
    }
    case pb::JournalCommand::kSignal: {
      const pb::JournalSignal& o = in.signal();
      SignalEvent c;
      c.target = EntityId{o.target()};
      c.place = o.place();
      c.species = o.species();
      c.group = static_cast<GroupNumber>(o.group());
      c.group_name = o.group_name();
      c.radius_m = o.radius_m();
      c.position = decodeVec3(o.position());
      c.name = o.name();
      c.sender = EntityId{o.sender()};
      c.value = o.value();
      c.relayed = o.relayed();
      c.subject = EntityId{o.subject()};
      c.action = o.action();
      return c;
    }
    case pb::JournalCommand::kActionResult: {
      const pb::JournalActionResult& o = in.action_result();
      return ActionResult{EntityId{o.agent()}, IntentionId{o.intention()},
                          static_cast<ActionOutcome>(o.outcome()), o.progress(), o.reason()};
    }
    case pb::JournalCommand::kSpawnAgent: return SpawnAgent{decodeState(in.spawn_agent()), {}};
    case pb::JournalCommand::kDespawnAgent: return DespawnAgent{EntityId{in.despawn_agent()}, {}};
    case pb::JournalCommand::kSetSensors: {
      const pb::JournalSensors& o = in.set_sensors();
      SetSensors c;
      c.agent = EntityId{o.agent()};
      if (o.has_vision()) c.vision = o.vision();
      if (o.has_hearing()) c.hearing = o.hearing();
      if (o.has_signals()) c.signals = o.signals();
      if (o.has_sight_range_m()) c.sight_range_m = o.sight_range_m();
      if (o.has_fov_deg()) c.fov_deg = o.fov_deg();
      if (o.has_hearing_scale()) c.hearing_scale = o.hearing_scale();
      return c;
    }
    case pb::JournalCommand::kSetBehaviorVariable: {
      const pb::JournalBehaviorVariable& o = in.set_behavior_variable();
      return SetBehaviorVariable{EntityId{o.agent()}, o.name(), o.value(), {}};
    }
    case pb::JournalCommand::kRegisterVisibilityType: {
      const pb::JournalVisibilityType& o = in.register_visibility_type();
      return RegisterVisibilityType{o.type(), o.multiplier(), o.use_coefficient(), o.neutral(),
                                    o.remove(), {}};
    }
    case pb::JournalCommand::kSetAttributePrincipal: {
      const pb::JournalAttributePrincipal& o = in.set_attribute_principal();
      return SetAttributePrincipal{EntityId{o.attribute()}, EntityId{o.principal()}, {}};
    }
    case pb::JournalCommand::kReloadDefinitions: return ReloadDefinitions{};
    case pb::JournalCommand::kWakePlace:
      return WakePlace{in.wake_place().place(), in.wake_place().delay_s(), {}};
    case pb::JournalCommand::kClientGone: return ClientGone{in.client_gone().keeps_ownership()};
    case pb::JournalCommand::kClientBack: return ClientBack{};
    case pb::JournalCommand::kProgramIntention: {
      const pb::JournalIntention& o = in.program_intention();
      ProgramIntention c;
      c.agent = EntityId{o.agent()};
      c.action = o.action();
      c.delay_s = o.delay_s();
      c.params = decodeParams(o);
      c.depends_on = IntentionId{o.depends_on()};
      return c;
    }
    case pb::JournalCommand::kCancelIntention:
      return CancelIntention{EntityId{in.cancel_intention().agent()},
                             IntentionId{in.cancel_intention().intention()}, {}};
    case pb::JournalCommand::kExternalAction: {
      const pb::JournalExternalAction& o = in.external_action();
      return ExternalAction{EntityId{o.agent()}, EntityId{o.from()}, o.action(), o.coercive(), {}};
    }
    case pb::JournalCommand::kGameAction: {
      const pb::JournalIntention& o = in.game_action();
      GameAction c;
      c.agent = EntityId{o.agent()};
      c.action = o.action();
      c.delay_s = o.delay_s();
      c.coercive = o.coercive();
      c.params = decodeParams(o);
      return c;
    }
    case pb::JournalCommand::kAddInfluence:
      return AddInfluence{EntityId{in.add_influence().agent()}, in.add_influence().influence(), {}};
    case pb::JournalCommand::kRemoveInfluence:
      return RemoveInfluence{EntityId{in.remove_influence().agent()},
                             in.remove_influence().influence(), {}};
    case pb::JournalCommand::kSetPlannerValue: {
      const pb::JournalPlannerValue& o = in.set_planner_value();
      SetPlannerValue c;
      c.agent = EntityId{o.agent()};
      c.name = o.name();
      c.value = o.value();
      c.blackboard = o.blackboard();
      c.planner = o.planner();
      return c;
    }
    case pb::JournalCommand::kPlanTrace: {
      GetPlanTrace c;
      c.agent = EntityId{in.plan_trace().agent()};
      c.trace = in.plan_trace().trace();
      c.planner = in.plan_trace().planner();
      return c;
    }
    case pb::JournalCommand::kSetPerceptionTuning: {
      const pb::JournalPerceptionTuning& o = in.set_perception_tuning();
      SetPerceptionTuning c;
      if (o.has_som_speed()) c.som_speed = o.som_speed();
      if (o.has_decay_per_update()) c.decay_per_update = o.decay_per_update();
      if (o.has_suspicious_threshold()) c.suspicious_threshold = o.suspicious_threshold();
      return c;
    }
    case pb::JournalCommand::kInterruptInFlight: return InterruptInFlight{};
    case pb::JournalCommand::kBindClient: return BindClient{in.bind_client().name()};
    case pb::JournalCommand::kNotePlaceHolder:
      return NotePlaceHolder{in.note_place_holder().place(), in.note_place_holder().holder()};
    case pb::JournalCommand::kHandOver: return HandOver{EntityId{in.hand_over().id()}};
    case pb::JournalCommand::kHoldPlace: {
      const pb::JournalHoldPlace& o = in.hold_place();
      return HoldPlace{o.place(), o.held(), o.epoch(), {}};
    }
    case pb::JournalCommand::BODY_NOT_SET: break;
  }
  return std::nullopt;
}

}  // namespace

bool encodeCommand(const Command& command, pb::JournalCommand& out) {
  pb::JournalCommand encoded;
  if (!std::visit(Encoder{encoded}, command.body)) return false;
  encoded.set_origin(static_cast<uint32_t>(command.origin));
  encoded.set_seq(command.seq);
  encoded.set_item(command.item);
  out = std::move(encoded);
  return true;
}

bool decodeCommand(const pb::JournalCommand& in, Command& out, std::string& error) {
  if (!enumsInRange(in, error)) return false;
  std::optional<CommandBody> body = decodeBody(in);
  if (!body) {
    error = "a command without a body";
    return false;
  }
  out.origin = static_cast<ClientId>(in.origin());
  out.seq = in.seq();
  out.item = in.item();
  out.body = std::move(*body);
  return true;
}

}  // namespace npc
