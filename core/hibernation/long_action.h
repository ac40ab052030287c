// Long actions that settle in one step: Raoul's ContinuousBaking (seed 004, "Long actions
// and hibernation mode of entities"). A long action works in turns of turn_s seconds; every
// `every_turns` turns a recipe consumes inputs and produces outputs, while inputs last and
// until every output has reached its cap. Nothing runs per tick: the result for any elapsed
// time is computed when the action is interrupted (settle), and equals running it turn by
// turn (settleTurnByTurn, the reference the tests compare against).
//
// Data (config/long_actions.json):
//   { "ContinuousBaking": {
//       "turn_s": 10,
//       "recipes": [ { "every_turns": 3, "consumes": { "flour": 2 },
//                      "produces": { "bread": 2, "sandwich": 1 } } ],
//       "caps": { "bread": 200, "sandwich": 100 } } }
// With one recipe every 3 turns, 30 turns bake 20 breads and 10 sandwiches (the seed's
// example). Several recipes run in file order within a turn. Recipes of one action are
// independent — no item is consumed or produced by two of them, and none consumes what
// another produces (checked at load) — which is what makes the one-step settlement exact.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "hibernation/inventory.h"
#include "world/name_table.h"

namespace npc {

class JsonReader;

struct ItemAmount {
  ItemId item{0};
  int32_t amount = 0;

  friend bool operator==(const ItemAmount&, const ItemAmount&) = default;
};

struct Recipe {
  uint32_t every_turns = 1;
  std::vector<ItemAmount> consumes;
  std::vector<ItemAmount> produces;

  friend bool operator==(const Recipe&, const Recipe&) = default;
};

struct LongActionDef {
  std::string name;
  double turn_s = 1.0;
  std::vector<Recipe> recipes;
  std::vector<ItemAmount> caps;  // an output not listed here has no cap

  int32_t capOf(ItemId item) const;
  // Item numbers compare equal only between libraries sharing an item table (a reload
  // starts from the running one's: LongActionLibrary::items()).
  friend bool operator==(const LongActionDef&, const LongActionDef&) = default;
};

// One agent's running long action: what it is and how much time it has not yet settled.
struct LongActionRun {
  static constexpr uint16_t kNone = 0xffff;
  double started_s = 0.0;       // turn k ends at started_s + k × turn_s
  uint32_t turns_done = 0;      // turns settled into the inventory so far
  uint16_t action = kNone;      // index in LongActionLibrary

  bool running() const { return action != kNone; }
};

// What one settlement did.
struct Settlement {
  uint64_t turns = 0;
  std::vector<ItemAmount> produced;  // net change per item (consumption negative)
};

class LongActionLibrary {
 public:
  // Adds every action of a JSON object; errors go to `reader` with JSON paths.
  void loadObject(const nlohmann::json& object, JsonReader& reader);
  bool loadFile(const std::string& path, std::vector<std::string>& errors);

  // Index of `name`, or LongActionRun::kNone.
  uint16_t find(const std::string& name) const;
  const LongActionDef& at(uint16_t index) const { return defs_[index]; }
  size_t size() const { return defs_.size(); }
  NameTable<ItemId>& items() { return items_; }
  const NameTable<ItemId>& items() const { return items_; }

  // Starts `action` at now_s.
  static LongActionRun start(uint16_t action, double now_s);
  // Whole turns of `run` completed by now_s.
  uint64_t turnsBy(const LongActionRun& run, double now_s) const;
  // Settles `run` up to now_s in one step: whole turns elapsed since the last settlement
  // are applied to `inventory`; the partial turn carries over. Allocation-free unless
  // `out` is given (debug/event text).
  void settle(LongActionRun& run, double now_s, Inventory& inventory,
              Settlement* out = nullptr) const;
  // A reload: `run`, an action of `before`, carries on as this library's action of the
  // same name. An unchanged definition just takes the new index. A changed one is settled
  // first, up to now_s under `before`'s rules, into `inventory` (`settled`: what that
  // did); then the turns settled stay settled (its recipes keep their phase) and the turn
  // in progress keeps its elapsed seconds, counted in the new turn_s from here on. False
  // (and `run` untouched) when this library has no action of that name.
  bool adopt(LongActionRun& run, Inventory& inventory, const LongActionLibrary& before,
             double now_s, Settlement* settled = nullptr) const;
  // The same result computed turn by turn (reference for tests; O(turns)).
  void settleTurnByTurn(LongActionRun& run, double now_s, Inventory& inventory) const;
  // "+20 bread, +10 sandwich, -20 flour".
  std::string describe(const Settlement& s) const;

 private:
  std::vector<LongActionDef> defs_;
  NameTable<ItemId> items_;
};

}  // namespace npc
