#include "perception_codec.h"

#include <algorithm>
#include <cmath>

#include "perception/perception_system.h"
#include "sim/sim_state_access.h"
#include "world/world.h"
#include "sim_state_copy.h"
#include "world_codec.h"

namespace npc {

void encodePerception(const PerceptionState& s, pb::PerceptionState& out) {
  pb::SensorState& sensors = *out.mutable_sensors();
  sensors.set_vision(s.sensors.vision);
  sensors.set_hearing(s.sensors.hearing);
  sensors.set_signals(s.sensors.signals);
  sensors.set_sight_range_m(s.sensors.sight_range_m);
  sensors.set_fov_deg(s.sensors.fov_deg);
  sensors.set_hearing_scale(s.sensors.hearing_scale);
  sensors.set_soft_cover_min_s(s.sensors.soft_cover_min_s);
  sensors.set_soft_cover_max_s(s.sensors.soft_cover_max_s);
  out.set_group(raw(s.group));
  out.set_soft_cover_persist_s(s.soft_cover_persist_s);
  out.set_next_full_update_tick(s.next_full_update_tick);
  out.set_last_full_update_s(s.last_full_update_s);
  out.set_last_bullet_rain_s(s.last_bullet_rain_s);
  out.set_full_updates(s.full_updates);
  for (const TargetTrack& t : s.activeTracks()) {
    pb::TrackState& o = *out.add_tracks();
    o.set_target(raw(t.target));
    encodeVec3(t.position, *o.mutable_position());
    o.set_coefficient(t.coefficient);
    o.set_threat(t.threat);
    o.set_distance_m(t.distance_m);
    o.set_visible_since_s(t.visible_since_s);
    o.set_last_seen_s(t.last_seen_s);
    o.set_timer_s(t.timer_s);
    o.set_state(static_cast<uint32_t>(t.state));
    o.set_flags(t.flags);
  }
  for (const SoundTarget& t : s.activeSounds()) {
    pb::SoundTargetState& o = *out.add_sounds();
    o.set_source(raw(t.source));
    encodeVec3(t.position, *o.mutable_position());
    o.set_threat(t.threat);
    o.set_heard_s(t.heard_s);
    o.set_expires_s(t.expires_s);
    o.set_kind(static_cast<uint32_t>(t.kind));
  }
  pb::AttentionState& a = *out.mutable_attention();
  a.set_cls(static_cast<uint32_t>(s.attention.cls));
  a.set_target(raw(s.attention.target));
  encodeVec3(s.attention.position, *a.mutable_position());
  a.set_threat(s.attention.threat);
  out.set_tracks_dropped(s.tracks_dropped);
  out.set_sound_targets_dropped(s.sound_targets_dropped);
  out.set_candidates_truncated(s.candidates_truncated);
}

void decodePerception(const pb::PerceptionState& in, PerceptionState& s) {
  s = PerceptionState{};
  const pb::SensorState& sensors = in.sensors();
  s.sensors.vision = sensors.vision();
  s.sensors.hearing = sensors.hearing();
  s.sensors.signals = sensors.signals();
  s.sensors.sight_range_m = sensors.sight_range_m();
  s.sensors.fov_deg = sensors.fov_deg();
  s.sensors.hearing_scale = sensors.hearing_scale();
  s.sensors.soft_cover_min_s = sensors.soft_cover_min_s();
  s.sensors.soft_cover_max_s = sensors.soft_cover_max_s();
  s.group = static_cast<GroupNumber>(in.group());
  s.soft_cover_persist_s = in.soft_cover_persist_s();
  s.next_full_update_tick = in.next_full_update_tick();
  s.last_full_update_s = in.last_full_update_s();
  s.last_bullet_rain_s = in.last_bullet_rain_s();
  s.full_updates = in.full_updates();
  const size_t tracks = std::min<size_t>(static_cast<size_t>(in.tracks_size()), kMaxTracks);
  for (size_t i = 0; i < tracks; ++i) {
    const pb::TrackState& o = in.tracks(static_cast<int>(i));
    TargetTrack& t = s.tracks[i];
    t.target = EntityId{o.target()};
    t.position = decodeVec3(o.position());
    t.coefficient = o.coefficient();
    t.threat = o.threat();
    t.distance_m = o.distance_m();
    t.visible_since_s = o.visible_since_s();
    t.last_seen_s = o.last_seen_s();
    t.timer_s = o.timer_s();
    t.state = static_cast<TrackState>(o.state());
    t.flags = static_cast<uint8_t>(o.flags());
  }
  s.track_count = static_cast<uint8_t>(tracks);
  const size_t sounds = std::min<size_t>(static_cast<size_t>(in.sounds_size()), kMaxSoundTargets);
  for (size_t i = 0; i < sounds; ++i) {
    const pb::SoundTargetState& o = in.sounds(static_cast<int>(i));
    SoundTarget& t = s.sounds[i];
    t.source = EntityId{o.source()};
    t.position = decodeVec3(o.position());
    t.threat = o.threat();
    t.heard_s = o.heard_s();
    t.expires_s = o.expires_s();
    t.kind = static_cast<SoundKind>(o.kind());
  }
  s.sound_count = static_cast<uint8_t>(sounds);
  s.attention.cls = static_cast<AttentionClass>(in.attention().cls());
  s.attention.target = EntityId{in.attention().target()};
  s.attention.position = decodeVec3(in.attention().position());
  s.attention.threat = in.attention().threat();
  s.tracks_dropped = in.tracks_dropped();
  s.sound_targets_dropped = in.sound_targets_dropped();
  s.candidates_truncated = in.candidates_truncated();
}

void encodePerceptionSystem(const SimStateCopy& copy, pb::PerceptionSystemState& out) {
  out.set_som_speed(copy.som_speed);
  out.set_decay_per_update(copy.decay_per_update);
  out.set_suspicious_threshold(copy.suspicious_threshold);
  for (const auto& [type, settings] : copy.visibility_types) {
    pb::VisibilityTypeState& t = *out.add_visibility_types();
    t.set_species(nameAt(copy.species_names, raw(type)));
    t.set_multiplier(settings.multiplier);
    t.set_use_coefficient(settings.use_coefficient);
    t.set_neutral(settings.neutral);
  }
  for (const auto& [attribute, principal] : copy.principals) {
    pb::AttributePrincipalState& link = *out.add_principals();
    link.set_attribute(raw(attribute));
    link.set_principal(raw(principal));
  }
  for (size_t i = 0; i < copy.stealth.size(); ++i) {
    const StealthReading& r = copy.stealth[i];
    pb::StealthReadingState& o = *out.add_stealth();
    o.set_player(raw(r.player));
    o.set_agent(raw(r.agent));
    o.set_value(r.value);
    o.set_reported(i < copy.stealth_reported.size() ? copy.stealth_reported[i] : 0.f);
  }
  for (const SignalRequest& r : copy.pending_signals) {
    pb::PendingSignalState& o = *out.add_pending_signals();
    o.set_signal(raw(r.id));
    o.set_scope(static_cast<uint32_t>(r.scope));
    o.set_sender(raw(r.sender));
    o.set_target(raw(r.target));
    o.set_group(raw(r.group));
    o.set_species(raw(r.species));
    o.set_radius_m(r.radius_m);
    o.set_place(raw(r.place));
    encodeVec3(r.position, *o.mutable_position());
    o.set_value(r.value);
    o.set_subject(raw(r.subject));
    o.set_action(raw(r.action));
    o.set_include_sender(r.include_sender);
  }
  for (const Sound& sound : copy.pending_sounds) {
    pb::PendingSoundState& o = *out.add_pending_sounds();
    encodeVec3(sound.position, *o.mutable_position());
    o.set_radius_m(sound.radius_m);
    o.set_kind(static_cast<uint32_t>(sound.kind));
    o.set_source(raw(sound.source));
    o.set_threat(sound.threat);
  }
}

namespace {

void restorePending(const pb::PerceptionSystemState& in, SimStateAccess& access) {
  std::vector<SignalRequest> signals;
  for (const pb::PendingSignalState& o : in.pending_signals()) {
    SignalRequest& r = signals.emplace_back();
    r.id = static_cast<SignalId>(o.signal());
    r.scope = static_cast<SignalScope>(o.scope());
    r.sender = EntityId{o.sender()};
    r.target = EntityId{o.target()};
    r.group = static_cast<GroupNumber>(o.group());
    r.species = SpeciesId{static_cast<uint16_t>(o.species())};
    r.radius_m = o.radius_m();
    r.place = static_cast<PlaceIndex>(o.place());
    r.position = decodeVec3(o.position());
    r.value = o.value();
    r.subject = EntityId{o.subject()};
    r.action = ActionNameId{static_cast<uint16_t>(o.action())};
    r.include_sender = o.include_sender();
  }
  std::vector<Sound> sounds;
  for (const pb::PendingSoundState& o : in.pending_sounds()) {
    sounds.push_back({decodeVec3(o.position()), o.radius_m(), static_cast<SoundKind>(o.kind()),
                      EntityId{o.source()}, o.threat()});
  }
  access.addPending(signals, sounds);
}

}  // namespace

bool restorePerceptionSystem(const pb::PerceptionSystemState& in, SimStateAccess& access,
                             std::string& error) {
  for (const pb::VisibilityTypeState& t : in.visibility_types()) {
    if (t.species().empty() || !(std::isfinite(t.multiplier()) && t.multiplier() > 0.f)) {
      error = "perception: visibility type \"" + t.species() + "\": bad name or multiplier";
      return false;
    }
  }
  SetPerceptionTuning tuning;
  tuning.som_speed = in.som_speed();
  tuning.decay_per_update = in.decay_per_update();
  tuning.suspicious_threshold = in.suspicious_threshold();
  if (!access.setPerceptionTuning(tuning).isOk()) {
    error = "perception: tuning out of range";
    return false;
  }
  std::vector<std::pair<std::string, VisibilityType>> types;
  for (const pb::VisibilityTypeState& t : in.visibility_types()) {
    types.push_back({t.species(), {t.multiplier(), t.use_coefficient(), t.neutral()}});
  }
  access.setVisibilityTypes(types);
  std::vector<std::pair<EntityId, EntityId>> links;
  for (const pb::AttributePrincipalState& link : in.principals()) {
    links.emplace_back(EntityId{link.attribute()}, EntityId{link.principal()});
  }
  access.setAttributePrincipals(std::move(links));
  std::vector<StealthReading> readings;
  std::vector<float> reported;
  for (const pb::StealthReadingState& r : in.stealth()) {
    if (!readings.empty() && r.player() <= raw(readings.back().player)) {
      error = "perception: stealth readings out of player order";
      return false;
    }
    readings.push_back({EntityId{r.player()}, EntityId{r.agent()}, r.value()});
    reported.push_back(r.reported());
  }
  access.setStealth(std::move(readings), std::move(reported));
  restorePending(in, access);
  return true;
}

}  // namespace npc
