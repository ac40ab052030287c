// LuaSaved: what a snapshot keeps of an agent's Lua state, as plain values (no lua_State),
// so that the state codec can write it on another thread and a restored agent gets it back.
//
// Scripts keep their own memory in two places: globals they assign (each agent has its own
// environment) and fields they set on its `entity` table. Both are kept when they hold
// booleans, numbers, strings and tables of those; functions, coroutines and userdata
// cannot outlive the process, nor can a table met twice (a cycle or a shared table) or one
// nested deeper than kMaxDepth: they are left out and counted. Fields are kept sorted by
// key, so that two runs that set the same fields write the same bytes (Lua's own table
// order depends on the process's hash seed).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

struct lua_State;

namespace npc {

struct LuaSaved {
  enum class Kind : uint8_t { kBoolean, kInteger, kNumber, kText, kTable };
  static constexpr int kMaxDepth = 16;

  Kind kind = Kind::kTable;
  bool boolean = false;
  int64_t integer = 0;
  double number = 0.0;
  std::string text;
  std::vector<LuaSaved> keys, values;  // kTable: keys[i] -> values[i], keys ascending

  static LuaSaved ofBoolean(bool b);
  static LuaSaved ofInteger(int64_t i);
  static LuaSaved ofNumber(double n);
  static LuaSaved ofText(std::string s);

  bool operator==(const LuaSaved&) const = default;
  // The key order: by kind, then by value.
  static bool keyLess(const LuaSaved& a, const LuaSaved& b);
};

// One agent's Lua state: its own globals and the fields its scripts set on `entity`
// (without the `id` and `name` the daemon puts there).
struct LuaEnvImage {
  LuaSaved globals;
  LuaSaved entity;
  uint32_t left_out = 0;  // values that could not be kept (functions, cycles, ...)

  bool empty() const { return globals.keys.empty() && entity.keys.empty(); }
  bool operator==(const LuaEnvImage&) const = default;
};

// The table at stack index `table` into `out` (a kTable), without running a metamethod:
// its fields whose keys are booleans, numbers or strings, except the string keys in
// `skip`. Values that cannot be kept are left out and counted in `left_out`.
void saveLuaTable(lua_State* L, int table, std::initializer_list<std::string_view> skip,
                  LuaSaved& out, uint32_t& left_out);
// Sets every field of `saved` (a kTable) on the table at stack index `table` (raw sets),
// except the string keys in `skip`. May raise a Lua memory error: call it protected.
void loadLuaTable(lua_State* L, int table, const LuaSaved& saved,
                  std::initializer_list<std::string_view> skip);

}  // namespace npc
