#include "hibernation/long_action.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"
#include "base/json_schema.h"
#include "world/limits.h"

namespace npc {

using nlohmann::json;

namespace {

bool readAmounts(const json& j, const std::string& path, JsonReader& r, NameTable<ItemId>& items,
                 std::vector<ItemAmount>& out) {
  if (!r.isObject(j, path)) return false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (!it.value().is_number_integer() || it.value().get<int64_t>() <= 0) {
      r.error(joinPath(path, it.key()), "expected a positive integer");
      continue;
    }
    if (it.value().get<int64_t>() > kMaxItemCount) {
      r.error(joinPath(path, it.key()), "must be at most " + std::to_string(kMaxItemCount) +
                                            " (got " + it.value().dump() + ")");
      continue;
    }
    out.push_back({items.intern(it.key()), it.value().get<int32_t>()});
  }
  return true;
}

bool canRun(const Recipe& recipe, const LongActionDef& def, const Inventory& inv) {
  for (const ItemAmount& c : recipe.consumes) {
    if (inv.count(c.item) < c.amount) return false;
  }
  for (const ItemAmount& p : recipe.produces) {
    if (inv.count(p.item) < def.capOf(p.item)) return true;
  }
  return false;  // every output is at its cap
}

void runOnce(const Recipe& recipe, const LongActionDef& def, int64_t times, Inventory& inv,
             Settlement* out) {
  if (times <= 0) return;
  auto note = [&](ItemId item, int32_t delta) {
    if (!out || delta == 0) return;
    for (ItemAmount& a : out->produced) {
      if (a.item == item) {
        a.amount += delta;
        return;
      }
    }
    out->produced.push_back({item, delta});
  };
  for (const ItemAmount& c : recipe.consumes) {
    const auto delta = static_cast<int32_t>(-c.amount * times);
    inv.add(c.item, delta);
    note(c.item, delta);
  }
  for (const ItemAmount& p : recipe.produces) {
    const int32_t have = inv.count(p.item);
    const int32_t cap = def.capOf(p.item);
    if (have >= cap) continue;
    const int64_t next = std::min<int64_t>(cap, have + int64_t{p.amount} * times);
    inv.add(p.item, static_cast<int32_t>(next - have));
    note(p.item, static_cast<int32_t>(next - have));
  }
}

// Times the recipe can still run given its inputs and its outputs' caps.
int64_t runnableTimes(const Recipe& recipe, const LongActionDef& def, const Inventory& inv) {
  int64_t limit = std::numeric_limits<int64_t>::max();
  for (const ItemAmount& c : recipe.consumes) limit = std::min<int64_t>(limit, inv.count(c.item) / c.amount);
  int64_t until_capped = 0;
  for (const ItemAmount& p : recipe.produces) {
    const int32_t cap = def.capOf(p.item);
    if (cap == std::numeric_limits<int32_t>::max()) return limit;  // never all capped
    const int64_t missing = int64_t{cap} - inv.count(p.item);
    if (missing > 0) until_capped = std::max(until_capped, (missing + p.amount - 1) / p.amount);
  }
  return std::min(limit, until_capped);
}

}  // namespace

int32_t LongActionDef::capOf(ItemId item) const {
  for (const ItemAmount& c : caps) {
    if (c.item == item) return c.amount;
  }
  return std::numeric_limits<int32_t>::max();
}

void LongActionLibrary::loadObject(const json& object, JsonReader& r) {
  if (!r.validate(object, SchemaId::kLongActions)) return;
  for (auto it = object.begin(); it != object.end(); ++it) {
    if (it.key() == "$schema") continue;
    const std::string path = joinPath("", it.key());
    const json& j = it.value();
    if (!r.isObject(j, path)) continue;
    if (find(it.key()) != LongActionRun::kNone) {
      r.error(path, "long action \"" + it.key() + "\" is defined twice");
      continue;
    }
    LongActionDef def;
    def.name = it.key();
    if (auto v = r.number(j, path, "turn_s", true)) {
      def.turn_s = *v;
      if (!(*v > 0)) {
        r.error(joinPath(path, "turn_s"), "must be > 0");
      } else if (*v < kMinLongActionTurnS) {
        // Shorter turns would let a long sleep count past what turns_done holds.
        r.error(joinPath(path, "turn_s"), "must be at least " +
                                              formatNumber(kMinLongActionTurnS) + " s (got " +
                                              formatNumber(*v) + ")");
      } else if (std::string problem = aboveMaximum(*v, kMaxDelayS, "s"); !problem.empty()) {
        r.error(joinPath(path, "turn_s"), problem);
      }
    }
    if (j.contains("caps")) readAmounts(j["caps"], joinPath(path, "caps"), r, items_, def.caps);
    const std::string recipes_path = joinPath(path, "recipes");
    if (!j.contains("recipes")) {
      r.error(recipes_path, "missing required key");
    } else if (r.isArray(j["recipes"], recipes_path)) {
      std::set<ItemId> seen_in, seen_out;
      for (size_t i = 0; i < j["recipes"].size(); ++i) {
        const std::string rp = joinPath(recipes_path, i);
        const json& rj = j["recipes"][i];
        if (!r.isObject(rj, rp)) continue;
        Recipe recipe;
        if (auto v = r.integer(rj, rp, "every_turns", false)) {
          if (*v < 1) r.error(joinPath(rp, "every_turns"), "must be >= 1");
          if (*v > kMaxEveryTurns) {
            r.error(joinPath(rp, "every_turns"), "must be at most " +
                                                     std::to_string(kMaxEveryTurns) + " (got " +
                                                     std::to_string(*v) + ")");
          }
          recipe.every_turns = static_cast<uint32_t>(std::clamp<int64_t>(*v, 1, kMaxEveryTurns));
        }
        if (rj.contains("consumes")) readAmounts(rj["consumes"], joinPath(rp, "consumes"), r, items_, recipe.consumes);
        if (!rj.contains("produces")) {
          r.error(joinPath(rp, "produces"), "missing required key");
        } else {
          readAmounts(rj["produces"], joinPath(rp, "produces"), r, items_, recipe.produces);
        }
        for (const ItemAmount& c : recipe.consumes) {
          if (!seen_in.insert(c.item).second || seen_out.count(c.item)) {
            r.error(rp, "\"" + items_.name(c.item) + "\" is used by another recipe of this action");
          }
        }
        for (const ItemAmount& p : recipe.produces) {
          if (!seen_out.insert(p.item).second || seen_in.count(p.item)) {
            r.error(rp, "\"" + items_.name(p.item) + "\" is used by another recipe of this action");
          }
        }
        def.recipes.push_back(std::move(recipe));
      }
    }
    defs_.push_back(std::move(def));
  }
}

bool LongActionLibrary::loadFile(const std::string& path, std::vector<std::string>& errors) {
  JsonReader reader(path);
  json j;
  if (reader.parseFile(j)) loadObject(j, reader);
  errors.insert(errors.end(), reader.errors().begin(), reader.errors().end());
  return reader.ok();
}

uint16_t LongActionLibrary::find(const std::string& name) const {
  for (size_t i = 0; i < defs_.size(); ++i) {
    if (defs_[i].name == name) return static_cast<uint16_t>(i);
  }
  return LongActionRun::kNone;
}

LongActionRun LongActionLibrary::start(uint16_t action, double now_s) {
  LongActionRun run;
  run.action = action;
  run.started_s = now_s;
  return run;
}

uint64_t LongActionLibrary::turnsBy(const LongActionRun& run, double now_s) const {
  if (!run.running() || now_s <= run.started_s) return 0;
  // The epsilon keeps an exact multiple of turn_s from losing a turn to rounding.
  return static_cast<uint64_t>(std::floor((now_s - run.started_s) / defs_[run.action].turn_s + 1e-9));
}

void LongActionLibrary::settle(LongActionRun& run, double now_s, Inventory& inventory,
                               Settlement* out) const {
  if (!run.running()) return;
  const LongActionDef& def = defs_[run.action];
  const uint64_t from = run.turns_done, to = std::max(from, turnsBy(run, now_s));
  const uint64_t turns = to - from;
  if (turns == 0) return;
  for (const Recipe& recipe : def.recipes) {
    const auto firings = static_cast<int64_t>(to / recipe.every_turns - from / recipe.every_turns);
    runOnce(recipe, def, std::min(firings, runnableTimes(recipe, def, inventory)), inventory, out);
  }
  run.turns_done = static_cast<uint32_t>(to);
  if (out) out->turns += turns;
}

bool LongActionLibrary::adopt(LongActionRun& run, Inventory& inventory,
                              const LongActionLibrary& before, double now_s,
                              Settlement* settled) const {
  if (!run.running()) return true;
  const LongActionDef& was = before.at(run.action);
  const uint16_t index = find(was.name);
  if (index == LongActionRun::kNone) return false;
  const LongActionDef& is = defs_[index];
  if (!(is == was)) {
    before.settle(run, now_s, inventory, settled);
    const double in_turn = std::max(0.0, now_s - run.started_s - run.turns_done * was.turn_s);
    run.started_s = now_s - in_turn - run.turns_done * is.turn_s;
  }
  run.action = index;
  return true;
}

void LongActionLibrary::settleTurnByTurn(LongActionRun& run, double now_s,
                                         Inventory& inventory) const {
  if (!run.running()) return;
  const LongActionDef& def = defs_[run.action];
  const uint64_t to = turnsBy(run, now_s);
  while (run.turns_done < to) {
    ++run.turns_done;
    for (const Recipe& recipe : def.recipes) {
      if (run.turns_done % recipe.every_turns == 0 && canRun(recipe, def, inventory)) {
        runOnce(recipe, def, 1, inventory, nullptr);
      }
    }
  }
}

std::string LongActionLibrary::describe(const Settlement& s) const {
  std::string out;
  for (const ItemAmount& a : s.produced) {
    if (!out.empty()) out += ", ";
    out += (a.amount > 0 ? "+" : "") + std::to_string(a.amount) + " " + items_.name(a.item);
  }
  return out.empty() ? "nothing" : out;
}

}  // namespace npc
