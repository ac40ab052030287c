#include "mbt/lua_saved.h"

#include <algorithm>
#include <numeric>
#include <utility>

#include <lua.hpp>

namespace npc {

LuaSaved LuaSaved::ofBoolean(bool b) {
  LuaSaved v;
  v.kind = Kind::kBoolean;
  v.boolean = b;
  return v;
}

LuaSaved LuaSaved::ofInteger(int64_t i) {
  LuaSaved v;
  v.kind = Kind::kInteger;
  v.integer = i;
  return v;
}

LuaSaved LuaSaved::ofNumber(double n) {
  LuaSaved v;
  v.kind = Kind::kNumber;
  v.number = n;
  return v;
}

LuaSaved LuaSaved::ofText(std::string s) {
  LuaSaved v;
  v.kind = Kind::kText;
  v.text = std::move(s);
  return v;
}

bool LuaSaved::keyLess(const LuaSaved& a, const LuaSaved& b) {
  if (a.kind != b.kind) return a.kind < b.kind;
  switch (a.kind) {
    case Kind::kBoolean: return a.boolean < b.boolean;
    case Kind::kInteger: return a.integer < b.integer;
    case Kind::kNumber: return a.number < b.number;  // keys are never NaN (Lua refuses them)
    case Kind::kText: return a.text < b.text;
    case Kind::kTable: return false;  // tables are never keys here
  }
  return false;
}

namespace {

bool skipped(const LuaSaved& key, std::initializer_list<std::string_view> skip) {
  return key.kind == LuaSaved::Kind::kText &&
         std::find(skip.begin(), skip.end(), key.text) != skip.end();
}

// A key Lua allows and a snapshot can keep: a boolean, a number or a string.
bool saveKey(lua_State* L, int at, LuaSaved& out) {
  switch (lua_type(L, at)) {
    case LUA_TBOOLEAN: out = LuaSaved::ofBoolean(lua_toboolean(L, at) != 0); return true;
    case LUA_TNUMBER:
      out = lua_isinteger(L, at) ? LuaSaved::ofInteger(lua_tointeger(L, at))
                                 : LuaSaved::ofNumber(lua_tonumber(L, at));
      return true;
    case LUA_TSTRING: {
      size_t size = 0;
      const char* text = lua_tolstring(L, at, &size);  // a string already: next() is safe
      out = LuaSaved::ofText(std::string(text, size));
      return true;
    }
    default: return false;
  }
}

// Tables met on the way down (a table met twice is a cycle or shared: not kept). The
// root apart, so that saving an agent whose tables are flat allocates nothing here.
struct Seen {
  const void* root = nullptr;
  std::vector<const void*> nested;

  // False when `table` was met before; otherwise notes it.
  bool first(const void* table) {
    if (table == root || std::find(nested.begin(), nested.end(), table) != nested.end()) {
      return false;
    }
    nested.push_back(table);
    return true;
  }
};

bool saveValue(lua_State* L, int at, int depth, Seen& seen, LuaSaved& out, uint32_t& left_out);

void saveFields(lua_State* L, int table, int depth, Seen& seen,
                std::initializer_list<std::string_view> skip, LuaSaved& out, uint32_t& left_out) {
  out = LuaSaved{};
  if (!lua_checkstack(L, 3)) {
    ++left_out;
    return;
  }
  lua_pushnil(L);
  while (lua_next(L, table) != 0) {  // key at -2, value at -1
    LuaSaved key, value;
    if (!saveKey(L, -2, key)) {
      ++left_out;
    } else if (!skipped(key, skip)) {
      if (saveValue(L, lua_absindex(L, -1), depth, seen, value, left_out)) {
        out.keys.push_back(std::move(key));
        out.values.push_back(std::move(value));
      } else {
        ++left_out;
      }
    }
    lua_pop(L, 1);
  }
  if (out.keys.size() < 2) return;
  // Sorted by key: Lua's own order depends on the process's hash seed.
  std::vector<size_t> order(out.keys.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return LuaSaved::keyLess(out.keys[a], out.keys[b]); });
  LuaSaved sorted;
  for (size_t i : order) {
    sorted.keys.push_back(std::move(out.keys[i]));
    sorted.values.push_back(std::move(out.values[i]));
  }
  out = std::move(sorted);
}

bool saveValue(lua_State* L, int at, int depth, Seen& seen, LuaSaved& out, uint32_t& left_out) {
  if (lua_type(L, at) != LUA_TTABLE) return saveKey(L, at, out);
  // A table with a metatable (a frozen library table, an object) would come back as
  // something else without it.
  if (depth >= LuaSaved::kMaxDepth || lua_getmetatable(L, at) != 0) {
    if (depth < LuaSaved::kMaxDepth) lua_pop(L, 1);
    return false;
  }
  if (!seen.first(lua_topointer(L, at))) return false;
  saveFields(L, at, depth + 1, seen, {}, out, left_out);
  return true;
}

bool usableKey(const LuaSaved& key) {
  return key.kind != LuaSaved::Kind::kTable &&
         !(key.kind == LuaSaved::Kind::kNumber && key.number != key.number);  // NaN
}

void loadFields(lua_State* L, int table, const LuaSaved& saved,
                std::initializer_list<std::string_view> skip, int depth);

void pushSaved(lua_State* L, const LuaSaved& v, int depth) {
  luaL_checkstack(L, 3, "restoring a script's table");
  switch (v.kind) {
    case LuaSaved::Kind::kBoolean: lua_pushboolean(L, v.boolean); return;
    case LuaSaved::Kind::kInteger: lua_pushinteger(L, static_cast<lua_Integer>(v.integer)); return;
    case LuaSaved::Kind::kNumber: lua_pushnumber(L, v.number); return;
    case LuaSaved::Kind::kText: lua_pushlstring(L, v.text.data(), v.text.size()); return;
    case LuaSaved::Kind::kTable: break;
  }
  lua_createtable(L, 0, static_cast<int>(std::min<size_t>(v.keys.size(), 1024)));
  // The codec refuses deeper tables; stay bounded whatever the caller built.
  if (depth < LuaSaved::kMaxDepth) loadFields(L, lua_gettop(L), v, {}, depth + 1);
}

void loadFields(lua_State* L, int table, const LuaSaved& saved,
                std::initializer_list<std::string_view> skip, int depth) {
  const size_t n = std::min(saved.keys.size(), saved.values.size());
  for (size_t i = 0; i < n; ++i) {
    const LuaSaved& key = saved.keys[i];
    if (!usableKey(key) || skipped(key, skip)) continue;
    pushSaved(L, key, depth);
    pushSaved(L, saved.values[i], depth);
    lua_rawset(L, table);
  }
}

}  // namespace

void saveLuaTable(lua_State* L, int table, std::initializer_list<std::string_view> skip,
                  LuaSaved& out, uint32_t& left_out) {
  Seen seen;
  seen.root = lua_topointer(L, table);
  saveFields(L, lua_absindex(L, table), 0, seen, skip, out, left_out);
}

void loadLuaTable(lua_State* L, int table, const LuaSaved& saved,
                  std::initializer_list<std::string_view> skip) {
  loadFields(L, lua_absindex(L, table), saved, skip, 0);
}

}  // namespace npc
