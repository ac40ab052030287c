// Actions and intentions inside the simulation (seed 004, issue 06): actions defined in
// data, influences, the intention commands (ProgramIntention, CancelIntention,
// ExternalAction, GameAction, Add/RemoveInfluence) with their errors, and intention events
// reaching selection trees as signals. Raoul the baker plays the seed's examples.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"
#include "sim/simulation.h"
#include "sim_fixture.h"

using namespace npc;
using npc::test::upsert;

namespace {

// Raoul and Gertrude act only when told (their behaviors are all idle, senses off). Raoul's
// selection tree records intention events in variables and is startled by an interruption
// (only then: a behavior change drops what the old behavior programmed); Gertrude's fetches
// the bread on "breads_ready".
constexpr const char* kArchetypes = R"({
  "raoul": {
    "species": "human", "selection_tree": "RaoulMind", "action_timeout_s": 30,
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Idle": { "mode": "idle" }, "Startled": { "mode": "idle" } },
    "actions": {
      "Go":     { "side": "client", "timeout_s": 60 },
      "Take":   { "side": "client" },
      "Wait":   { "side": "daemon", "kind": "wait" },
      "Talk":   { "side": "daemon", "kind": "signal" },
      "Die":    { "side": "client", "game_only": true, "coercive": true },
      "Land":   { "side": "client", "game_only": true },
      "Attack": { "side": "client", "coercive": true },
      "Chat":   { "side": "client" }
    }
  },
  "wife": {
    "species": "human", "selection_tree": "Wife",
    "perception": { "vision": false, "hearing": false },
    "behaviors": { "Idle": { "mode": "idle" }, "FetchBread": { "mode": "idle" } }
  }
})";

constexpr const char* kInfluences = R"({
  "spell:levitate":   { "priority": 10, "actions": { "Fly": { "side": "client" } } },
  "profession:baker": { "priority": 5,
                        "actions": { "Fly": { "side": "client", "timeout_s": 5 },
                                     "Cooking/Mix": { "side": "client" } } },
  "blessing:1": { "priority": 1 }, "blessing:2": { "priority": 1 },
  "blessing:3": { "priority": 1 }, "blessing:4": { "priority": 1 },
  "blessing:5": { "priority": 1 }
})";

constexpr const char* kRaoulMind = R"(<SelectionTree name="RaoulMind" type="BehaviorSelectionTree">
<Variables>
  <Variable name="Started"/>
  <Variable name="Succeeded"/>
  <Variable name="Failed"/>
  <Variable name="Interrupted"/>
</Variables>
<SignalVariables>
  <Signal name="OnIntentionStarted" variable="Started" value="true"/>
  <Signal name="OnIntentionCompleted" variable="Succeeded" value="true"/>
  <Signal name="OnIntentionFailed" variable="Failed" value="true"/>
  <Signal name="OnIntentionInterrupted" variable="Interrupted" value="true"/>
</SignalVariables>
<Priority name="Root">
  <Leaf name="Startled" condition="Interrupted"/>
  <Leaf name="Idle"/>
</Priority>
</SelectionTree>)";

constexpr const char* kWife = R"(<SelectionTree name="Wife" type="BehaviorSelectionTree">
<Variables>
  <Variable name="BreadsReady"/>
</Variables>
<SignalVariables>
  <Signal name="breads_ready" variable="BreadsReady" value="true"/>
</SignalVariables>
<Priority name="Root">
  <Leaf name="FetchBread" condition="BreadsReady"/>
  <Leaf name="Idle"/>
</Priority>
</SelectionTree>)";

constexpr uint64_t kRaoul = 2001, kGertrude = 2002, kFlowers = 3001, kWolf = 4001;

ArchetypeSet archetypes(const char* text = kArchetypes) {
  JsonReader reader("archetypes.json");
  nlohmann::json j;
  REQUIRE(reader.parse(text, j));
  ArchetypeSet set;
  set.loadObject(j, reader);
  INFO(reader.report());
  REQUIRE(reader.ok());
  return set;
}

InfluenceSet influences(const char* text = kInfluences) {
  JsonReader reader("influences.json");
  nlohmann::json j;
  REQUIRE(reader.parse(text, j));
  InfluenceSet set;
  set.loadObject(j, reader);
  INFO(reader.report());
  REQUIRE(reader.ok());
  return set;
}

IntentionParam entity(const char* name, uint64_t id) {
  IntentionParam p;
  p.type = IntentionParam::Type::kEntity;
  p.name = name;
  p.entity = EntityId{id};
  return p;
}
IntentionParam number(const char* name, double value, const char* unit) {
  IntentionParam p;
  p.type = IntentionParam::Type::kNumber;
  p.name = name;
  p.number = value;
  p.unit = unit;
  return p;
}
IntentionParam text(const char* name, const char* value) {
  IntentionParam p;
  p.type = IntentionParam::Type::kText;
  p.name = name;
  p.text = value;
  return p;
}

// What a command's reply received.
struct Reply {
  std::optional<Status> status;
  IntentionId id = IntentionId::kNone;
  StatusCode code() const { return status ? status->code() : StatusCode::kUnavailable; }
};

// A 10 Hz simulation with Raoul, Gertrude and the flowers. Commands go in through submit()
// and are applied by the next tick; every action and event the ticks emit is kept.
class RaoulWorld {
 public:
  explicit RaoulWorld(SimConfig config = defaultConfig(), bool in_a_place = false)
      : sim_(config, archetypes()) {
    REQUIRE(sim_.setInfluences(influences()).empty());
    if (in_a_place) REQUIRE(sim_.world().addPlace("mountain", {{-50, -50, -10}, {50, 50, 50}}));
    const DefinitionReport trees =
        sim_.loadSelectionTrees({{"RaoulMind.xml", kRaoulMind}, {"Wife.xml", kWife}});
    INFO(trees.text());
    REQUIRE(trees.ok());
    sim_.submit(upsert(kRaoul, EntityKind::kNpc, {0, 0, 0}, "raoul"));
    sim_.submit(upsert(kGertrude, EntityKind::kNpc, {4, 0, 0}, "wife"));
    sim_.submit(upsert(kFlowers, EntityKind::kObject, {20, 0, 30}));
    tick();
  }

  static SimConfig defaultConfig() {
    SimConfig c;
    c.tick_dt_s = 0.1;
    c.derive_footsteps = false;
    return c;
  }

  Simulation& sim() { return sim_; }

  void tick(int n = 1) {
    for (int i = 0; i < n; ++i) {
      sim_.tick();
      last_actions_ = sim_.output().actions;
      actions_.insert(actions_.end(), last_actions_.begin(), last_actions_.end());
      events_.insert(events_.end(), sim_.output().events.begin(), sim_.output().events.end());
    }
  }

  // --- commands: each is submitted and applied by one tick ---------------------------------
  Reply program(const std::string& action, std::vector<IntentionParam> params = {},
                double delay_s = 0.0, uint64_t agent = kRaoul,
                IntentionId depends_on = IntentionId::kNone) {
    auto reply = std::make_shared<Reply>();
    ProgramIntention c{EntityId{agent}, action, delay_s, std::move(params), depends_on,
                       [reply](const Status& s, IntentionId id) {
                         reply->status = s;
                         reply->id = id;
                       }};
    sim_.submit({ClientId{7}, 0, std::move(c)});
    tick();
    return *reply;
  }
  Reply game(const std::string& action, double delay_s, bool coercive, uint64_t agent = kRaoul) {
    auto reply = std::make_shared<Reply>();
    GameAction c{EntityId{agent}, action, delay_s, coercive, {},
                 [reply](const Status& s, IntentionId id) {
                   reply->status = s;
                   reply->id = id;
                 }};
    sim_.submit({ClientId{7}, 0, std::move(c)});
    tick();
    return *reply;
  }
  template <class Body>
  Reply status(Body body) {
    auto reply = std::make_shared<Reply>();
    body.reply = [reply](const Status& s) { reply->status = s; };
    sim_.submit({ClientId{7}, 0, std::move(body)});
    tick();
    return *reply;
  }
  Reply external(uint64_t from, const std::string& action, bool coercive = false,
                 uint64_t agent = kRaoul) {
    return status(ExternalAction{EntityId{agent}, EntityId{from}, action, coercive, {}});
  }
  Reply influence(const std::string& name, bool add, uint64_t agent = kRaoul) {
    if (add) return status(AddInfluence{EntityId{agent}, name, {}});
    return status(RemoveInfluence{EntityId{agent}, name, {}});
  }
  Reply cancel(IntentionId id, uint64_t agent = kRaoul) {
    return status(CancelIntention{EntityId{agent}, id, {}});
  }
  // The game reports on a client-side action; applied by the next tick.
  void report(IntentionId id, ActionOutcome outcome, std::string reason = {}) {
    ActionResult r;
    r.agent = EntityId{kRaoul};
    r.intention = id;
    r.outcome = outcome;
    r.reason = std::move(reason);
    sim_.submit({ClientId{7}, 0, r});
    tick();
  }

  // --- what came out ----------------------------------------------------------------------
  // The action emitted for `id` by the last tick, or null.
  const ActionOut* emitted(IntentionId id) const {
    for (const ActionOut& a : last_actions_) {
      if (a.intention == id) return &a;
    }
    return nullptr;
  }
  bool everEmitted(IntentionId id) const {
    for (const ActionOut& a : actions_) {
      if (a.intention == id) return true;
    }
    return false;
  }
  // The intention events of `id` so far, in order, as "started", "completed", ...
  std::vector<std::string> history(IntentionId id) const {
    std::vector<std::string> out;
    for (const EventOut& e : events_) {
      if (e.intention != id) continue;
      switch (e.kind) {
        case EventKind::kIntentionStarted: out.push_back("started"); break;
        case EventKind::kIntentionCompleted: out.push_back("completed"); break;
        case EventKind::kIntentionFailed: out.push_back("failed"); break;
        case EventKind::kIntentionInterrupted: out.push_back("interrupted"); break;
        default: break;
      }
    }
    return out;
  }
  const EventOut* last(IntentionId id) const {
    for (auto it = events_.rbegin(); it != events_.rend(); ++it) {
      if (it->intention == id) return &*it;
    }
    return nullptr;
  }
  std::vector<std::string> behaviorChanges(uint64_t agent) const {
    std::vector<std::string> out;
    for (const EventOut& e : events_) {
      if (e.kind == EventKind::kBehavior && e.agent == EntityId{agent}) out.push_back(e.text);
    }
    return out;
  }
  // A selection variable of Raoul's tree (what his controller learnt).
  bool variable(const char* name) const {
    std::string json;
    REQUIRE(sim_.describeAgent(EntityId{kRaoul}, json).isOk());
    return nlohmann::json::parse(json).at("selection").at("variables").at(name).get<bool>();
  }
  nlohmann::json intentions(uint64_t agent = kRaoul) const {
    std::string json;
    REQUIRE(sim_.describeAgent(EntityId{agent}, json).isOk());
    return nlohmann::json::parse(json).at("intentions");
  }
  std::string paramName(const ActionParam& p) const { return sim_.names().name(p.name); }
  // GetAgent's "inventory" of an agent.
  nlohmann::json inventory(uint64_t agent) const {
    std::string json;
    REQUIRE(sim_.describeAgent(EntityId{agent}, json).isOk());
    return nlohmann::json::parse(json).at("inventory");
  }
  // Puts an object of `species` in the world (applied by the next tick).
  void object(uint64_t id, const std::string& species, Vec3 position) {
    Command c = upsert(id, EntityKind::kObject, position);
    std::get<UpsertEntity>(c.body).state.species = species;
    sim_.submit(std::move(c));
  }

 private:
  Simulation sim_;
  std::vector<ActionOut> last_actions_;
  std::vector<ActionOut> actions_;
  std::vector<EventOut> events_;
};

using History = std::vector<std::string>;

}  // namespace

TEST_CASE("A game that performs Take itself: Go then Take, both client-side", "[sim][intent]") {
  // This Raoul's archetype defines "Take" as a client-side action, which replaces the
  // daemon's own Take: the game picks the flowers and reports.
  RaoulWorld w;
  const Reply go = w.program("Go", {entity("target", kFlowers)});
  const Reply take = w.program("Take", {entity("object", kFlowers)});
  REQUIRE(go.code() == StatusCode::kOk);
  REQUIRE(take.code() == StatusCode::kOk);
  REQUIRE(go.id != IntentionId::kNone);
  REQUIRE(raw(take.id) > raw(go.id));

  SECTION("Should send Go with the flowers and hold Take until Go is reported") {
    REQUIRE(w.everEmitted(go.id));
    REQUIRE_FALSE(w.everEmitted(take.id));
    REQUIRE(w.history(go.id) == History{"started"});
    REQUIRE(w.history(take.id).empty());
    REQUIRE(w.intentions()["queue"]["current"] == raw(go.id));
    REQUIRE(w.variable("Started"));  // OnIntentionStarted reached Raoul's selection tree
    REQUIRE_FALSE(w.variable("Succeeded"));
  }
  SECTION("Should start Take once the game completes Go, then end with both completed") {
    w.report(go.id, ActionOutcome::kCompleted);
    const ActionOut* a = w.emitted(take.id);
    REQUIRE(a);
    REQUIRE(w.sim().names().name(a->name) == "Take");
    REQUIRE(a->param_count == 1);
    REQUIRE(w.paramName(a->params[0]) == "object");
    REQUIRE(a->params[0].entity == EntityId{kFlowers});
    w.report(take.id, ActionOutcome::kCompleted);
    REQUIRE(w.history(go.id) == History{"started", "completed"});
    REQUIRE(w.history(take.id) == History{"started", "completed"});
    REQUIRE(w.intentions()["queue"]["size"] == 0);
    REQUIRE(w.variable("Succeeded"));  // OnIntentionCompleted
    REQUIRE_FALSE(w.variable("Failed"));
  }
}

TEST_CASE("Raoul cannot climb to the flowers: Go fails, then Take fails", "[sim][intent]") {
  RaoulWorld w;
  const Reply go = w.program("Go", {entity("target", kFlowers)});
  const Reply take = w.program("Take", {entity("object", kFlowers)});
  w.report(go.id, ActionOutcome::kFailed, "too steep for a beginner alpinist");
  REQUIRE(w.everEmitted(take.id));
  w.report(take.id, ActionOutcome::kFailed, "out of reach");

  SECTION("Should report both failures with the game's reasons and leave the queue empty") {
    REQUIRE(w.history(go.id) == History{"started", "failed"});
    REQUIRE(w.history(take.id) == History{"started", "failed"});
    REQUIRE(w.last(go.id)->text == "agent 2001: intention " + std::to_string(raw(go.id)) +
                                       " \"Go\" failed: the game reported failure: too steep "
                                       "for a beginner alpinist");
    REQUIRE(w.last(take.id)->text.find("out of reach") != std::string::npos);
    REQUIRE(w.intentions()["queue"]["size"] == 0);
  }
  SECTION("Should tell Raoul's selection tree (OnIntentionFailed)") {
    REQUIRE(w.variable("Failed"));
    REQUIRE_FALSE(w.variable("Succeeded"));
  }
}

TEST_CASE("A chain programmed at once: Take only if Go succeeded", "[sim][intent]") {
  // Seed 004's decision tree: "the next action to perform will be determined by the success
  // or failure of the previous actions". Take depends on Go, Wait on Take.
  RaoulWorld w;
  const Reply go = w.program("Go", {entity("target", kFlowers)});
  const Reply take = w.program("Take", {entity("object", kFlowers)}, 0.0, kRaoul, go.id);
  const Reply rest = w.program("Wait", {number("delay", 1, "s")}, 0.0, kRaoul, take.id);
  REQUIRE(take.code() == StatusCode::kOk);
  REQUIRE(rest.code() == StatusCode::kOk);
  const nlohmann::json queue = w.intentions()["queue"]["intentions"];
  REQUIRE(queue.size() == 3);
  REQUIRE(queue[1]["depends_on"] == raw(go.id));
  REQUIRE(queue[2]["depends_on"] == raw(take.id));
  REQUIRE(queue[0]["depends_on"].is_null());

  SECTION("Should drop Take and what followed it when Go fails, each with its reason") {
    w.report(go.id, ActionOutcome::kFailed, "too steep for a beginner alpinist");
    REQUIRE_FALSE(w.everEmitted(take.id));  // never sent to the game
    REQUIRE(w.history(go.id) == History{"started", "failed"});
    REQUIRE(w.history(take.id) == History{"failed"});
    REQUIRE(w.history(rest.id) == History{"failed"});
    REQUIRE(w.last(take.id)->text ==
            "agent 2001: intention " + std::to_string(raw(take.id)) +
                " \"Take\" failed: dropped: the intention it depended on did not complete");
    REQUIRE(w.intentions()["queue"]["size"] == 0);
    REQUIRE(w.variable("Failed"));  // the controller hears of the drop like any failure
  }
  SECTION("Should run the chain in order when each step succeeds") {
    w.report(go.id, ActionOutcome::kCompleted);
    REQUIRE(w.emitted(take.id));
    w.report(take.id, ActionOutcome::kCompleted);
    w.tick(12);  // Wait 1 s, inside the daemon
    REQUIRE(w.history(take.id) == History{"started", "completed"});
    REQUIRE(w.history(rest.id) == History{"started", "completed"});
  }
  SECTION("Should drop the dependents of an intention the controller deprograms") {
    REQUIRE(w.cancel(take.id).code() == StatusCode::kOk);  // pending: deprogrammed, no event of its own
    REQUIRE(w.history(take.id).empty());
    REQUIRE(w.history(rest.id) == History{"failed"});
    w.report(go.id, ActionOutcome::kCompleted);
    REQUIRE(w.intentions()["queue"]["size"] == 0);
  }
}

TEST_CASE("An intention waiting on another does not hold up independent ones", "[sim][intent]") {
  RaoulWorld w;
  const Reply go = w.program("Go", {entity("target", kFlowers)}, 5.0);  // in 5 s
  const Reply take = w.program("Take", {entity("object", kFlowers)}, 0.0, kRaoul, go.id);
  const Reply look = w.program("Wait", {number("delay", 0.5, "s")});  // depends on nothing
  w.tick(8);
  REQUIRE(w.history(look.id) == History{"started", "completed"});
  REQUIRE(w.history(take.id).empty());  // due, but waiting for Go
  w.tick(45);
  REQUIRE(w.everEmitted(go.id));
  REQUIRE_FALSE(w.everEmitted(take.id));
  w.report(go.id, ActionOutcome::kCompleted);
  REQUIRE(w.emitted(take.id) != nullptr);
}

TEST_CASE("A dependency on an intention not in the queue is refused", "[sim][intent]") {
  RaoulWorld w;
  const Reply take = w.program("Take", {entity("object", kFlowers)}, 0.0, kRaoul, IntentionId{999});
  REQUIRE(take.code() == StatusCode::kNotFound);
  REQUIRE(take.status->message() ==
          "agent 2001: depends_on: intention 999 is not in the agent's queue (it ended, or never was)");
  REQUIRE(w.intentions()["queue"]["size"] == 0);
}

TEST_CASE("Take, Drop and Give run inside the daemon and show in GetAgent", "[sim][intent]") {
  // Gertrude's archetype defines no actions: Take, Drop and Give are the daemon's own.
  RaoulWorld w;
  constexpr uint64_t kRoses = 3002, kFarRoses = 3003;
  w.object(kRoses, "flowers", {5, 0, 0});       // 1 m from Gertrude
  w.object(kFarRoses, "flowers", {30, 0, 0});
  w.tick();
  const Reply take = w.program("Take", {entity("object", kRoses)}, 0.0, kGertrude);
  REQUIRE(take.code() == StatusCode::kOk);

  SECTION("Should put the flowers in her inventory and take them out of the world") {
    REQUIRE(w.history(take.id) == History{"started", "completed"});
    REQUIRE_FALSE(w.everEmitted(take.id));  // nothing for the game to perform
    REQUIRE(w.last(take.id)->subject == EntityId{kRoses});  // so the game removes them too
    REQUIRE(w.inventory(kGertrude) == nlohmann::json{{"flowers", 1}});
    REQUIRE(w.sim().world().entities().get(EntityId{kRoses}) == nullptr);
  }
  SECTION("Should fail taking them again, far flowers and Raoul, each with its reason") {
    const Reply again = w.program("Take", {entity("object", kRoses)}, 0.0, kGertrude);
    const Reply far = w.program("Take", {entity("object", kFarRoses)}, 0.0, kGertrude);
    const Reply raoul = w.program("Take", {entity("object", kRaoul)}, 0.0, kGertrude);
    w.tick(15);  // taking took her 1 s: the next one starts after it
    REQUIRE(w.history(again.id) == History{"started", "failed"});
    REQUIRE(w.last(again.id)->text == "agent 2002: intention " + std::to_string(raw(again.id)) +
                                          " \"Take\" failed: the action failed (item_gone)");
    REQUIRE(w.last(far.id)->text.find("(out_of_reach)") != std::string::npos);
    REQUIRE(w.last(raoul.id)->text.find("(not_takeable)") != std::string::npos);
    REQUIRE(w.sim().world().entities().get(EntityId{kFarRoses}) != nullptr);
    REQUIRE(w.inventory(kGertrude) == nlohmann::json{{"flowers", 1}});
  }
  SECTION("Should give the flowers to Raoul once he is near, and let him drop them") {
    const Reply too_far = w.program("Give", {entity("to", kRaoul), text("item", "flowers")}, 0.0,
                                    kGertrude);
    w.tick(15);  // after the 1 s of taking
    REQUIRE(w.history(too_far.id) == History{"started", "failed"});
    REQUIRE(w.last(too_far.id)->text.find("(out_of_reach)") != std::string::npos);  // 4 m
    w.sim().submit(upsert(kRaoul, EntityKind::kNpc, {3.5f, 0, 0}));
    const Reply give = w.program("Give", {entity("to", kRaoul), text("item", "flowers")}, 0.0,
                                 kGertrude);
    w.tick(15);
    REQUIRE(w.history(give.id) == History{"started", "completed"});
    REQUIRE(w.last(give.id)->subject == EntityId{kRaoul});
    REQUIRE(w.inventory(kRaoul) == nlohmann::json{{"flowers", 1}});
    REQUIRE(w.inventory(kGertrude) == nlohmann::json{{"flowers", 0}});
    const Reply drop = w.program("Drop", {text("item", "flowers")});  // Raoul's own Drop
    REQUIRE(w.history(drop.id) == History{"started", "completed"});
    REQUIRE(w.inventory(kRaoul) == nlohmann::json{{"flowers", 0}});
    const Reply nothing = w.program("Drop", {text("item", "flowers")});
    w.tick(10);
    REQUIRE(w.history(nothing.id) == History{"started", "failed"});
    REQUIRE(w.last(nothing.id)->text.find("(not_carried)") != std::string::npos);
  }
}

TEST_CASE("Wait 10 min runs inside the daemon as a long action", "[sim][intent]") {
  RaoulWorld w;
  const Reply wait = w.program("Wait", {number("delay", 10, "min")});
  REQUIRE(wait.code() == StatusCode::kOk);
  const double started = w.sim().timeS();

  SECTION("Should start at once, send nothing to the game and report progress") {
    REQUIRE(w.history(wait.id) == History{"started"});
    REQUIRE_FALSE(w.everEmitted(wait.id));
    w.tick(3000);  // 5 minutes
    const nlohmann::json in = w.intentions()["queue"]["intentions"][0];
    REQUIRE(in["action"] == "Wait");
    REQUIRE(in["side"] == "daemon");
    REQUIRE(in["progress"].get<double>() == Approx(0.5).margin(0.01));
  }
  SECTION("Should complete after 600 s of simulated time") {
    while (w.history(wait.id).size() < 2 && w.sim().timeS() < started + 700) w.tick();
    REQUIRE(w.history(wait.id) == History{"started", "completed"});
    REQUIRE(w.sim().timeS() == Approx(started + 600).margin(0.25));
    REQUIRE(w.last(wait.id)->value == Approx(1.f));
  }
}

TEST_CASE("Wait is refused when programmed with a unit or duration it cannot take",
          "[sim][intent][bounds]") {
  RaoulWorld w;
  const Reply bad = w.program("Wait", {number("delay", 3, "fortnights")});
  REQUIRE(bad.code() == StatusCode::kInvalidArgument);  // checked before it is queued
  REQUIRE(bad.status->message() ==
          "params[0].unit: \"fortnights\" is not a unit of time (ms, s, min or h)");
  REQUIRE(bad.id == IntentionId::kNone);
  const Reply negative = w.program("Wait", {number("delay", -5, "min")});
  REQUIRE(negative.code() == StatusCode::kInvalidArgument);
  REQUIRE(negative.status->message() ==
          "params[0].number: must be within 0..604800 s (got -5 min)");
  const Reply drop = w.program("Drop", {text("item", "flowers"), number("count", -2, "")});
  REQUIRE(drop.code() == StatusCode::kInvalidArgument);
  REQUIRE(drop.status->message() ==
          "params[1].number: a count must be a whole number within 1..1000000 (got -2)");
  REQUIRE(drop.id == IntentionId::kNone);
}

TEST_CASE("Raoul tells Gertrude the breads are ready (Talk posts a signal)", "[sim][intent]") {
  RaoulWorld w;

  SECTION("Should complete at once and reach Gertrude's selection tree") {
    const Reply talk = w.program("Talk", {entity("to", kGertrude), text("message", "breads_ready")});
    REQUIRE(w.history(talk.id) == History{"started", "completed"});
    w.tick(2);
    REQUIRE(w.behaviorChanges(kGertrude).back() == "Idle -> FetchBread");
  }
  SECTION("Should fail when nobody is there to hear it") {
    const Reply talk = w.program("Talk", {entity("to", 999), text("message", "breads_ready")});
    REQUIRE(w.history(talk.id) == History{"failed"});
  }
}

TEST_CASE("Influences add actions at run time and take them away", "[sim][intent]") {
  RaoulWorld w;

  SECTION("Should fail Fly without the spell: cannot perform it") {
    const Reply fly = w.program("Fly");
    REQUIRE(fly.code() == StatusCode::kOk);
    REQUIRE(w.history(fly.id) == History{"failed"});
    REQUIRE(w.last(fly.id)->text.find("cannot perform \"Fly\"") != std::string::npos);
  }
  SECTION("Should take Fly from the higher-priority influence") {
    REQUIRE(w.influence("profession:baker", true).code() == StatusCode::kOk);
    REQUIRE(w.influence("spell:levitate", true).code() == StatusCode::kOk);
    const Reply fly = w.program("Fly");
    REQUIRE(w.everEmitted(fly.id));
    REQUIRE(w.intentions()["queue"]["intentions"][0]["source"] == "spell:levitate");
    REQUIRE(w.intentions()["actions"]["influences"].size() == 2);
  }
  SECTION("Should interrupt Fly when the spell ends: you can't fly anymore") {
    REQUIRE(w.influence("spell:levitate", true).code() == StatusCode::kOk);
    const Reply fly = w.program("Fly");
    REQUIRE(w.history(fly.id) == History{"started"});
    REQUIRE(w.influence("spell:levitate", false).code() == StatusCode::kOk);
    w.tick();
    REQUIRE(w.history(fly.id) == History{"started", "interrupted"});
    REQUIRE(w.last(fly.id)->text.find("the influence providing \"Fly\" was removed") !=
            std::string::npos);
    const Reply again = w.program("Fly");
    REQUIRE(w.history(again.id) == History{"failed"});
  }
  SECTION("Should refuse unknown influences, removing one it is not under, and a seventh") {
    const Reply unknown = w.influence("spell:invisibility", true);
    REQUIRE(unknown.code() == StatusCode::kNotFound);
    REQUIRE(unknown.status->message() == "influence \"spell:invisibility\" is not defined");
    const Reply not_under = w.influence("spell:levitate", false);
    REQUIRE(not_under.code() == StatusCode::kNotFound);
    REQUIRE(not_under.status->message() ==
            "entity 2001 is not under influence \"spell:levitate\"");
    REQUIRE(w.influence("raoul", true).code() == StatusCode::kNotFound);  // an own list
    for (const char* name : {"spell:levitate", "profession:baker", "blessing:1", "blessing:2",
                             "blessing:3", "blessing:4"}) {
      REQUIRE(w.influence(name, true).code() == StatusCode::kOk);
    }
    REQUIRE(w.influence("spell:levitate", true).code() == StatusCode::kOk);  // already: no-op
    const Reply full = w.influence("blessing:5", true);
    REQUIRE(full.code() == StatusCode::kResourceExhausted);
    REQUIRE(full.status->message() == "entity 2001: already under 6 influences; remove one first");
  }
}

TEST_CASE("External actions: coercive ones interrupt, others let the action run", "[sim][intent]") {
  RaoulWorld w;
  const Reply wait = w.program("Wait", {number("delay", 10, "min")});

  SECTION("Should keep waiting when Gertrude chats with him") {
    REQUIRE(w.external(kGertrude, "Chat").code() == StatusCode::kOk);
    w.tick(5);
    REQUIRE(w.history(wait.id) == History{"started"});
  }
  SECTION("Should be interrupted at once by the wolf's attack, naming the attacker") {
    REQUIRE(w.external(kWolf, "Attack").code() == StatusCode::kOk);
    REQUIRE(w.history(wait.id) == History{"started", "interrupted"});
    REQUIRE(w.last(wait.id)->subject == EntityId{kWolf});
    w.tick();
    REQUIRE(w.behaviorChanges(kRaoul).back() == "Idle -> Startled");  // within one tick
  }
  SECTION("Should treat an unnamed action as coercive when the game says so") {
    REQUIRE(w.external(kWolf, "", true).code() == StatusCode::kOk);
    REQUIRE(w.history(wait.id) == History{"started", "interrupted"});
  }
  SECTION("Should refuse an action nobody registered") {
    const Reply r = w.external(kWolf, "Bite");
    REQUIRE(r.code() == StatusCode::kNotFound);
    REQUIRE(r.status->message() == "entity 2001: external action \"Bite\" is not registered");
  }
}

TEST_CASE("Game actions: Die preempts, Land waits its turn", "[sim][intent]") {
  RaoulWorld w;
  const Reply wait = w.program("Wait", {number("delay", 10, "min")});

  SECTION("Should interrupt the wait and start Die on the next turn") {
    const Reply die = w.game("Die", 0.05, true);  // due at the next turn
    REQUIRE(die.code() == StatusCode::kOk);
    w.tick();
    REQUIRE(w.history(wait.id) == History{"started", "interrupted"});
    REQUIRE(w.last(wait.id)->text.find("preempted by a coercive game action") != std::string::npos);
    REQUIRE(w.history(die.id) == History{"started"});
    REQUIRE(w.everEmitted(die.id));
    SECTION("Should not let the controller cancel it") {
      const Reply r = w.cancel(die.id);
      REQUIRE(r.code() == StatusCode::kFailedPrecondition);
    }
  }
  SECTION("Should run a non-coercive game action after the current one") {
    const Reply land = w.game("Land", 0.0, false);
    REQUIRE(land.code() == StatusCode::kOk);
    w.tick(3);
    REQUIRE(w.history(land.id).empty());
    REQUIRE(w.cancel(wait.id).code() == StatusCode::kOk);
    w.tick();
    REQUIRE(w.history(land.id) == History{"started"});
  }
  SECTION("Should refuse Die from the controller, and unknown game actions") {
    const Reply die = w.program("Die");
    REQUIRE(die.code() == StatusCode::kFailedPrecondition);
    REQUIRE(die.status->message() == "agent 2001: this action is scheduled by the game only");
    REQUIRE(w.game("Explode", 0.0, true).code() == StatusCode::kNotFound);
  }
}

TEST_CASE("Cancelling intentions", "[sim][intent]") {
  RaoulWorld w;
  const Reply wait = w.program("Wait", {number("delay", 10, "min")});
  const Reply go = w.program("Go", {entity("target", kFlowers)});

  SECTION("Should remove a pending one silently and interrupt the running one") {
    REQUIRE(w.cancel(go.id).code() == StatusCode::kOk);
    REQUIRE(w.history(go.id).empty());
    REQUIRE(w.cancel(wait.id).code() == StatusCode::kOk);
    REQUIRE(w.history(wait.id) == History{"started", "interrupted"});
    REQUIRE(w.last(wait.id)->text.find("cancelled by the controller") != std::string::npos);
    REQUIRE(w.intentions()["queue"]["size"] == 0);
  }
  SECTION("Should say NOT_FOUND for an intention that ended") {
    w.cancel(go.id);
    const Reply again = w.cancel(go.id);
    REQUIRE(again.code() == StatusCode::kNotFound);
    REQUIRE(again.status->message() ==
            "agent 2001: intention " + std::to_string(raw(go.id)) + ": not in the agent's queue");
  }
}

TEST_CASE("The intention queue refuses the controller past 7 and keeps room for the game",
          "[sim][intent]") {
  RaoulWorld w;
  for (int i = 0; i < 7; ++i) {
    REQUIRE(w.program("Wait", {number("delay", 1, "min")}).code() == StatusCode::kOk);
  }
  const Reply full = w.program("Wait", {number("delay", 1, "min")});
  REQUIRE(full.code() == StatusCode::kResourceExhausted);
  REQUIRE(full.status->message() == "agent 2001: intention queue full (8)");
  REQUIRE(w.game("Die", 0.0, true).code() == StatusCode::kOk);  // the reserved slot
}

TEST_CASE("Intention commands refuse unknown agents, unknown actions and extra parameters",
          "[sim][intent]") {
  RaoulWorld w;

  SECTION("Should say NOT_FOUND for an agent that does not exist or an action nobody has") {
    const Reply nobody = w.program("Go", {}, 0.0, 12345);
    REQUIRE(nobody.code() == StatusCode::kNotFound);
    REQUIRE(nobody.status->message() == "entity 12345: no such agent");
    const Reply unknown = w.program("Juggle");
    REQUIRE(unknown.code() == StatusCode::kNotFound);
    REQUIRE(unknown.status->message() == "entity 2001: action \"Juggle\" is not registered");
    REQUIRE(w.cancel(IntentionId{77}, 12345).code() == StatusCode::kNotFound);
    REQUIRE(w.influence("spell:levitate", true, 12345).code() == StatusCode::kNotFound);
    REQUIRE(w.external(kWolf, "Attack", false, 12345).code() == StatusCode::kNotFound);
  }
  SECTION("Should refuse more than 6 parameters") {
    std::vector<IntentionParam> params(7, entity("object", kFlowers));
    const Reply r = w.program("Take", params);
    REQUIRE(r.code() == StatusCode::kInvalidArgument);
    REQUIRE(r.status->message() == "agent 2001: more than 6 action arguments");
  }
}

TEST_CASE("Intention commands refuse agents whose place sleeps", "[sim][intent]") {
  SimConfig config = RaoulWorld::defaultConfig();
  config.hibernation.quiet_s = 1.0;
  RaoulWorld w(config, true);
  const PlaceIndex mountain = w.sim().world().findPlace("mountain");
  for (int i = 0; i < 100 && w.sim().placeState(mountain) != PlaceState::kAsleep; ++i) w.tick();
  REQUIRE(w.sim().placeState(mountain) == PlaceState::kAsleep);

  SECTION("Should say FAILED_PRECONDITION, not NOT_FOUND") {
    const Reply r = w.program("Go");
    REQUIRE(r.code() == StatusCode::kFailedPrecondition);
    REQUIRE(r.status->message() == "entity 2001 is hibernating (its place is asleep)");
    REQUIRE(w.game("Die", 0.0, true).code() == StatusCode::kFailedPrecondition);
    REQUIRE(w.influence("spell:levitate", true).code() == StatusCode::kFailedPrecondition);
    REQUIRE(w.external(kWolf, "Attack").code() == StatusCode::kFailedPrecondition);
    REQUIRE(w.cancel(IntentionId{1}).code() == StatusCode::kFailedPrecondition);
  }
}

TEST_CASE("Stream-style intention commands report their errors as error events",
          "[sim][intent]") {
  RaoulWorld w;
  w.sim().submit({ClientId{7}, 41, ExternalAction{EntityId{kRaoul}, EntityId{kWolf}, "Bite", false, {}}});
  w.tick();
  const auto errors = npc::test::eventsOf(w.sim().output(), EventKind::kError);
  REQUIRE(errors.size() == 1);
  REQUIRE(errors[0].to == ClientId{7});
  REQUIRE(errors[0].seq == 41);
  REQUIRE(errors[0].text == "entity 2001: external action \"Bite\" is not registered");
}

TEST_CASE("Actions and influences in data are checked with file and JSON path", "[sim][intent]") {
  SECTION("Should name each bad action field the schema catches, in file order") {
    JsonReader reader("archetypes/raoul.json");
    nlohmann::json j;
    REQUIRE(reader.parse(R"({ "raoul": { "species": "human", "actions": {
        "Go":   { "side": "walking" },
        "Wait": { "side": "daemon" },
        "Fly":  { "side": "client", "kind": "wait", "timeout_s": -1 },
        "Talk": { "side": "daemon", "kind": "signal", "coercive": true, "colour": "red" } } } })",
                         j));
    ArchetypeSet set;
    set.loadObject(j, reader);
    REQUIRE(reader.report() ==
            "archetypes/raoul.json:2:27: /raoul/actions/Go/side: must be one of client|daemon\n"
            "archetypes/raoul.json:4:66: /raoul/actions/Fly/timeout_s: must be > 0\n"
            "archetypes/raoul.json:5:73: /raoul/actions/Talk/colour: unknown key");
  }
  SECTION("Should name each action field that contradicts another") {
    JsonReader reader("archetypes/raoul.json");
    nlohmann::json j;
    REQUIRE(reader.parse(R"({ "raoul": { "species": "human", "actions": {
        "Wait": { "side": "daemon" },
        "Fly":  { "side": "client", "kind": "wait" },
        "Talk": { "side": "daemon", "kind": "signal", "coercive": true } } } })",
                         j));
    ArchetypeSet set;
    set.loadObject(j, reader);
    REQUIRE(reader.report() ==
            "archetypes/raoul.json:3:45: /raoul/actions/Fly/kind: only daemon-side actions have "
            "a kind\n"
            "archetypes/raoul.json:4:17: /raoul/actions/Talk: game_only and coercive apply to "
            "client-side actions only\n"
            "archetypes/raoul.json:2:17: /raoul/actions/Wait/kind: is required for a daemon-side "
            "action (wait or signal)");
  }
  SECTION("Should name a bad priority and refuse an influence named like an archetype") {
    JsonReader reader("actions/influences.json");
    nlohmann::json j;
    REQUIRE(reader.parse(R"({ "spell:levitate": { "priority": 40000 } })", j));
    InfluenceSet bad;
    bad.loadObject(j, reader);
    REQUIRE(reader.report() == "actions/influences.json:1:35: /spell:levitate/priority: must be <= 32767");
    JsonReader reader2("actions/influences.json");
    REQUIRE(reader2.parse(R"({ "raoul": { "priority": 1, "actions": { "Fly": {} } } })", j));
    InfluenceSet set;
    set.loadObject(j, reader2);
    REQUIRE(reader2.ok());
    Simulation sim(RaoulWorld::defaultConfig(), archetypes());
    const std::vector<std::string> errors = sim.setInfluences(set);
    REQUIRE(errors == std::vector<std::string>{
                          "influence \"raoul\": the name is already used by an archetype or an "
                          "influence"});
  }  // Regression: what an action emits was only checked for > 0: a 1e30 m sound per action.
  SECTION("Should bound the radii of what an influence's actions emit") {
    JsonReader reader("actions/influences.json");
    nlohmann::json j;
    REQUIRE(reader.parse(R"({ "spell:thunder": { "actions": { "Thunder": { "emits": {
                                "sound_m": 1e30, "signal": "OnThunder", "signal_m": 1e30 } } } } })",
                         j));
    InfluenceSet set;
    set.loadObject(j, reader);
    REQUIRE(reader.report() ==
            "actions/influences.json:2:44: /spell:thunder/actions/Thunder/emits/sound_m: must be at "
            "most 2000 m (got 1e+30)\n"
            "actions/influences.json:2:85: /spell:thunder/actions/Thunder/emits/signal_m: must be at "
            "most 10000 m (got 1e+30)");
  }
}

TEST_CASE("The shipped Raoul examples run on the shipped data", "[sim][intent][data]") {
  std::vector<std::string> errors;
  ArchetypeSet types;
  REQUIRE(types.loadDirectory(NPCD_SOURCE_DIR "/config/archetypes", errors));
  InfluenceSet shipped;
  REQUIRE(shipped.loadFile(NPCD_SOURCE_DIR "/config/actions/influences.json", errors));
  REQUIRE(errors.empty());
  JsonReader reader(NPCD_SOURCE_DIR "/config/actions/raoul_examples.json");
  nlohmann::json examples;
  REQUIRE(reader.parseFile(examples));
  INFO(reader.report());
  REQUIRE(reader.validate(examples, SchemaId::kActionExamples));

  Simulation sim(RaoulWorld::defaultConfig(), std::move(types));
  REQUIRE(sim.setInfluences(shipped).empty());
  const nlohmann::json& ids = examples.at("entities");
  sim.submit(upsert(ids.at("raoul").get<uint64_t>(), EntityKind::kNpc, {0, 0, 0}, "raoul"));
  sim.submit(upsert(ids.at("gertrude").get<uint64_t>(), EntityKind::kNpc, {3, 0, 0}, "raoul"));
  for (const auto& [name, id] : ids.items()) {
    if (name != "raoul" && name != "gertrude") {
      Command object = upsert(id.get<uint64_t>(), EntityKind::kObject, {10, 0, 0});
      std::get<UpsertEntity>(object.body).state.species = name;  // "flowers" is what he carries
      sim.submit(std::move(object));
    }
  }
  const auto raoul = EntityId{ids.at("raoul").get<uint64_t>()};

  for (const auto& [scenario, requests] : examples.at("scenarios").items()) {
    DYNAMIC_SECTION("Scenario " << scenario << ": every step completes") {
      std::vector<IntentionId> programmed;
      for (const nlohmann::json& r : requests) {
        ProgramIntention c;
        c.agent = EntityId{r.at("agent").get<uint64_t>()};
        c.action = r.at("action").get<std::string>();
        for (const nlohmann::json& p : r.value("params", nlohmann::json::array())) {
          IntentionParam q;
          q.name = p.value("name", "");
          if (p.contains("entity")) {
            q.type = IntentionParam::Type::kEntity;
            q.entity = EntityId{p.at("entity").get<uint64_t>()};
          } else if (p.contains("number")) {
            q.type = IntentionParam::Type::kNumber;
            q.number = p.at("number").get<double>();
            q.unit = p.value("unit", "");
          } else {
            q.type = IntentionParam::Type::kText;
            q.text = p.at("text").get<std::string>();
          }
          c.params.push_back(q);
        }
        c.reply = [&programmed, action = c.action](const Status& s, IntentionId id) {
          INFO(action << ": " << s.message());
          REQUIRE(s.isOk());
          programmed.push_back(id);
        };
        sim.submit({ClientId{7}, 0, std::move(c)});
      }
      // Play the game: complete every client-side action Raoul is sent; Go walks him to its
      // target (Take, inside the daemon, then finds the flowers within reach).
      const ActionNameId go = sim.names().find("Go");
      size_t completed = 0, failed = 0;
      for (int t = 0; t < 7000 && completed + failed < requests.size(); ++t) {
        sim.tick();
        for (const EventOut& e : sim.output().events) {
          if (e.agent != raoul) continue;
          completed += e.kind == EventKind::kIntentionCompleted;
          failed += e.kind == EventKind::kIntentionFailed || e.kind == EventKind::kIntentionInterrupted;
        }
        for (const ActionOut& a : sim.output().actions) {
          if (a.agent != raoul) continue;
          if (a.name == go) {
            const Entity* target = sim.world().entities().get(a.params[0].entity);
            REQUIRE(target);
            sim.submit(upsert(raw(raoul), EntityKind::kNpc, target->position));
          }
          sim.submit(npc::test::result(raw(raoul), a.intention, ActionOutcome::kCompleted));
        }
      }
      REQUIRE(programmed.size() == requests.size());
      REQUIRE(failed == 0);
      REQUIRE(completed == requests.size());
    }
  }
}
