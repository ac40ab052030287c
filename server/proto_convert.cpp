#include "proto_convert.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "base/prefetch.h"
#include "intent/intent_types.h"
#include "perception/sounds.h"
#include "world/limits.h"

namespace npc {

namespace {

std::string indexedWithId(std::string_view list, int index, std::string_view id_name,
                          uint64_t id);

// Collects the problems of one item, each prefixed with the item's label. A list item's
// label ("upserts[2] (id 17)") is formatted only when it has a problem: most items have
// none, and an update carries thousands.
class ItemErrors {
 public:
  ItemErrors(std::string label, std::vector<std::string>& out) : label_(std::move(label)), out_(out) {}
  // `list` and `id_name` must outlive this (they are literals).
  ItemErrors(std::string_view list, int index, std::string_view id_name, uint64_t id,
             std::vector<std::string>& out)
      : list_(list), id_name_(id_name), id_(id), index_(index), out_(out) {}

  std::string label() const {
    return index_ < 0 ? label_ : indexedWithId(list_, index_, id_name_, id_);
  }

  // "<label>.<field>: <problem>", or "<label>: <problem>" for the item as a whole; a
  // request's own fields have no label ("<field>: <problem>").
  void add(std::string_view field, std::string_view problem) {
    std::string line = label();
    if (!field.empty()) line.append(line.empty() ? "" : ".").append(field);
    line.append(": ").append(problem);
    out_.push_back(std::move(line));
    ++count_;
  }
  bool any() const { return count_ > 0; }
  size_t count() const { return count_; }

  void finite(std::string_view field, const v1::Vec3& v) {
    if (!(std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()))) {
      add(field, "must be finite");
    }
  }
  void requiredVec(std::string_view field, bool present, const v1::Vec3& v) {
    if (!present) {
      add(field, "must be set");
    } else {
      finite(field, v);
    }
  }
  void finiteAtLeastZero(std::string_view field, float value) {
    if (!(std::isfinite(value) && value >= 0.f)) add(field, "must be finite and >= 0");
  }
  // A finite value above its bound (limits.h): "must be at most 2000 m (got 1e+30)".
  // Non-finite values are the finite checks' to report.
  void atMost(std::string_view field, double value, double max, const char* unit) {
    if (!std::isfinite(value)) return;
    if (std::string problem = aboveMaximum(value, max, unit); !problem.empty()) add(field, problem);
  }
  // A finite position outside the world: "x 3.4e+38 is outside the world bounds (+-100000 m)".
  void inWorld(std::string_view field, const v1::Vec3& v, const WorldBounds& bounds) {
    if (!(std::isfinite(v.x()) && std::isfinite(v.y()) && std::isfinite(v.z()))) return;
    const Vec3 p{v.x(), v.y(), v.z()};
    if (!bounds.contains(p)) add(field, bounds.outside(p));
  }
  void notZero(std::string_view field, uint64_t id) {
    if (id == 0) add(field, "must not be 0");
  }
  void requiredName(std::string_view field, const std::string& text) {
    if (text.empty()) add(field, "must be set");
    length(field, text, kMaxNameBytes);
  }
  void length(std::string_view field, const std::string& text, size_t max_bytes) {
    if (text.size() > max_bytes) {
      add(field, "must be at most " + std::to_string(max_bytes) + " bytes (got " +
                     std::to_string(text.size()) + ")");
    }
  }
  // Proto3 enums are open: a newer client may send values this build does not know.
  void knownEnum(std::string_view field, int value, bool (*is_valid)(int), bool zero_allowed) {
    if (value == 0 && !zero_allowed) {
      add(field, "must be set");
    } else if (!is_valid(value)) {
      add(field, "unknown value " + std::to_string(value));
    }
  }

 private:
  std::string label_;
  std::string_view list_, id_name_;
  uint64_t id_ = 0;
  int index_ = -1;  // < 0: label_ is the label
  std::vector<std::string>& out_;
  size_t count_ = 0;
};

// "generic, footstep, ...": the kinds core accepts, in core's order.
std::string soundKindList() {
  std::string list;
  for (size_t i = 0; i < kSoundKindCount; ++i) {
    list.append(i == 0 ? "" : ", ").append(toString(static_cast<SoundKind>(i)));
  }
  return list;
}

std::string indexed(std::string_view list, int index) {
  return std::string(list) + "[" + std::to_string(index) + "]";
}

// "upserts[2] (id 17)"; the id is left out when it is 0 (that is an error of its own).
std::string indexedWithId(std::string_view list, int index, std::string_view id_name,
                          uint64_t id) {
  std::string label = indexed(list, index);
  if (id != 0) label += " (" + std::string(id_name) + " " + std::to_string(id) + ")";
  return label;
}

// Where each id of one list was first seen, to refuse repeats within one update. Open
// addressing over one array sized for the list: ids are never 0 here (refused before).
// Each stream thread keeps one (firstIndex()) and starts each list with start(): a slot
// counts only when its stamp is the list's, so starting costs no clearing.
class FirstIndex {
 public:
  void start(size_t items) {
    size_t slots = 16;
    while (slots < 2 * items) slots *= 2;
    if (slots > slots_.size() || ++stamp_ == 0) {
      slots_.assign(std::max(slots, slots_.size()), Slot{});
      stamp_ = 1;
    }
    mask_ = slots - 1;
  }

  bool isFirst(uint64_t id, int index, std::string_view list, ItemErrors& err) {
    size_t at = static_cast<size_t>((id * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
    while (slots_[at].stamp == stamp_ && slots_[at].id != id) at = (at + 1) & mask_;
    if (slots_[at].stamp != stamp_) {
      slots_[at] = {id, index, stamp_};
      return true;
    }
    err.add("", "id repeated in this update (first at " + indexed(list, slots_[at].index) + ")");
    return false;
  }

 private:
  struct Slot {
    uint64_t id = 0;
    int32_t index = 0;
    uint32_t stamp = 0;
  };
  std::vector<Slot> slots_;
  size_t mask_ = 0;
  uint32_t stamp_ = 0;
};

FirstIndex& firstIndex() {
  thread_local FirstIndex index;
  return index;
}

// Writes an update's commands into a batch, reusing the commands a batch applied earlier
// still holds (Simulation::submitExchanging hands such a batch back): an upsert, the
// commonest, is overwritten field by field where one was, so its buffers are neither
// destroyed nor built again. Each command is stamped with its sender and update, and
// digested for the tick (core/sim/command_digest.h) as soon as the next one is asked for,
// while its lines are still in this core's cache. finish() digests the last and drops what
// is left of the earlier batch.
class CommandWriter {
 public:
  CommandWriter(std::vector<Command>& commands, std::vector<CommandDigest>& digests,
                ClientId origin, uint64_t seq)
      : commands_(commands), digests_(digests), origin_(origin), seq_(seq) {
    digests_.clear();
  }

  // A new command of body T, default-built; `item`: the index within its list, so the tick
  // thread's errors can name it too.
  template <class T>
  T& add(int item = 0) {
    CommandBody& body = next(item).body;
    return body.emplace<T>();
  }
  // A body built beforehand.
  template <class T>
  void add(T body, int item = 0) {
    add<T>(item) = std::move(body);
  }
  // An upsert's state as an earlier command left it: the caller sets every field.
  EntityState& addUpsert(int item) {
    CommandBody& body = next(item).body;
    if (auto* upsert = std::get_if<UpsertEntity>(&body)) return upsert->state;
    return body.emplace<UpsertEntity>().state;
  }

  void finish() {
    if (used_ > 0) digests_.push_back(CommandDigest::of(commands_[used_ - 1]));
    commands_.resize(used_);
  }

 private:
  Command& next(int item) {
    if (used_ > 0) digests_.push_back(CommandDigest::of(commands_[used_ - 1]));
    // The earlier batch was last read by the tick thread, on another core: ask for the
    // lines of the commands about to be overwritten a few commands ahead (base/prefetch.h).
    prefetchRowAhead<PrefetchFor::kWrite>(std::span<Command>(commands_), used_);
    if (used_ == commands_.size()) commands_.emplace_back();
    Command& command = commands_[used_++];
    command.origin = origin_;
    command.seq = seq_;
    command.item = static_cast<uint32_t>(item);
    command.replayed = false;
    return command;
  }

  std::vector<Command>& commands_;
  std::vector<CommandDigest>& digests_;
  const ClientId origin_;
  const uint64_t seq_;
  size_t used_ = 0;
};

Vec3 toVec3(const v1::Vec3& v) { return {v.x(), v.y(), v.z()}; }

void setVec3(const Vec3& v, v1::Vec3& out) {
  out.set_x(v.x);
  out.set_y(v.y);
  out.set_z(v.z);
}

bool minAtMostMax(const v1::Vec3& a, const v1::Vec3& b) {
  return a.x() <= b.x() && a.y() <= b.y() && a.z() <= b.z();
}

size_t itemCount(const v1::WorldUpdate& u) {
  size_t n = static_cast<size_t>(u.upserts_size()) + u.removals_size() + u.obstacles_size() +
             u.obstacle_removals_size() + u.sounds_size() + u.signals_size() + u.results_size() +
             u.external_actions_size() + u.game_actions_size();
  if (u.has_subscribe()) n += u.subscribe().places_size() + u.subscribe().events_size();
  return n;
}

void convertObstacles(const v1::WorldUpdate& u, const WorldBounds& bounds, ConvertedUpdate& out,
                      CommandWriter& commands) {
  for (int i = 0; i < u.obstacles_size(); ++i) {
    const v1::Obstacle& o = u.obstacles(i);
    ItemErrors err("obstacles", i, "id", o.id(), out.errors);
    if (o.id() == 0) err.add("", "id must not be 0");
    const size_t before = out.errors.size();
    err.requiredVec("min", o.has_min(), o.min());
    err.requiredVec("max", o.has_max(), o.max());
    const bool corners_ok = out.errors.size() == before;
    if (corners_ok && !minAtMostMax(o.min(), o.max())) err.add("", "min must be <= max");
    err.inWorld("min", o.min(), bounds);
    err.inWorld("max", o.max(), bounds);
    if (corners_ok) {
      const v1::Vec3 &lo = o.min(), &hi = o.max();
      const double size = std::max({double{hi.x()} - lo.x(), double{hi.y()} - lo.y(),
                                    double{hi.z()} - lo.z()});
      err.atMost("size", size, kMaxObstacleSizeM, "m");
    }
    err.knownEnum("cover", o.cover(), v1::Cover_IsValid, false);
    if (err.any()) continue;
    Obstacle obstacle;
    obstacle.id = static_cast<ObstacleId>(o.id());
    obstacle.box = {toVec3(o.min()), toVec3(o.max())};
    obstacle.cover = o.cover() == v1::COVER_SOFT ? Cover::kSoft : Cover::kHard;
    commands.add(UpsertObstacle{obstacle});
  }
  for (int i = 0; i < u.obstacle_removals_size(); ++i) {
    if (u.obstacle_removals(i) == 0) {
      ItemErrors(indexed("obstacle_removals", i), out.errors).add("", "id must not be 0");
      continue;
    }
    commands.add(RemoveObstacle{static_cast<ObstacleId>(u.obstacle_removals(i))});
  }
}

void convertStimuli(const v1::WorldUpdate& u, const WorldBounds& bounds, ConvertedUpdate& out,
                    CommandWriter& commands) {
  for (int i = 0; i < u.sounds_size(); ++i) {
    const v1::Sound& s = u.sounds(i);
    ItemErrors err("sounds", i, "", 0, out.errors);
    err.requiredVec("position", s.has_position(), s.position());
    err.inWorld("position", s.position(), bounds);
    if (!(std::isfinite(s.radius()) && s.radius() > 0.f)) {
      err.add("radius", "must be finite and > 0");
    }
    err.atMost("radius", s.radius(), kMaxSoundRadiusM, "m");
    if (s.kind().size() > kMaxNameBytes) {
      err.length("kind", s.kind(), kMaxNameBytes);
    } else if (!s.kind().empty() && !parseSoundKind(s.kind())) {
      err.add("kind", "\"" + s.kind() + "\" is not a sound kind (" + soundKindList() + ")");
    }
    if (s.has_threat() && !(s.threat() >= 0.f && s.threat() <= 1.f)) {
      err.add("threat", "must be within 0..1");  // NaN fails both comparisons
    }
    if (err.any()) continue;
    SoundEvent sound;
    sound.source = static_cast<EntityId>(s.source());
    sound.position = toVec3(s.position());
    sound.radius_m = s.radius();
    sound.kind = s.kind();
    if (s.has_threat()) sound.threat = s.threat();
    commands.add(std::move(sound));
  }
  for (int i = 0; i < u.signals_size(); ++i) {
    SignalEvent signal;
    if (toSignalEvent(u.signals(i), indexed("signals", i), signal, out.errors, bounds)) {
      commands.add(std::move(signal));
    }
  }
}

void convertResults(const v1::WorldUpdate& u, ConvertedUpdate& out,
                    CommandWriter& commands) {
  for (int i = 0; i < u.results_size(); ++i) {
    const v1::ActionResult& r = u.results(i);
    ItemErrors err("results", i, "agent", r.agent(), out.errors);
    if (r.agent() == 0) err.add("", "agent must not be 0");
    if (r.intention() == 0) err.add("intention", "must not be 0");
    // Unset is refused: a result whose outcome was forgotten must not count as completed.
    err.knownEnum("outcome", r.outcome(), v1::ActionResult_Outcome_IsValid, false);
    if (!(std::isfinite(r.progress()) && r.progress() >= 0.f && r.progress() <= 1.f)) {
      err.add("progress", "must be within 0..1");
    }
    err.length("reason", r.reason(), kMaxReasonBytes);
    if (err.any()) continue;
    ActionResult result;
    result.agent = static_cast<EntityId>(r.agent());
    result.intention = static_cast<IntentionId>(r.intention());
    switch (r.outcome()) {
      case v1::ActionResult::OUTCOME_FAILED: result.outcome = ActionOutcome::kFailed; break;
      case v1::ActionResult::OUTCOME_PROGRESS: result.outcome = ActionOutcome::kProgress; break;
      default: result.outcome = ActionOutcome::kCompleted; break;  // OUTCOME_COMPLETED
    }
    result.progress = r.progress();
    result.reason = r.reason();
    commands.add(std::move(result), i);
  }
}

// Action parameters (seed 004's typed values), each problem labelled "params[i].<field>".
void convertParams(const google::protobuf::RepeatedPtrField<v1::Param>& params,
                   const WorldBounds& bounds, ItemErrors& err, std::vector<IntentionParam>& out) {
  if (params.size() > kMaxActionArgs) {
    err.add("params", "at most " + std::to_string(kMaxActionArgs) + " (got " +
                          std::to_string(params.size()) + ")");
    return;
  }
  for (int i = 0; i < params.size(); ++i) {
    const v1::Param& p = params.Get(i);
    const std::string field = indexed("params", i);
    IntentionParam q;
    q.name = p.name();
    err.length(field + ".name", p.name(), kMaxNameBytes);
    switch (p.value_case()) {
      case v1::Param::kEntity:
        q.type = IntentionParam::Type::kEntity;
        q.entity = static_cast<EntityId>(p.entity());
        err.notZero(field + ".entity", p.entity());
        break;
      case v1::Param::kNumber:
        q.type = IntentionParam::Type::kNumber;
        q.number = p.number();
        q.unit = p.unit();
        if (!std::isfinite(p.number())) err.add(field + ".number", "must be finite");
        err.length(field + ".unit", p.unit(), kMaxNameBytes);
        break;
      case v1::Param::kPosition:
        q.type = IntentionParam::Type::kPosition;
        q.position = toVec3(p.position());
        err.finite(field + ".position", p.position());
        err.inWorld(field + ".position", p.position(), bounds);
        break;
      case v1::Param::kText:
        q.type = IntentionParam::Type::kText;
        q.text = p.text();
        err.requiredName(field + ".text", p.text());
        break;
      case v1::Param::VALUE_NOT_SET:
        err.add(field, "needs a value (entity, number, position or text)");
        break;
    }
    out.push_back(std::move(q));
  }
}

void convertIntentionItems(const v1::WorldUpdate& u, const WorldBounds& bounds,
                           ConvertedUpdate& out, CommandWriter& commands) {
  for (int i = 0; i < u.external_actions_size(); ++i) {
    const v1::ExternalAction& x = u.external_actions(i);
    ItemErrors err("external_actions", i, "agent", x.agent(), out.errors);
    if (x.agent() == 0) err.add("", "agent must not be 0");
    err.length("action", x.action(), kMaxNameBytes);
    if (x.action().empty() && !x.coercive()) err.add("action", "must be set unless coercive");
    if (err.any()) continue;
    ExternalAction action;
    action.agent = static_cast<EntityId>(x.agent());
    action.from = static_cast<EntityId>(x.from());
    action.action = x.action();
    action.coercive = x.coercive();
    commands.add(std::move(action));
  }
  for (int i = 0; i < u.game_actions_size(); ++i) {
    const v1::GameAction& g = u.game_actions(i);
    ItemErrors err("game_actions", i, "agent", g.agent(), out.errors);
    if (g.agent() == 0) err.add("", "agent must not be 0");
    err.requiredName("action", g.action());
    if (!(std::isfinite(g.delay_s()) && g.delay_s() >= 0.0)) {
      err.add("delay_s", "must be finite and >= 0");
    }
    err.atMost("delay_s", g.delay_s(), kMaxDelayS, "s");
    GameAction action;
    convertParams(g.params(), bounds, err, action.params);
    if (err.any()) continue;
    action.agent = static_cast<EntityId>(g.agent());
    action.action = g.action();
    action.delay_s = g.delay_s();
    action.coercive = g.coercive();
    commands.add(std::move(action), i);
  }
}

void convertSubscription(const v1::Subscription& s, ConvertedUpdate& out) {
  const size_t errors_before = out.errors.size();
  Subscription sub;
  for (int i = 0; i < s.places_size(); ++i) {
    ItemErrors err(indexed("subscribe.places", i), out.errors);
    if (s.places(i).empty()) err.add("", "must not be empty");
    err.length("", s.places(i), kMaxNameBytes);
    sub.places.push_back(s.places(i));
  }
  for (int i = 0; i < s.events_size(); ++i) {
    ItemErrors err(indexed("subscribe.events", i), out.errors);
    if (s.events(i) == v1::EVENT_KIND_UNSPECIFIED) err.add("", "must not be EVENT_KIND_UNSPECIFIED");
    err.knownEnum("", s.events(i), v1::EventKind_IsValid, true);
    if (auto kind = fromProto(static_cast<v1::EventKind>(s.events(i)))) {
      sub.event_mask |= 1u << static_cast<unsigned>(*kind);
    }
  }
  sub.observe_all_actions = s.observe_all_actions();
  // A half-valid filter would silently deliver the wrong things: keep the previous one.
  if (out.errors.size() == errors_before) out.subscription = std::move(sub);
}

}  // namespace

bool toSignalEvent(const v1::Signal& s, const std::string& label, SignalEvent& out,
                   std::vector<std::string>& errors, const WorldBounds& bounds) {
  ItemErrors err(label, errors);
  err.requiredName("name", s.name());
  err.length("place", s.place(), kMaxNameBytes);
  err.length("species", s.species(), kMaxNameBytes);
  if (s.group() > 0xffffu) {
    err.add("group", "must be at most 65535 (got " + std::to_string(s.group()) + ")");
  }
  err.length("group_name", s.group_name(), kMaxNameBytes);
  err.finiteAtLeastZero("radius", s.radius());
  err.atMost("radius", s.radius(), kMaxSignalRadiusM, "m");
  if (s.has_position()) {
    err.finite("position", s.position());
    err.inWorld("position", s.position(), bounds);
  }
  if (!std::isfinite(s.value())) err.add("value", "must be finite");
  err.atMost("value", std::fabs(s.value()), kMaxSignalValue, "in magnitude");
  const bool by_other_scope =
      s.target() != 0 || !s.place().empty() || !s.species().empty() || s.group() != 0 ||
      !s.group_name().empty();
  if (!by_other_scope && !(s.radius() > 0.f)) {
    err.add("", "one of target, place, species, group, group_name or radius must be set");
  } else if (!by_other_scope && !s.has_position()) {
    err.add("position", "must be set with radius");
  }
  if (err.any()) return false;
  out.target = static_cast<EntityId>(s.target());
  out.place = s.place();
  out.species = s.species();
  out.group = static_cast<GroupNumber>(s.group());
  out.group_name = s.group_name();
  out.radius_m = s.radius();
  out.position = toVec3(s.position());
  out.name = s.name();
  out.sender = static_cast<EntityId>(s.sender());
  out.value = s.value();
  return true;
}

bool toCommand(const v1::DespawnAgentRequest& r, DespawnAgent& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("id", r.id());
  out.id = static_cast<EntityId>(r.id());
  return !err.any();
}

bool toCommand(const v1::GetAgentRequest& r, DescribeAgent& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("id", r.id());
  out.id = static_cast<EntityId>(r.id());
  return !err.any();
}

bool toCommand(const v1::SendSignalRequest& r, SignalEvent& out,
               std::vector<std::string>& errors, const WorldBounds& bounds) {
  return toSignalEvent(r.signal(), "signal", out, errors, bounds);
}

// Requests that set a named value on one agent (a selection variable, a planner fact).
template <class Request, class Body>
bool toNamedValue(const Request& r, Body& out, std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("agent", r.agent());
  err.requiredName("name", r.name());
  out.agent = static_cast<EntityId>(r.agent());
  out.name = r.name();
  out.value = r.value();
  return !err.any();
}

bool toCommand(const v1::SetBehaviorVariableRequest& r, SetBehaviorVariable& out,
               std::vector<std::string>& errors) {
  return toNamedValue(r, out, errors);
}

bool toCommand(const v1::SetPlannerValueRequest& r, SetPlannerValue& out,
               std::vector<std::string>& errors) {
  out.blackboard = r.blackboard();
  out.planner = r.planner();
  const bool named = toNamedValue(r, out, errors);
  ItemErrors err("", errors);
  err.length("planner", r.planner(), kMaxNameBytes);
  return named && !err.any();
}

bool toCommand(const v1::GetPlanTraceRequest& r, GetPlanTrace& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("agent", r.agent());
  err.length("planner", r.planner(), kMaxNameBytes);
  out.agent = static_cast<EntityId>(r.agent());
  out.planner = r.planner();
  if (r.has_trace()) out.trace = r.trace();
  return !err.any();
}

bool toCommand(const v1::SetSensorsRequest& r, SetSensors& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("agent", r.agent());
  if (r.has_sight_range()) {
    err.finiteAtLeastZero("sight_range", r.sight_range());
    err.atMost("sight_range", r.sight_range(), kMaxSightRangeM, "m");
  }
  if (r.has_fov_deg() && !(r.fov_deg() > 0.f && r.fov_deg() <= 360.f)) {
    err.add("fov_deg", "must be within (0, 360]");
  }
  if (r.has_hearing_scale()) {
    err.finiteAtLeastZero("hearing_scale", r.hearing_scale());
    err.atMost("hearing_scale", r.hearing_scale(), kMaxHearingScale, "");
  }
  out.agent = static_cast<EntityId>(r.agent());
  if (r.has_vision()) out.vision = r.vision();
  if (r.has_hearing()) out.hearing = r.hearing();
  if (r.has_signals()) out.signals = r.signals();
  if (r.has_sight_range()) out.sight_range_m = r.sight_range();
  if (r.has_fov_deg()) out.fov_deg = r.fov_deg();
  if (r.has_hearing_scale()) out.hearing_scale = r.hearing_scale();
  return !err.any();
}

bool toCommand(const v1::SetPerceptionTuningRequest& r, SetPerceptionTuning& out,
               std::vector<std::string>& errors) {
  if (r.has_som_speed()) out.som_speed = r.som_speed();
  if (r.has_decay_per_update()) out.decay_per_update = r.decay_per_update();
  if (r.has_suspicious_threshold()) out.suspicious_threshold = r.suspicious_threshold();
  return true;  // ranges are checked where the values apply, with the same messages
}

bool toCommand(const v1::RegisterVisibilityTypeRequest& r, RegisterVisibilityType& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.requiredName("type", r.type());
  if (r.has_multiplier() && !(std::isfinite(r.multiplier()) && r.multiplier() > 0.f)) {
    err.add("multiplier", "must be finite and > 0");
  }
  if (r.has_multiplier()) err.atMost("multiplier", r.multiplier(), kMaxVisibilityMultiplier, "");
  out.type = r.type();
  out.multiplier = r.has_multiplier() ? r.multiplier() : 1.f;
  out.use_coefficient = r.use_coefficient();
  out.neutral = r.neutral();
  out.remove = r.remove();
  return !err.any();
}

bool toCommand(const v1::SetAttributePrincipalRequest& r, SetAttributePrincipal& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("attribute", r.attribute());
  out.attribute = static_cast<EntityId>(r.attribute());
  out.principal = static_cast<EntityId>(r.principal());
  return !err.any();
}

bool toCommand(const v1::GetStealthMeterRequest& r, GetStealth& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("player", r.player());
  out.player = static_cast<EntityId>(r.player());
  return !err.any();
}

bool toCommand(const v1::ReloadDefinitionsRequest&, ReloadDefinitions&,
               std::vector<std::string>&) {
  return true;
}

bool toCommand(const v1::ProgramIntentionRequest& r, ProgramIntention& out,
               std::vector<std::string>& errors, const WorldBounds& bounds) {
  ItemErrors err("", errors);
  err.notZero("agent", r.agent());
  err.requiredName("action", r.action());
  if (!(std::isfinite(r.delay_s()) && r.delay_s() >= 0.0)) {
    err.add("delay_s", "must be finite and >= 0");
  }
  err.atMost("delay_s", r.delay_s(), kMaxDelayS, "s");
  convertParams(r.params(), bounds, err, out.params);
  out.agent = static_cast<EntityId>(r.agent());
  out.action = r.action();
  out.delay_s = r.delay_s();
  out.depends_on = static_cast<IntentionId>(r.depends_on());
  return !err.any();
}

bool toCommand(const v1::CancelIntentionRequest& r, CancelIntention& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("agent", r.agent());
  err.notZero("intention", r.intention());
  out.agent = static_cast<EntityId>(r.agent());
  out.intention = static_cast<IntentionId>(r.intention());
  return !err.any();
}

bool toCommand(const v1::AddInfluenceRequest& r, AddInfluence& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("agent", r.agent());
  err.requiredName("influence", r.influence());
  out.agent = static_cast<EntityId>(r.agent());
  out.influence = r.influence();
  return !err.any();
}

bool toCommand(const v1::RemoveInfluenceRequest& r, RemoveInfluence& out,
               std::vector<std::string>& errors) {
  ItemErrors err("", errors);
  err.notZero("agent", r.agent());
  err.requiredName("influence", r.influence());
  out.agent = static_cast<EntityId>(r.agent());
  out.influence = r.influence();
  return !err.any();
}

bool toCommand(const v1::WakePlaceRequest& request, WakePlace& out,
               std::vector<std::string>& errors) {
  if (request.place().empty()) errors.push_back("place: must be set");
  if (request.place().size() > kMaxNameBytes) errors.push_back("place: longer than 256 bytes");
  if (!(std::isfinite(request.delay_s()) && request.delay_s() >= 0.0)) {
    errors.push_back("delay_s: must be finite and >= 0");
  }
  ItemErrors("", errors).atMost("delay_s", request.delay_s(), kMaxDelayS, "s");
  out.place = request.place();
  out.delay_s = request.delay_s();
  return errors.empty();
}

std::optional<EntityKind> fromProto(v1::EntityKind kind) {
  switch (kind) {
    case v1::ENTITY_KIND_NPC: return EntityKind::kNpc;
    case v1::ENTITY_KIND_PLAYER: return EntityKind::kPlayer;
    case v1::ENTITY_KIND_OBJECT: return EntityKind::kObject;
    case v1::ENTITY_KIND_ATTRIBUTE: return EntityKind::kAttribute;
    default: return std::nullopt;
  }
}

v1::EntityKind toProto(EntityKind kind) {
  switch (kind) {
    case EntityKind::kNpc: return v1::ENTITY_KIND_NPC;
    case EntityKind::kPlayer: return v1::ENTITY_KIND_PLAYER;
    case EntityKind::kObject: return v1::ENTITY_KIND_OBJECT;
    case EntityKind::kAttribute: return v1::ENTITY_KIND_ATTRIBUTE;
  }
  return v1::ENTITY_KIND_UNSPECIFIED;
}

std::optional<EventKind> fromProto(v1::EventKind kind) {
  switch (kind) {
    case v1::EVENT_KIND_ERROR: return EventKind::kError;
    case v1::EVENT_KIND_AGENT_SPAWNED: return EventKind::kAgentSpawned;
    case v1::EVENT_KIND_AGENT_DESPAWNED: return EventKind::kAgentDespawned;
    case v1::EVENT_KIND_INTENTION_COMPLETED: return EventKind::kIntentionCompleted;
    case v1::EVENT_KIND_INTENTION_FAILED: return EventKind::kIntentionFailed;
    case v1::EVENT_KIND_BEHAVIOR: return EventKind::kBehavior;
    case v1::EVENT_KIND_STEALTH: return EventKind::kStealth;
    case v1::EVENT_KIND_PLACE_ASLEEP: return EventKind::kPlaceAsleep;
    case v1::EVENT_KIND_PLACE_AWAKE: return EventKind::kPlaceAwake;
    case v1::EVENT_KIND_INTENTION_STARTED: return EventKind::kIntentionStarted;
    case v1::EVENT_KIND_INTENTION_INTERRUPTED: return EventKind::kIntentionInterrupted;
    default: return std::nullopt;
  }
}

v1::EventKind toProto(EventKind kind) {
  switch (kind) {
    case EventKind::kError: return v1::EVENT_KIND_ERROR;
    case EventKind::kAgentSpawned: return v1::EVENT_KIND_AGENT_SPAWNED;
    case EventKind::kAgentDespawned: return v1::EVENT_KIND_AGENT_DESPAWNED;
    case EventKind::kIntentionCompleted: return v1::EVENT_KIND_INTENTION_COMPLETED;
    case EventKind::kIntentionFailed: return v1::EVENT_KIND_INTENTION_FAILED;
    case EventKind::kBehavior: return v1::EVENT_KIND_BEHAVIOR;
    case EventKind::kStealth: return v1::EVENT_KIND_STEALTH;
    case EventKind::kPlaceAsleep: return v1::EVENT_KIND_PLACE_ASLEEP;
    case EventKind::kPlaceAwake: return v1::EVENT_KIND_PLACE_AWAKE;
    case EventKind::kIntentionStarted: return v1::EVENT_KIND_INTENTION_STARTED;
    case EventKind::kIntentionInterrupted: return v1::EVENT_KIND_INTENTION_INTERRUPTED;
  }
  return v1::EVENT_KIND_UNSPECIFIED;
}

namespace {

// validateEntity's checks, reported through `err`; true when `err` got none from them.
bool checkEntity(const v1::Entity& e, bool kind_required, ItemErrors& err,
                 const WorldBounds& bounds) {
  const size_t before = err.count();
  if (e.id() == 0) err.add("", "id must not be 0");
  err.knownEnum("kind", e.kind(), v1::EntityKind_IsValid, !kind_required);
  if (e.has_position()) {
    err.finite("position", e.position());
    err.inWorld("position", e.position(), bounds);
  }
  if (e.has_forward()) {
    const v1::Vec3& f = e.forward();
    const bool finite = std::isfinite(f.x()) && std::isfinite(f.y()) && std::isfinite(f.z());
    if (!finite || f.x() * f.x() + f.y() * f.y() + f.z() * f.z() < 1e-12f) {
      err.add("forward", "must be a finite, non-zero direction");
    }
  }
  if (e.has_velocity()) {
    err.finite("velocity", e.velocity());
    const v1::Vec3& v = e.velocity();
    err.atMost("velocity", std::max({std::fabs(v.x()), std::fabs(v.y()), std::fabs(v.z())}),
               kMaxEntitySpeedMps, "m/s per axis");
  }
  if (e.has_eye_height()) {
    err.finiteAtLeastZero("eye_height", e.eye_height());
    err.atMost("eye_height", e.eye_height(), kMaxEyeHeightM, "m");
  }
  err.length("species", e.species(), kMaxNameBytes);
  err.length("place", e.place(), kMaxNameBytes);
  err.length("archetype", e.archetype(), kMaxNameBytes);
  err.length("group", e.group(), kMaxNameBytes);
  return err.count() == before;
}

// Most upserts leave most names empty: clearing is inline, assigning is a call.
void assignName(const std::string& from, std::string& to) {
  if (from.empty()) {
    to.clear();
  } else {
    to.assign(from);
  }
}

template <class T, class V>
void setIf(bool present, std::optional<T>& field, const V& value) {
  if (present) {
    field = value;
  } else {
    field.reset();
  }
}

// Sets every field of `s`, which may hold an earlier upsert's state (CommandWriter).
// A field added to EntityState must be set here too, or a stream would send a stale one.
static_assert(sizeof(EntityState) == 224, "a new EntityState field: set it in fillEntityState");
void fillEntityState(const v1::Entity& e, EntityKind unspecified_kind, EntityState& s) {
  s.id = static_cast<EntityId>(e.id());
  s.kind = fromProto(e.kind()).value_or(unspecified_kind);
  assignName(e.species(), s.species);
  setIf(e.has_position(), s.position, toVec3(e.position()));
  setIf(e.has_forward(), s.forward, toVec3(e.forward()));
  setIf(e.has_velocity(), s.velocity, toVec3(e.velocity()));
  setIf(e.has_eye_height(), s.eye_height_m, e.eye_height());
  setIf(e.has_active(), s.active, e.active());
  setIf(e.has_takeable(), s.takeable, e.takeable());
  setIf(e.has_lifetime(), s.lifetime_s, e.lifetime());
  assignName(e.place(), s.place);
  assignName(e.archetype(), s.archetype);
  assignName(e.group(), s.group);
  s.relayed = false;
}

}  // namespace

bool validateEntity(const v1::Entity& e, const std::string& label, bool kind_required,
                    std::vector<std::string>& errors, const WorldBounds& bounds) {
  ItemErrors err(label, errors);
  return checkEntity(e, kind_required, err, bounds);
}

EntityState toEntityState(const v1::Entity& e, EntityKind unspecified_kind) {
  EntityState s;
  fillEntityState(e, unspecified_kind, s);
  return s;
}

bool toSpawnState(const v1::Entity& agent, EntityState& out, std::vector<std::string>& errors,
                  const WorldBounds& bounds) {
  const size_t before = errors.size();
  validateEntity(agent, "agent", false, errors, bounds);
  ItemErrors err("agent", errors);
  if (agent.kind() != v1::ENTITY_KIND_UNSPECIFIED && agent.kind() != v1::ENTITY_KIND_NPC &&
      v1::EntityKind_IsValid(agent.kind())) {
    err.add("kind", "must be ENTITY_KIND_NPC or unset");
  }
  if (!agent.has_position()) err.add("position", "is required");
  if (agent.archetype().empty()) err.add("archetype", "is required");
  if (errors.size() != before) return false;
  out = toEntityState(agent, EntityKind::kNpc);
  return true;
}

void convertUpdate(const v1::WorldUpdate& u, ClientId origin, size_t max_items,
                   const WorldBounds& bounds, ConvertedUpdate& out) {
  out.errors.clear();
  out.subscription.reset();
  out.refused = false;
  if (const size_t n = itemCount(u); n > max_items) {
    out.commands.clear();
    out.digests.clear();
    out.refused = true;
    out.errors.push_back("update: " + std::to_string(n) + " items exceed the limit of " +
                         std::to_string(max_items) + " per update; nothing was applied");
    return;
  }
  // The batch CommandInbox::push handed back last time still holds its commands: they are
  // overwritten, not destroyed and built again.
  CommandWriter commands(out.commands, out.digests, origin, u.seq());
  out.commands.reserve(itemCount(u));

  // An id twice in one list is ambiguous (which state wins?): the later item is refused.
  FirstIndex& first_upsert = firstIndex();
  first_upsert.start(static_cast<size_t>(u.upserts_size()));
  for (int i = 0; i < u.upserts_size(); ++i) {
    const v1::Entity& e = u.upserts(i);
    ItemErrors err("upserts", i, "id", e.id(), out.errors);
    if (!checkEntity(e, true, err, bounds)) continue;
    if (!first_upsert.isFirst(e.id(), i, "upserts", err)) continue;
    fillEntityState(e, EntityKind::kObject, commands.addUpsert(i));
  }
  FirstIndex& first_removal = firstIndex();  // the upserts' is done with
  first_removal.start(static_cast<size_t>(u.removals_size()));
  for (int i = 0; i < u.removals_size(); ++i) {
    if (u.removals(i) == 0) {
      ItemErrors(indexed("removals", i), out.errors).add("", "id must not be 0");
      continue;
    }
    ItemErrors err("removals", i, "id", u.removals(i), out.errors);
    if (!first_removal.isFirst(u.removals(i), i, "removals", err)) continue;
    commands.add<RemoveEntity>(i).id = static_cast<EntityId>(u.removals(i));
  }
  convertObstacles(u, bounds, out, commands);
  convertStimuli(u, bounds, out, commands);
  convertResults(u, out, commands);
  convertIntentionItems(u, bounds, out, commands);
  if (u.has_subscribe()) convertSubscription(u.subscribe(), out);
  commands.finish();

  if (out.errors.size() > kMaxErrorsPerUpdate) {
    const size_t hidden = out.errors.size() - kMaxErrorsPerUpdate;
    out.errors.resize(kMaxErrorsPerUpdate);
    out.errors.push_back("update: " + std::to_string(hidden) + " more errors not shown");
  }
}

ConvertedUpdate convertUpdate(const v1::WorldUpdate& u, ClientId origin, size_t max_items,
                              const WorldBounds& bounds) {
  ConvertedUpdate out;
  convertUpdate(u, origin, max_items, bounds, out);
  return out;
}

void toProto(const ActionOut& a, const NameTable<ActionNameId>& names, const World& world,
             v1::Action& out) {
  out.Clear();
  out.set_agent(raw(a.agent));
  out.set_intention(raw(a.intention));
  out.set_name(names.name(a.name));
  if (const Place* place = world.place(a.place)) out.set_place(place->name);
  for (uint8_t i = 0; i < a.param_count && i < kMaxActionParams; ++i) {
    const ActionParam& p = a.params[i];
    v1::Param* q = out.add_params();
    q->set_name(names.name(p.name));
    switch (p.type) {
      case ActionParam::Type::kEntity: q->set_entity(raw(p.entity)); break;
      case ActionParam::Type::kNumber:
        q->set_number(p.number);
        q->set_unit(names.name(p.unit));
        break;
      case ActionParam::Type::kPosition: setVec3(p.position, *q->mutable_position()); break;
      case ActionParam::Type::kText: q->set_text(names.name(p.text)); break;
    }
  }
}

void toProto(const EventOut& e, const World& world, v1::Event& out) {
  out.Clear();
  out.set_kind(toProto(e.kind));
  out.set_agent(raw(e.agent));
  if (const Place* place = world.place(e.place)) out.set_place(place->name);
  out.set_seq(e.seq);
  out.set_text(e.text);
  out.set_subject(raw(e.subject));
  out.set_value(e.value);
  out.set_intention(raw(e.intention));
}

v1::Event errorEvent(uint64_t seq, const std::string& text) {
  v1::Event ev;
  ev.set_kind(v1::EVENT_KIND_ERROR);
  ev.set_seq(seq);
  ev.set_text(text);
  return ev;
}

void toProto(const ClusterView& view, const std::string& node, v1::GetClusterStateResponse& out) {
  out.set_enabled(true);
  out.set_node(node);
  for (const LiveNode& n : view.nodes) {
    v1::ClusterNode& o = *out.add_nodes();
    o.set_node(n.node);
    o.set_address(n.address);
  }
  for (const ClusterPlaceView& p : view.places) {
    v1::ClusterPlace& o = *out.add_places();
    o.set_place(p.place);
    o.set_node(p.node);
    o.set_epoch(p.epoch);
    o.set_address(p.address);
    o.set_remaining_s(p.remaining_s);
    o.set_held_here(!p.node.empty() && p.node == node);
  }
}

}  // namespace npc
