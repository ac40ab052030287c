// Simulation: GOAP planning (tick step 6, core/goap, seed 003). Agents whose archetype has
// a "planner" get a plan state row; behaviors of mode "plan" run the PlanRunner here each
// tick (goal selection, search, steps), behavior trees drive it with <Plan> / <ExecutePlan>
// through SimMbtHost. Plan steps become intentions (issue 06): a MoveTo when the step
// moves, then the action itself with its bound object or target and the designer's params.
// Results come back through onPlanIntentionEnded: success applies the step's fact effects
// to the agent's facts (the daemon's belief) and advances; failure replans after the
// domain's cooldown.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "base/did_you_mean.h"
#include "base/prefetch.h"
#include "base/source_dir.h"
#include "base/worker_pool.h"
#include "goap/goal_selector.h"
#include "sim/sim_messages.h"
#include "sim/sim_navigation.h"
#include "sim/sim_planner.h"
#include "sim/simulation.h"

namespace npc {

using goap::RunnerCommand;
using goap::RunnerPhase;

namespace {

// Designer params become action arguments: "duration_s": 3 → duration = 3 "s",
// "reach_m": 2.5 → reach = 2.5 "m", text stays text. Speed is the MoveTo's.
void prepareParams(const goap::ActionDef& a, NameTable<ActionNameId>& names,
                   PlannerDomain::PreparedAction& out) {
  for (const goap::ActionParam& p : a.params) {
    if (p.is_number && p.name == "speed_mps") {
      out.speed_mps = p.number;
      continue;
    }
    if (out.arg_count == out.args.size()) break;
    std::string_view name = p.name, unit;
    for (std::string_view suffix : {"_s", "_m"}) {
      if (p.is_number && name.size() > suffix.size() && name.ends_with(suffix)) {
        unit = suffix.substr(1);
        name.remove_suffix(suffix.size());
      }
    }
    out.args[out.arg_count++] =
        p.is_number ? ActionArg::ofValue(p.number, names.intern(unit), names.intern(name))
                    : ActionArg::ofMessage(names.intern(p.text), names.intern(name));
  }
}

bool onlyMoves(const goap::ActionDef& a) {
  return a.moves && std::all_of(a.effects.begin(), a.effects.end(),
                                [](const goap::Effect& e) { return e.moves(); });
}

std::string statisticsPath(const std::string& dir, const std::string& domain) {
  return (std::filesystem::path(dir) / (domain + ".stats.json")).string();
}

// Facts of planner `index` of an agent of `archetype` from the old planning set to the new
// one, by name (enums by value name); values the new domain cannot hold are left.
void carryOverFacts(const SimPlanning& old, const SimPlanning& now, uint16_t archetype, size_t index,
                    const goap::GoapState& facts, goap::GoapState& out) {
  const auto from = old.bindingsOf(archetype);
  const auto to = now.bindingsOf(archetype);
  if (index >= from.size() || index >= to.size()) return;
  const goap::GoapDomain& a = old.domainOf(from[index]);
  const goap::GoapDomain& b = now.domainOf(to[index]);
  for (const goap::FactDef& f : a.facts()) {
    const goap::FactId src = a.findFact(f.name);
    const goap::FactId dst = b.findFact(f.name);
    if (src == a.locationFact() || dst == goap::FactId::kNone || dst == b.locationFact()) continue;
    const int32_t v = a.get(facts, src);
    if (f.type == goap::FactType::kEnum) {  // enums by value name: their order may change
      b.set(out, f.name, f.values[static_cast<size_t>(v - f.min)]);
    } else {
      b.set(out, dst, v);
    }
  }
}

// Blackboard values from the old library's schema to the new one's, by name and type.
void carryOverBlackboard(const SimPlanning& old, const SimPlanning& now, const goap::Blackboard& bb,
                         goap::Blackboard& out) {
  const goap::BlackboardSchema& sa = old.library.blackboard();
  const goap::BlackboardSchema& sb = now.library.blackboard();
  for (size_t k = 0; k < sa.size(); ++k) {
    const auto key = static_cast<goap::BlackboardKeyId>(k);
    const std::optional<float> value = bb.number(key);
    const goap::BlackboardKeyId dst = sb.find(sa.name(key));
    if (!value || dst == goap::BlackboardKeyId::kNone || sb.type(dst) != sa.type(key)) continue;
    out.setNumber(dst, sb.type(dst), *value);
  }
}

// Pacing records from the old library's tags to the new one's, by name; records of tags
// the new domains no longer have are dropped.
void carryOverPacing(const SimPlanning& old, const SimPlanning& now, const goap::PacingMemory& pacing,
                     goap::PacingMemory& out) {
  for (int i = 0; i < pacing.size(); ++i) {
    const goap::PacingTagId tag = now.library.findPacingTag(old.library.pacingTagName(pacing.tagAt(i)));
    if (tag != goap::PacingTagId::kNone) out.record(tag, pacing.timeAt(i));
  }
}

// A sleeping agent's memory moved to the new planning set: facts start from the new
// domains' initial states and take what carries over.
PlannerMemory carryOverMemory(const SimPlanning& old, const SimPlanning& now, uint16_t archetype,
                              const PlannerMemory& slept) {
  PlannerMemory moved;
  const auto to = now.bindingsOf(archetype);
  moved.planners = static_cast<uint8_t>(to.size());
  for (size_t i = 0; i < to.size(); ++i) {
    moved.facts[i] = now.domainOf(to[i]).initialState();
    if (i < slept.planners) carryOverFacts(old, now, archetype, i, slept.facts[i], moved.facts[i]);
  }
  carryOverBlackboard(old, now, slept.blackboard, moved.blackboard);
  carryOverPacing(old, now, slept.pacing, moved.pacing);
  return moved;
}

// Domain `i` of the library as the simulation uses it. Statistics come first: they re-order
// conditions before any planner sees the domain.
PlannerDomain prepareDomain(goap::GoapLibrary& lib, size_t i, const std::string& statistics_dir,
                            NameTable<ActionNameId>& names, std::vector<std::string>& errors) {
  PlannerDomain pd;
  const std::string name = lib.domain(i).name();
  if (!statistics_dir.empty()) {
    goap::GoapDomain& mut = *lib.findMutable(name);
    pd.stats = std::make_unique<goap::PlannerStatistics>(mut);
    const std::string path = statisticsPath(statistics_dir, name);
    if (std::filesystem::exists(path)) {
      const Status s = pd.stats->load(path);
      if (!s.isOk()) errors.push_back(path + ": " + s.message());
      else pd.stats->applyTo(mut);
    }
  }
  pd.domain = &lib.domain(i);
  pd.species = std::make_unique<goap::SmartObjectSpecies>(*pd.domain);
  for (const goap::ActionDef& a : pd.domain->actions()) {
    PlannerDomain::PreparedAction prepared;
    prepared.name = names.intern(a.name);
    prepared.only_moves = onlyMoves(a);
    prepareParams(a, names, prepared);
    pd.actions.push_back(prepared);
  }
  return pd;
}

PlannerBinding::Source targetSource(const std::string& source) {
  if (source == "home") return PlannerBinding::Source::kHome;
  if (source == "attention") return PlannerBinding::Source::kAttention;
  return PlannerBinding::Source::kSelf;
}

// Resolves one of an archetype's planners against the loaded domains into `b`; every
// problem names the archetype, the planner and what the domain lacks. False when its domain
// is not loaded.
bool bindPlanner(const SimPlanning& P, const Archetype& type, const PlannerDef& def,
                 NameTable<ActionNameId>& names, PlannerBinding& b,
                 std::vector<std::string>& errors) {
  const std::string where = "archetype \"" + type.name + "\": " +
                            (type.planners.size() == 1 ? "planner: " : "planners: " + def.name + ": ");
  const goap::GoapDomain* d = P.library.find(def.domain);
  if (!d) {
    NameSuggester near(def.domain);
    for (size_t i = 0; i < P.library.size(); ++i) near.consider(P.library.domain(i).name());
    errors.push_back(where + "domain \"" + def.domain + "\" is not loaded" + near.hint());
    return false;
  }
  const std::string in = "domain \"" + d->name() + "\" has no ";
  for (size_t i = 0; i < P.domains.size(); ++i) {
    if (P.domains[i].domain == d) b.domain = static_cast<int>(i);
  }
  for (const BehaviorDef& behavior : type.behaviors) {
    b.bucket_of_behavior.push_back(d->findBucket(behavior.bucket.empty() ? behavior.name : behavior.bucket));
  }
  b.targets.assign(d->targets().size(), PlannerBinding::Source::kNone);
  for (const auto& [target, source] : def.targets) {
    const goap::TargetIndex ti = d->findTarget(target);
    if (ti == goap::TargetIndex::kNone) {
      errors.push_back(where + "targets: " + in + "target \"" + target + "\"");
    } else {
      b.targets[static_cast<size_t>(ti)] = targetSource(source);
    }
  }
  const goap::BlackboardSchema& schema = P.library.blackboard();
  for (const auto& [key, value] : def.blackboard) {
    const goap::BlackboardKeyId k = schema.find(key);
    const goap::BlackboardType kt = k == goap::BlackboardKeyId::kNone ? goap::BlackboardType::kVec3
                                                                      : schema.type(k);
    if (kt == goap::BlackboardType::kEntity || kt == goap::BlackboardType::kVec3) {
      errors.push_back(where + "blackboard: \"" + key + "\" is not a bool or number key of any domain");
    } else {
      b.blackboard.push_back({k, kt, static_cast<float>(value)});
    }
  }
  for (const std::string& fact : def.transient_facts) {
    const goap::FactId f = d->findFact(fact);
    if (f == goap::FactId::kNone) errors.push_back(where + "transient_facts: " + in + "fact \"" + fact + "\"");
    else b.transient.push_back(f);
  }
  b.trace = def.trace;
  for (const PlannerDomain::PreparedAction& a : P.domains[static_cast<size_t>(b.domain)].actions) {
    b.perform.push_back(a.name);
  }
  for (const auto& [action, performed] : def.perform) {
    const goap::ActionId id = d->findAction(action);
    if (id == goap::ActionId::kNone) errors.push_back(where + "perform: " + in + "action \"" + action + "\"");
    else b.perform[static_cast<size_t>(id)] = names.intern(performed);
  }
  return true;
}

// A behavior that plans (mode "plan", or a "bucket" for trees' <Plan>) needs its bucket in
// the domain of at least one of the archetype's planners.
void checkBehaviorBuckets(const SimPlanning& P, const Archetype& type,
                          std::span<const PlannerBinding> bound, std::vector<std::string>& errors) {
  for (size_t i = 0; i < type.behaviors.size(); ++i) {
    const BehaviorDef& def = type.behaviors[i];
    if (def.mode != BehaviorMode::kPlan && def.bucket.empty()) continue;
    const bool planned = std::any_of(bound.begin(), bound.end(), [&](const PlannerBinding& b) {
      return b.bucket_of_behavior[i] != goap::BucketId::kNone;
    });
    if (planned) continue;
    std::string domains;
    for (const PlannerDef& p : type.planners) domains += (domains.empty() ? "\"" : ", \"") + p.domain + "\"";
    const std::string& bucket = def.bucket.empty() ? def.name : def.bucket;
    errors.push_back("archetype \"" + type.name + "\": " +
                     (type.planners.size() == 1 ? "planner: " : "planners: ") + "behavior \"" + def.name +
                     "\": " + (type.planners.size() == 1 ? "domain " : "none of the domains ") + domains +
                     " has" + (type.planners.size() == 1 ? " no" : "") + " bucket \"" + bucket + "\"");
  }
}

}  // namespace

// --- Loading ------------------------------------------------------------------------------

DefinitionReport Simulation::loadPlannerDomains(
    const std::vector<std::pair<std::string, std::string>>& files, const std::string& statistics_dir) {
  std::vector<goap::GoapSourceFile> sources;
  for (const auto& [path, text] : files) sources.push_back({path, text});
  auto fresh = std::make_unique<SimPlanning>();
  // Unchanged domains keep their pattern databases: a reload runs between ticks.
  if (planning_) fresh->library.reusePatternDatabases(&planning_->library);
  goap::GoapLoadReport r = fresh->library.loadFiles(sources);
  fresh->library.reusePatternDatabases(nullptr);
  DefinitionReport report;
  report.errors = std::move(r.errors);
  const bool installed = installPlanning(std::move(fresh), report.errors, statistics_dir);
  report.outcome("planner domains", installed, std::to_string(r.loaded.size()) + " domains");
  report.planner_domains = planning_->library.size();
  return report;
}

bool Simulation::installPlanning(std::unique_ptr<SimPlanning> fresh,
                                 std::vector<std::string>& errors,
                                 const std::string& statistics_dir) {
  if (!errors.empty()) return false;  // a bad set never replaces a good one
  bindPlanners(*fresh, errors, statistics_dir);
  if (!errors.empty()) return false;
  // Agents move to the new domains: plans stop (their intentions are cancelled); facts,
  // blackboard values and pacing records carry over by name; a fact whose value the new
  // domain cannot hold starts from its initial value.
  std::unique_ptr<SimPlanning> old = std::move(planning_);
  planning_ = std::move(fresh);
  planning_->budget = old->budget;  // a reload between two phases keeps this tick's budget
  planning_->cursor = old->cursor;
  for (Agent& agent : agents_.rows()) {
    const AgentPlanner* before = agent.planner.isNull() ? nullptr : old->agents.get(agent.planner);
    if (before) {
      for (uint8_t i = 0; i < before->count; ++i) stopPlanStep(agent, *old->runs[i].get(before->runs[i]));
    }
    agent.planner = {};
    attachPlanner(agent);
    AgentPlanner* after = plannerOf(agent);
    if (!before || !after) continue;
    carryOverBlackboard(*old, *planning_, before->blackboard, after->blackboard);
    carryOverPacing(*old, *planning_, before->pacing, after->pacing);
    for (uint8_t i = 0; i < std::min(before->count, after->count); ++i) {
      const PlannerRun& was = *old->runs[i].get(before->runs[i]);
      PlannerRun& is = *runOf(*after, i);
      carryOverFacts(*old, *planning_, agent.archetype, i, was.facts, is.facts);
      is.traced = is.traced || was.traced;
    }
  }
  for (size_t place = 0; place < old->sleeping.size() && place < dormant_.size(); ++place) {
    carryOverSleepingPlanners(*old, static_cast<PlaceIndex>(place));
  }
  return true;
}

// One place's sleeping planners moved to the new planning set (its sleepers' archetypes
// found by id once per place, not by a search of the place per planner).
void Simulation::carryOverSleepingPlanners(const SimPlanning& old, PlaceIndex place) {
  const SleepingPlanners& slept = old.sleeping[raw(place)];
  if (slept.empty()) return;
  std::vector<std::pair<EntityId, uint16_t>> archetypes;
  archetypes.reserve(dormant_[raw(place)].size());
  for (const DormantAgent& d : dormant_[raw(place)]) archetypes.emplace_back(d.body.id, d.archetype);
  std::sort(archetypes.begin(), archetypes.end());
  SleepingPlanners& moved = planning_->sleepingIn(place);
  for (const SleepingPlanner& planner : slept) {
    const auto at = std::lower_bound(archetypes.begin(), archetypes.end(),
                                     std::make_pair(planner.id, uint16_t{0}));
    if (at == archetypes.end() || at->first != planner.id) continue;
    if (planning_->bindingsOf(at->second).empty()) continue;
    moved.edit().push_back({planner.id, carryOverMemory(old, *planning_, at->second, planner.memory)});
  }
}

void Simulation::bindPlanners(SimPlanning& P, std::vector<std::string>& errors,
                              const std::string& statistics_dir) {
  P.statistics_dir = statistics_dir;
  P.param_object = names_.intern("object");
  P.param_target = names_.intern("target");
  for (size_t i = 0; i < P.library.size(); ++i) {
    P.domains.push_back(prepareDomain(P.library, i, statistics_dir, names_, errors));
  }
  P.bindings.assign(archetypes_.size(), {});
  for (size_t t = 0; t < archetypes_.size(); ++t) {
    const Archetype& type = archetypes_.at(static_cast<uint16_t>(t));
    std::vector<PlannerBinding>& bound = P.bindings[t];
    for (const PlannerDef& def : type.planners) {
      PlannerBinding b;
      if (!bindPlanner(P, type, def, names_, b, errors)) continue;
      // What the agent performs is a client-side action of its archetype unless something
      // (its data, a daemon-side built-in such as Take) already defines it.
      const ActionListId list = own_actions_[t];
      for (ActionNameId name : b.perform) {
        if (registry_.findInList(list, name) != ActionImplId::kNone) continue;
        registry_.addTo(list, names_.name(name), std::make_unique<ClientAction>(type.action_timeout_s));
      }
      bound.push_back(std::move(b));
    }
    if (bound.size() == type.planners.size()) checkBehaviorBuckets(P, type, bound, errors);
  }
}

Status Simulation::savePlannerStatistics() const {
  for (const PlannerDomain& d : planning_->domains) {
    if (!d.stats) continue;
    const Status s = d.stats->save(statisticsPath(planning_->statistics_dir, d.domain->name()));
    if (!s.isOk()) return s;
  }
  return {};
}

// --- Per-agent state ----------------------------------------------------------------------

void Simulation::attachPlanner(Agent& agent, const PlannerMemory* slept) {
  SimPlanning& P = *planning_;
  const auto bound = P.bindingsOf(agent.archetype);
  if (bound.empty()) return;
  Handle<AgentPlanner> h = P.agents.find(agent.id);
  if (h.isNull()) h = P.agents.insert(agent.id);
  AgentPlanner& ap = *P.agents.get(h);
  ap = AgentPlanner{};
  ap.id = agent.id;
  ap.count = static_cast<uint8_t>(bound.size());
  for (uint8_t i = 0; i < ap.count; ++i) {
    Handle<PlannerRun> r = P.runs[i].find(agent.id);
    if (r.isNull()) r = P.runs[i].insert(agent.id);
    PlannerRun& run = *P.runs[i].get(r);
    run = PlannerRun{};
    run.id = agent.id;
    run.facts = P.domainOf(bound[i]).initialState();
    run.traced = bound[i].trace;
    if (slept && i < slept->planners) run.facts = slept->facts[i];
    for (const PlannerBinding::Initial& v : bound[i].blackboard) ap.blackboard.setNumber(v.key, v.type, v.value);
    ap.runs[i] = r;
  }
  if (slept) {
    ap.blackboard = slept->blackboard;
    ap.pacing = slept->pacing;
  }
  agent.planner = h;
  const uint16_t group = raw(agent.perception.group);
  if (P.groups.size() <= group) P.groups.resize(group + 1u);
}

void Simulation::detachPlanner(EntityId id) {
  SimPlanning& P = *planning_;
  P.agents.remove(id);
  for (uint8_t i = 0; i < kMaxPlannersPerAgent; ++i) {
    P.runs[i].remove(id);
    P.traces.erase({id, i});
  }
}

void Simulation::forgetSleepingPlanner(PlaceIndex place, EntityId id) {
  if (raw(place) >= planning_->sleeping.size()) return;
  SleepingPlanners& slept = planning_->sleeping[raw(place)];
  const auto at = std::find_if(slept.begin(), slept.end(),
                               [id](const SleepingPlanner& p) { return p.id == id; });
  if (at == slept.end()) return;  // it does not plan: the shared rows stay shared
  const ptrdiff_t index = at - slept.begin();  // edit() may move the rows
  auto& rows = slept.edit();
  rows.erase(rows.begin() + index);
}

size_t Simulation::sleepingPlannerBytes() const {
  size_t bytes = 0;
  for (const SleepingPlanners& place : planning_->sleeping) bytes += place.capacityBytes();
  return bytes;
}

void Simulation::sleepPlanner(EntityId id, PlaceIndex place) {
  const std::optional<PlannerMemory> memory = plannerMemory(id);
  detachPlanner(id);
  if (memory) planning_->sleepingIn(place).edit().push_back({id, *memory});
}

std::optional<PlannerMemory> Simulation::plannerMemory(EntityId id) const {
  const SimPlanning& P = *planning_;
  if (const AgentPlanner* ap = P.agents.get(id)) {
    PlannerMemory m;
    m.planners = ap->count;
    for (uint8_t i = 0; i < ap->count; ++i) m.facts[i] = P.runs[i].get(ap->runs[i])->facts;
    m.blackboard = ap->blackboard;
    m.pacing = ap->pacing;
    return m;
  }
  const auto where = findDormant(id);
  if (!where || raw(where->first) >= P.sleeping.size()) return std::nullopt;
  for (const SleepingPlanner& slept : P.sleeping[raw(where->first)]) {
    if (slept.id == id) return slept.memory;
  }
  return std::nullopt;
}

AgentPlanner* Simulation::plannerOf(const Agent& agent) { return planning_->plannerOf(agent.planner); }

PlannerRun* Simulation::runOf(const AgentPlanner& ap, uint8_t index) { return planning_->runOf(ap, index); }

void Simulation::resetPlanner(Agent& agent) {
  AgentPlanner* ap = plannerOf(agent);
  if (!ap) return;
  for (uint8_t i = 0; i < ap->count; ++i) {
    PlannerRun& p = *runOf(*ap, i);
    stopPlanStep(agent, p);  // normally already cancelled with the old behavior's intentions
    p.runner.reset();
    p.awaiting_plan = false;
    p.tree = PlannerRun::TreePlan::kNone;
  }
}

// --- The planning phase (planning_phase.h) -----------------------------------------------

void Simulation::planning() {
  SimPlanning& P = *planning_;
  // Smart-object species follow the world's before the searches, which only read them.
  for (PlannerDomain& pd : P.domains) pd.species->sync(world_.species());
  P.reserveWorkers(workerCount(pool_.get()));  // navigation's were reserved by decide()
  planning_phase_.run(
      {agents_.rows(), world_, places_, archetypes_, P, profile_, pool_.get(), timeS(),
       [this](unsigned worker, const Agent& agent, AgentPlanner& ap, uint8_t index,
              PlannerRun& run, uint64_t& elapsed_ns) {
         return searchPlanOn(worker, agent, ap, index, run, {}, elapsed_ns);
       },
       [this](PlannerRun& run, const SearchCount& counted) { countSearch(run, counted); },
       [this](Agent& agent, uint8_t index, PlannerRun& run, bool fallback) {
         programPlanStep(agent, index, run, fallback);
       },
       [this](Agent& agent, PlannerRun& run) { stopPlanStep(agent, run); }});
}

const goap::PlanResult* Simulation::searchPlan(Agent& agent, AgentPlanner& ap, uint8_t index,
                                               PlannerRun& p, std::string_view goal_name) {
  const PlannerBinding& b = planning_->bindingsOf(agent.archetype)[index];
  planning_->domains[static_cast<size_t>(b.domain)].species->sync(world_.species());
  uint64_t elapsed_ns = 0;
  const goap::PlanResult* result = searchPlanOn(0, agent, ap, index, p, goal_name, elapsed_ns);
  if (result) countSearch(p, SearchCount::of(*result, elapsed_ns));
  return result;
}

const goap::PlanResult* Simulation::searchPlanOn(unsigned worker, const Agent& agent,
                                                 AgentPlanner& ap, uint8_t index, PlannerRun& p,
                                                 std::string_view goal_name,
                                                 uint64_t& elapsed_ns) {
  SimPlanning& P = *planning_;
  PlannerScratch& scratch = P.scratchFor(worker);
  const PlannerBinding& b = P.bindingsOf(agent.archetype)[index];
  const PlannerDomain& pd = P.domains[static_cast<size_t>(b.domain)];
  const goap::GoapDomain& d = *pd.domain;
  const Entity* self = world_.entities().get(agent.entity);
  if (!self) return nullptr;
  GroupPlannerMemory& group = P.groups[raw(agent.perception.group)];
  const double now = timeS();

  goap::PlanRequest r;
  r.domain = &d;
  r.bucket = agent.behavior_def == Agent::kNoBehaviorDef ? goap::BucketId::kNone
                                                         : b.bucket_of_behavior[agent.behavior_def];
  if (!goal_name.empty()) {  // a tree's <Plan goal="...">: on the tick thread
    const goap::GoalId g = d.findGoal(goal_name);
    if (g == goap::GoalId::kNone) {
      emitError(self->owner, 0, agent.id,
                "planner: domain \"" + d.name() + "\" has no goal \"" + std::string(goal_name) + "\"");
      return nullptr;
    }
    r.addGoal(g);
  } else if (p.runner.phase() == RunnerPhase::kPlanning) {
    for (goap::GoalId g : p.runner.goals()) r.addGoal(g);
  } else {  // a tree's <Plan> without a goal: what goal selection would pick now
    goap::GoalSelectorState fresh;
    const goap::GoalChoice choice =
        goap::selectGoal(d, r.bucket, p.facts, &ap.blackboard, &group.blackboard, now, fresh);
    for (uint8_t i = 0; i < choice.alternative_count; ++i) r.addGoal(choice.alternatives[i]);
  }
  r.start = p.facts;
  r.self_position = self->position;
  for (size_t t = 0; t < b.targets.size(); ++t) {
    goap::TargetPosition& tp = scratch.targets[t];
    tp = {};
    switch (b.targets[t]) {
      case PlannerBinding::Source::kNone: break;
      case PlannerBinding::Source::kHome: tp = {true, agent.home, EntityId::kNone}; break;
      case PlannerBinding::Source::kSelf: tp = {true, self->position, agent.id}; break;
      case PlannerBinding::Source::kAttention: {
        const AttentionTarget& a = agent.perception.attention;
        if (a.cls != AttentionClass::kNone) tp = {true, a.position, a.target};
        break;
      }
    }
    p.target_entities[t] = tp.entity;
  }
  r.targets = {scratch.targets.data(), b.targets.size()};
  r.objects = {scratch.objects.data(),
               goap::gatherSmartObjects(world_, *pd.species, self->position,
                                        d.search().object_radius_m, scratch.objects)};
  r.reachability = navigation_ ? &navigation_->reachabilityFor(worker) : nullptr;
  r.blackboard = &ap.blackboard;
  r.group_blackboard = &group.blackboard;
  r.pacing = &ap.pacing;
  r.group_pacing = &group.pacing;
  r.now_s = now;
  // A traced agent always searches: the monitor is for watching the search itself. Its
  // trace is made here, so its searches run on the tick thread (PlanningPhase).
  r.previous = p.traced ? nullptr : &p.runner.plan();
  if (p.traced) {
    auto& trace = P.traces[{agent.id, index}];
    if (!trace) trace = std::make_unique<goap::PlanTrace>();
    r.trace = trace.get();
  }
  scratch.planner.setStatistics(pd.stats.get());
  const uint64_t started_ns = plan_clock_();
  const goap::PlanResult& result = scratch.planner.plan(r);
  elapsed_ns = plan_clock_() - started_ns;
  return &result;
}

void Simulation::countSearch(PlannerRun& p, const SearchCount& counted) {
  totals_.plan_latency.record(counted.elapsed_ns);
  ++p.searches;
  ++totals_.plans;
  if (!counted.has_plan && !counted.found) ++totals_.plans_failed;
  if (counted.partial) ++totals_.plans_partial;
}

// --- Steps as intentions ------------------------------------------------------------------

bool Simulation::programPlanStep(Agent& agent, uint8_t index, PlannerRun& p, bool fallback) {
  const PlannerBinding& b = planning_->bindingsOf(agent.archetype)[index];
  const PlannerDomain& pd = planning_->domains[static_cast<size_t>(b.domain)];
  const goap::PlanStep* step = fallback ? nullptr : p.runner.currentStep();
  const goap::ActionId action = fallback ? p.runner.fallback() : step ? step->action : goap::ActionId::kNone;
  if (action == goap::ActionId::kNone) return false;
  const PlannerDomain::PreparedAction& prepared = pd.actions[static_cast<size_t>(action)];
  const Archetype& type = archetypes_.at(agent.archetype);
  const double now = timeS();
  const TreeContext ctx = treeContext();
  DecisionTree tree(agent.intent.queue, agent.id, ctx);
  p.step_intentions = {IntentionId::kNone, IntentionId::kNone};
  p.step_open = 0;
  p.step_action = action;
  p.step_is_fallback = fallback;
  Programmed programmed;
  const bool moves = step && step->moves;
  if (moves) {
    const float speed = prepared.speed_mps > 0.f ? prepared.speed_mps : type.wander.speed_mps;
    const ActionArg move[] = {
        ActionArg::ofPosition(step->destination, PlaceIndex::kNone, vocabulary_.param_position),
        ActionArg::ofValue(speed, vocabulary_.unit_mps, vocabulary_.param_speed)};
    programmed = tree.program(now, vocabulary_.move_to, move);
    if (programmed.ok()) p.step_intentions[p.step_open++] = programmed.id;
  }
  if (programmed.ok() && !(moves && prepared.only_moves)) {
    ActionArg args[kMaxActionArgs];
    size_t n = 0;
    if (step && step->object != EntityId::kNone) {
      args[n++] = ActionArg::ofEntity(step->object, ArgRole::kParam, planning_->param_object);
    } else if (step && step->target != goap::TargetIndex::kNone &&
               p.target_entities[static_cast<size_t>(step->target)] != EntityId::kNone) {
      args[n++] = ActionArg::ofEntity(p.target_entities[static_cast<size_t>(step->target)],
                                      ArgRole::kParam, planning_->param_target);
    }
    for (uint8_t i = 0; i < prepared.arg_count && n < kMaxActionArgs; ++i) args[n++] = prepared.args[i];
    programmed = tree.program(now, b.perform[static_cast<size_t>(action)], {args, n});
    if (programmed.ok()) p.step_intentions[p.step_open++] = programmed.id;
  }
  if (programmed.ok()) return true;
  // The queue refused (full, too many arguments): the step fails like any other.
  const Entity* self = world_.entities().get(agent.entity);
  emitError(self ? self->owner : kAllClients, 0, agent.id,
            "planner step " + names_.name(prepared.name) + ": " +
                toStatus(programmed.status, agent.id, programmed.id).message());
  stopPlanStep(agent, p);
  p.runner.onStepFailed(now, pd.stats.get());
  ++totals_.plan_steps_failed;
  if (p.tree == PlannerRun::TreePlan::kExecuting) p.tree = PlannerRun::TreePlan::kFailed;
  return false;
}

void Simulation::stopPlanStep(Agent& agent, PlannerRun& p) {
  const auto ids = p.step_intentions;
  p.step_intentions = {IntentionId::kNone, IntentionId::kNone};  // their end events are ours
  p.step_open = 0;
  const TreeContext ctx = treeContext();
  DecisionTree tree(agent.intent.queue, agent.id, ctx);
  for (IntentionId id : ids) {
    if (id != IntentionId::kNone && tree.cancel(id) != IntentStatus::kOk) tree.deprogram(id);
  }
}

void Simulation::onPlanIntentionEnded(Agent& agent, IntentionId intention, bool completed) {
  AgentPlanner* ap = plannerOf(agent);
  if (!ap) return;
  // The step is its planner's: the intention ids of the agent's planners never repeat.
  for (uint8_t i = 0; i < ap->count; ++i) {
    PlannerRun& p = *runOf(*ap, i);
    if (p.step_open == 0) continue;
    const auto it = std::find(p.step_intentions.begin(), p.step_intentions.end(), intention);
    if (it == p.step_intentions.end()) continue;
    *it = IntentionId::kNone;
    onPlanStepEnded(agent, *ap, i, p, completed);
    return;
  }
}

void Simulation::onPlanStepEnded(Agent& agent, AgentPlanner& ap, uint8_t index, PlannerRun& p,
                                 bool completed) {
  const PlannerBinding& b = planning_->bindingsOf(agent.archetype)[index];
  PlannerDomain& pd = planning_->domains[static_cast<size_t>(b.domain)];
  const double now = timeS();
  if (!completed) {
    // Called while intention events are flushed: the step's other intention (the action
    // after a failed MoveTo) has not started, so it is removed without an event.
    const TreeContext ctx = treeContext();
    DecisionTree tree(agent.intent.queue, agent.id, ctx);
    for (IntentionId& other : p.step_intentions) {
      if (other != IntentionId::kNone) tree.deprogram(other);
      other = IntentionId::kNone;
    }
    p.step_open = 0;
    p.runner.onStepFailed(now, pd.stats.get());
    ++totals_.plan_steps_failed;
    if (p.tree == PlannerRun::TreePlan::kExecuting) p.tree = PlannerRun::TreePlan::kFailed;
    return;
  }
  if (--p.step_open > 0) return;
  goap::applyFactEffects(pd.domain->action(p.step_action), p.facts);
  GroupPlannerMemory& group = planning_->groups[raw(agent.perception.group)];
  p.runner.onStepSucceeded(now, &ap.blackboard, &ap.pacing, &group.pacing, pd.stats.get());
  if (p.step_is_fallback || p.runner.phase() == RunnerPhase::kExecuting) return;
  // The plan is done: achievements are forgotten so the goal can be wanted again.
  for (goap::FactId f : b.transient) pd.domain->set(p.facts, f, pd.domain->fact(f).initial);
  if (p.tree == PlannerRun::TreePlan::kExecuting) p.tree = PlannerRun::TreePlan::kSucceeded;
}

// --- Behavior trees: <Plan> / <ExecutePlan> ----------------------------------------------

PlannerRun* Simulation::namedPlanner(Agent& agent, std::string_view name, uint8_t& index, bool report) {
  AgentPlanner* ap = plannerOf(agent);
  if (!ap) return nullptr;
  const int found = archetypes_.at(agent.archetype).findPlanner(name);
  if (found < 0) {
    if (report) {
      const Entity* self = world_.entities().get(agent.entity);
      emitError(self ? self->owner : kAllClients, 0, agent.id,
                "planner: archetype \"" + archetypes_.at(agent.archetype).name + "\" has no planner \"" +
                    std::string(name) + "\"");
    }
    return nullptr;
  }
  index = static_cast<uint8_t>(found);
  return runOf(*ap, index);
}

MbtPlanState Simulation::treeRequestPlan(Agent& agent, std::string_view planner, std::string_view goal) {
  uint8_t index = 0;
  PlannerRun* p = namedPlanner(agent, planner, index, true);
  if (!p) return MbtPlanState::kFailed;
  if (planning_->budget == 0) return MbtPlanState::kRunning;  // next tick
  --planning_->budget;
  stopPlanStep(agent, *p);
  const goap::PlanResult* found = searchPlan(agent, *plannerOf(agent), index, *p, goal);
  if (!found) return MbtPlanState::kFailed;
  const goap::PlanResult& result = *found;
  p->runner.adopt(result);
  if (result.hasPlan() && result.step_count > 0) {
    p->tree = PlannerRun::TreePlan::kExecuting;
  } else {
    p->tree = result.status == goap::PlanStatus::kFound ? PlannerRun::TreePlan::kSucceeded
                                                        : PlannerRun::TreePlan::kFailed;
  }
  return p->tree == PlannerRun::TreePlan::kFailed ? MbtPlanState::kFailed : MbtPlanState::kSucceeded;
}

MbtPlanState Simulation::treeExecutePlan(Agent& agent, std::string_view planner) {
  uint8_t index = 0;
  PlannerRun* p = namedPlanner(agent, planner, index, true);
  if (!p) return MbtPlanState::kFailed;
  switch (p->tree) {
    case PlannerRun::TreePlan::kNone:
    case PlannerRun::TreePlan::kFailed: return MbtPlanState::kFailed;
    case PlannerRun::TreePlan::kSucceeded: return MbtPlanState::kSucceeded;
    case PlannerRun::TreePlan::kExecuting: break;
  }
  const PlannerBinding& b = planning_->bindingsOf(agent.archetype)[index];
  switch (p->runner.follow(planning_->domainOf(b), p->facts)) {
    case RunnerCommand::kStartStep:
      if (!programPlanStep(agent, index, *p, false)) return MbtPlanState::kFailed;
      break;
    case RunnerCommand::kStopStep:
      stopPlanStep(agent, *p);
      p->tree = PlannerRun::TreePlan::kFailed;
      return MbtPlanState::kFailed;
    default: break;
  }
  if (p->runner.phase() != RunnerPhase::kExecuting && p->tree == PlannerRun::TreePlan::kExecuting) {
    p->tree = PlannerRun::TreePlan::kFailed;  // the facts broke the plan before its step
  }
  switch (p->tree) {
    case PlannerRun::TreePlan::kExecuting: return MbtPlanState::kRunning;
    case PlannerRun::TreePlan::kSucceeded: return MbtPlanState::kSucceeded;
    default: return MbtPlanState::kFailed;
  }
}

void Simulation::treeStopPlan(Agent& agent, std::string_view planner) {
  uint8_t index = 0;
  PlannerRun* p = namedPlanner(agent, planner, index, false);
  if (!p) return;
  stopPlanStep(agent, *p);
  p->tree = PlannerRun::TreePlan::kNone;
}

// --- Commands and debug views -------------------------------------------------------------

Status Simulation::setPlannerValue(const SetPlannerValue& c) {
  Status error;
  Agent* agent = awakeAgent(c.agent, error);
  if (!agent) return error;
  AgentPlanner* ap = plannerOf(*agent);
  if (!ap) return {StatusCode::kFailedPrecondition, entityLabel(c.agent) + ": has no planner"};
  const Archetype& type = archetypes_.at(agent->archetype);
  const int only = c.planner.empty() ? -1 : type.findPlanner(c.planner);
  if (!c.planner.empty() && only < 0) {
    return {StatusCode::kNotFound, "planner: archetype \"" + type.name + "\" has no planner \"" + c.planner + "\""};
  }
  if (c.blackboard) {
    const goap::BlackboardSchema& schema = planning_->library.blackboard();
    const goap::BlackboardKeyId key = schema.find(c.name);
    if (key == goap::BlackboardKeyId::kNone) {
      return {StatusCode::kNotFound, "name: \"" + c.name + "\" is not a blackboard key"};
    }
    float value = 0.f;
    if (c.value == "true" || c.value == "false") {
      value = c.value == "true" ? 1.f : 0.f;
    } else {
      char* end = nullptr;
      value = std::strtof(c.value.c_str(), &end);
      if (c.value.empty() || *end != '\0' || !std::isfinite(value)) {
        return {StatusCode::kInvalidArgument, "value: \"" + c.value + "\" is not true, false or a number"};
      }
    }
    const goap::BlackboardType type = schema.type(key);
    if (type == goap::BlackboardType::kEntity || type == goap::BlackboardType::kVec3) {
      return {StatusCode::kInvalidArgument, "name: \"" + c.name + "\" is not a bool or number key"};
    }
    ap->blackboard.setNumber(key, type, value);
  } else if (const Status s = setPlannerFact(*agent, *ap, only, c.name, c.value); !s.isOk()) {
    return s;
  }
  for (uint8_t i = 0; i < ap->count; ++i) runOf(*ap, i)->runner.worldChanged();
  return {};
}

// A fact is set in every planner whose domain has it (a shared belief, "enemy_near" in the
// helm's domain and the gunnery's), or only in planner `only`.
Status Simulation::setPlannerFact(Agent& agent, AgentPlanner& ap, int only, const std::string& name,
                                  const std::string& value) {
  const auto bound = planning_->bindingsOf(agent.archetype);
  std::string domains;
  bool set = false;
  for (uint8_t i = 0; i < ap.count; ++i) {
    if (only >= 0 && i != only) continue;
    const goap::GoapDomain& d = planning_->domainOf(bound[i]);
    domains += (domains.empty() ? "\"" : ", \"") + d.name() + "\"";
    if (d.findFact(name) == goap::FactId::kNone) continue;
    if (!d.set(runOf(ap, i)->facts, name, value)) {
      return {StatusCode::kInvalidArgument,
              "name/value: domain \"" + d.name() + "\" has no fact \"" + name + "\" taking \"" + value + "\""};
    }
    set = true;
  }
  if (set) return {};
  return {StatusCode::kInvalidArgument, "name/value: domain " + domains + " has no fact \"" + name +
                                            "\" taking \"" + value + "\""};
}

nlohmann::json Simulation::plannerView(const Agent& agent, uint8_t index) const {
  const AgentPlanner& ap = *planning_->agents.get(agent.planner);
  const PlannerRun& p = *planning_->runs[index].get(ap.runs[index]);
  const goap::GoapDomain& d = planning_->domainOf(planning_->bindingsOf(agent.archetype)[index]);
  const goap::PlanResult& plan = p.runner.plan();
  nlohmann::json j;
  j["name"] = archetypes_.at(agent.archetype).planners[index].name;
  j["domain"] = d.name();
  j["phase"] = goap::toString(p.runner.phase());
  j["goal"] = p.runner.goal() == goap::GoalId::kNone ? nlohmann::json(nullptr)
                                                      : nlohmann::json(d.goal(p.runner.goal()).name);
  j["facts"] = d.formatState(p.facts);
  j["searches"] = p.searches;
  j["replans"] = p.runner.replans();
  j["step_failures"] = p.runner.failures();
  j["traced"] = p.traced;
  nlohmann::json steps = nlohmann::json::array();
  for (uint8_t i = 0; i < plan.step_count; ++i) {
    const goap::PlanStep& s = plan.steps[i];
    nlohmann::json step{{"action", d.action(s.action).name}, {"cost", s.cost}};
    if (s.object != EntityId::kNone) step["object"] = raw(s.object);
    if (s.moves) step["destination"] = {s.destination.x, s.destination.y, s.destination.z};
    steps.push_back(std::move(step));
  }
  j["plan"] = {{"status", goap::toString(plan.status)},
               {"cost", plan.cost},
               {"expansions", plan.expansions},
               {"step", p.runner.stepIndex()},
               {"steps", std::move(steps)}};
  if (plan.status == goap::PlanStatus::kNoPlan) j["plan"]["why"] = goap::explain(plan, d);
  return j;
}

void Simulation::describePlanner(const Agent& agent, nlohmann::json& out) const {
  if (agent.planner.isNull()) return;
  const AgentPlanner* ap = planning_->agents.get(agent.planner);
  if (!ap || ap->count == 0) return;
  // "planner": the first (or only) planner; "planners": every one, when there are several.
  out["planner"] = plannerView(agent, 0);
  if (ap->count == 1) return;
  nlohmann::json all = nlohmann::json::array();
  for (uint8_t i = 0; i < ap->count; ++i) all.push_back(plannerView(agent, i));
  out["planners"] = std::move(all);
}

Status Simulation::planTrace(EntityId id, std::string_view planner, std::optional<bool> trace,
                             std::string& json_out) {
  Status error;
  Agent* agent = awakeAgent(id, error);
  if (!agent) return error;
  if (!plannerOf(*agent)) return {StatusCode::kFailedPrecondition, entityLabel(id) + ": has no planner"};
  uint8_t index = 0;
  PlannerRun* p = namedPlanner(*agent, planner, index, false);
  if (!p) {
    return {StatusCode::kNotFound, "planner: archetype \"" + archetypes_.at(agent->archetype).name +
                                       "\" has no planner \"" + std::string(planner) + "\""};
  }
  if (trace) p->traced = *trace;
  nlohmann::json j;
  j["agent"] = raw(id);
  j["traced"] = p->traced;
  const auto it = planning_->traces.find({id, index});
  j["trace"] = it == planning_->traces.end() ? nlohmann::json(nullptr) : it->second->toJson();
  j["planner"] = plannerView(*agent, index);
  json_out = j.dump();
  return {};
}

}  // namespace npc
