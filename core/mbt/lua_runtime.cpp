// The Lua state, its sandbox and how a chunk runs for one agent. The functions scripts
// call (entity:..., AI...., print, math.random) are in lua_api.cpp.
#include "mbt/lua_runtime.h"

#include <cstring>
#include <initializer_list>
#include <optional>
#include <string_view>

#include <lua.hpp>

#include "mbt/bucket_allocator.h"
#include "mbt/host.h"
#include "mbt/instance.h"
#include "mbt/node.h"
#include "mbt/workspace.h"

namespace npc {

void pushMbtLuaNatives(lua_State* L);  // lua_api.cpp: {print=, random=, AI={...}, entity={...}}

namespace {

constexpr int kHookStep = 1000;  // instructions between two checks of the budget

// Trusted set-up, run once with the real globals. Builds the table scripts read, and
// `freeze`, which wraps a table (deeply) in read-only proxies shared by every agent.
constexpr const char* kSandboxSetup = R"lua(
local natives = ...
local G = _G
string.dump = nil
getmetatable("").__metatable = false
G.dofile, G.loadfile, G.collectgarbage, G.rawset = nil, nil, nil, nil

local cache = setmetatable({}, { __mode = "k" })
local function freeze(t)
  if type(t) ~= "table" then return t end
  local proxy = cache[t]
  if proxy then return proxy end
  proxy = {}
  cache[t] = proxy
  local function wrap(v) if type(v) == "table" then return freeze(v) end return v end
  setmetatable(proxy, {
    __index = function(_, k) return wrap(t[k]) end,
    __newindex = function() error("attempt to modify a read-only table", 2) end,
    __pairs = function()
      return function(_, k)
        local nk, nv = next(t, k)
        return nk, wrap(nv)
      end, proxy, nil
    end,
    __len = function() return #t end,
    __metatable = false,
  })
  return proxy
end

local globals = {}
for _, k in ipairs({ "assert", "error", "ipairs", "next", "pairs", "pcall", "select",
                     "tonumber", "tostring", "type", "xpcall", "rawequal", "rawget", "rawlen",
                     "setmetatable", "getmetatable", "_VERSION" }) do
  globals[k] = G[k]
end
-- No finalizers and no weak tables: when they act follows the collector, and so the
-- allocations of every agent whose scripts ran before, in whatever order threads ran them.
local raw_setmetatable = G.setmetatable
globals.setmetatable = function(t, mt)
  if type(mt) == "table" and (rawget(mt, "__gc") ~= nil or rawget(mt, "__mode") ~= nil) then
    error("setmetatable: __gc and __mode are not available to scripts", 2)
  end
  return raw_setmetatable(t, mt)
end
-- pairs() and next() in key order. Lua's own order follows a string hash seeded anew in
-- every process, so a script looping over a table would decide otherwise in a restored or
-- replayed daemon, or in the next run of the same world. Booleans, then numbers, then
-- strings, each ascending; keys of other types (tables, functions) come last, in Lua's
-- order.
local raw_pairs, raw_next, sort = G.pairs, G.next, table.sort
local rank = { boolean = 1, number = 2, string = 3 }
local function before(a, b)
  local ra, rb = rank[type(a)] or 4, rank[type(b)] or 4
  if ra ~= rb then return ra < rb end
  if ra == 4 then return false end
  if ra == 1 then return b and not a end
  return a < b
end
globals.pairs = function(t)
  local keys, values, n = {}, {}, 0
  for k, v in raw_pairs(t) do
    n = n + 1
    keys[n] = k
    values[k] = v
  end
  sort(keys, before)
  local i = 0
  return function()
    i = i + 1
    local k = keys[i]
    if k ~= nil then return k, values[k] end
  end
end
-- next(t, k): the key after k in that order. A first call scans for the smallest key (so
-- `next(t) == nil` stays cheap); the second sorts the keys once and keeps them for the
-- rest of the traversal (a weak cache: a table's order is dropped with it). Fields set to
-- nil meanwhile are skipped; a key the cache does not know (added since) re-reads the
-- table, as Lua's next would have to.
local orders = setmetatable({}, { __mode = "k" })
local function order(t)
  local keys, n = {}, 0
  for k in raw_next, t do
    n = n + 1
    keys[n] = k
  end
  sort(keys, before)
  local pos = {}
  for i = 1, n do pos[keys[i]] = i end
  local o = { keys = keys, pos = pos }
  orders[t] = o
  return o
end
globals.next = function(t, k)
  if k == nil then
    local first = raw_next(t)
    for key in raw_next, t, first do
      if before(key, first) then first = key end
    end
    if first ~= nil then return first, rawget(t, first) end
    return nil
  end
  local o = orders[t]
  if o == nil or o.pos[k] == nil then o = order(t) end
  local i = o.pos[k]
  if i == nil then error("invalid key to 'next'", 2) end
  for j = i + 1, #o.keys do
    local key = o.keys[j]
    local v = rawget(t, key)
    if v ~= nil then return key, v end
  end
  return nil
end
local m = {}
for k, v in raw_pairs(math) do m[k] = v end
m.random, m.randomseed = natives.random, nil
globals.math, globals.string, globals.table, globals.utf8 = m, string, table, utf8
globals.print = natives.print
globals.AI = natives.AI
G.load = nil
return globals, freeze, natives.entity
)lua";

struct CompileArgs {
  std::string_view source;
  const char* chunk_name;
  int ref = LUA_NOREF;
};

int protectedCompile(lua_State* L) {
  auto* args = static_cast<CompileArgs*>(lua_touserdata(L, 1));
  if (luaL_loadbufferx(L, args->source.data(), args->source.size(), args->chunk_name, "t") !=
      LUA_OK) {
    return lua_error(L);
  }
  args->ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

}  // namespace

MbtLuaRuntime::MbtLuaRuntime(BucketAllocator& allocator, MbtGroupScopes& scopes,
                             SignalNames& signals, size_t memory_limit_bytes,
                             uint32_t instruction_limit)
    : allocator_(allocator),
      scopes_(scopes),
      signals_(signals),
      memory_limit_(memory_limit_bytes),
      instruction_limit_(instruction_limit) {
  L_ = lua_newstate(&MbtLuaRuntime::allocate, this);
  *static_cast<MbtLuaRuntime**>(lua_getextraspace(L_)) = this;
  luaL_requiref(L_, LUA_GNAME, luaopen_base, 1);
  luaL_requiref(L_, LUA_STRLIBNAME, luaopen_string, 1);
  luaL_requiref(L_, LUA_TABLIBNAME, luaopen_table, 1);
  luaL_requiref(L_, LUA_MATHLIBNAME, luaopen_math, 1);
  luaL_requiref(L_, LUA_UTF8LIBNAME, luaopen_utf8, 1);
  lua_settop(L_, 0);
  lua_gc(L_, LUA_GCGEN, 0, 0);
  buildSandbox();
  lua_sethook(L_, &MbtLuaRuntime::countHook, LUA_MASKCOUNT, kHookStep);
}

MbtLuaRuntime::~MbtLuaRuntime() { lua_close(L_); }

void* MbtLuaRuntime::allocate(void* ud, void* block, size_t old_size, size_t new_size) {
  auto* self = static_cast<MbtLuaRuntime*>(ud);
  if (!block) old_size = 0;  // Lua passes the object's type then
  if (new_size == 0) {
    if (block) {
      self->allocator_.deallocate(block, old_size);
      self->bytes_ -= old_size;
    }
    return nullptr;
  }
  if (new_size > old_size && self->bytes_ - old_size + new_size > self->memory_limit_) {
    return nullptr;  // Lua raises "not enough memory" in the script
  }
  constexpr size_t kMax = BucketAllocator::kMaxBucketBytes;
  if (block && old_size <= kMax && new_size <= kMax &&
      BucketAllocator::blockBytes(old_size) == BucketAllocator::blockBytes(new_size)) {
    self->bytes_ = self->bytes_ - old_size + new_size;
    return block;
  }
  void* fresh = self->allocator_.allocate(new_size);
  if (block) {
    std::memcpy(fresh, block, old_size < new_size ? old_size : new_size);
    self->allocator_.deallocate(block, old_size);
  }
  self->bytes_ = self->bytes_ - old_size + new_size;
  return fresh;
}

void MbtLuaRuntime::countHook(lua_State* L, lua_Debug*) {
  auto* self = *static_cast<MbtLuaRuntime**>(lua_getextraspace(L));
  if (++self->instructions_ > self->instruction_limit_ / kHookStep) {
    luaL_error(L, "script exceeded its budget of %d instructions",
               static_cast<int>(self->instruction_limit_));
  }
}

void MbtLuaRuntime::buildSandbox() {
  if (luaL_loadbufferx(L_, kSandboxSetup, std::strlen(kSandboxSetup), "=sandbox", "t") !=
      LUA_OK) {
    lua_error(L_);  // a bug in the set-up code: fail loudly
  }
  pushMbtLuaNatives(L_);
  lua_call(L_, 1, 3);  // globals, freeze, entity methods
  // Entity tables: methods (then EntityPrototype from a prelude), read-only.
  lua_createtable(L_, 0, 2);
  lua_insert(L_, -2);
  lua_setfield(L_, -2, "methods");  // the plain table; frozen by freezeGlobals()
  entity_meta_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  freeze_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  globals_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  lua_createtable(L_, 0, 1);
  env_meta_ = luaL_ref(L_, LUA_REGISTRYINDEX);
  freezeGlobals();
}

// env_meta.__index = freeze(globals); entity_meta.__index = freeze(methods → prototype).
void MbtLuaRuntime::freezeGlobals() {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, env_meta_);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, freeze_);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, globals_);
  lua_call(L_, 1, 1);
  lua_setfield(L_, -2, "__index");
  lua_pushboolean(L_, 0);
  lua_setfield(L_, -2, "__metatable");
  lua_pop(L_, 1);

  lua_rawgeti(L_, LUA_REGISTRYINDEX, entity_meta_);
  lua_getfield(L_, -1, "methods");
  lua_createtable(L_, 0, 1);  // methods' metatable: fall back to the prelude's prototype
  lua_rawgeti(L_, LUA_REGISTRYINDEX, globals_);
  lua_getfield(L_, -1, "EntityPrototype");
  lua_remove(L_, -2);
  lua_setfield(L_, -2, "__index");
  lua_setmetatable(L_, -2);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, freeze_);
  lua_insert(L_, -2);
  lua_call(L_, 1, 1);
  lua_setfield(L_, -2, "__index");
  lua_pushboolean(L_, 0);
  lua_setfield(L_, -2, "__metatable");
  lua_pop(L_, 1);
}

bool MbtLuaRuntime::setPrelude(std::string_view code, std::string_view chunk_name,
                               std::string& error) {
  const std::string name = "=" + std::string(chunk_name);
  CompileArgs args{code, name.c_str()};
  lua_pushcfunction(L_, &protectedCompile);
  lua_pushlightuserdata(L_, &args);
  instructions_ = 0;
  if (lua_pcall(L_, 1, 0, 0) != LUA_OK) {
    error = lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "error";
    lua_pop(L_, 1);
    return false;
  }
  lua_rawgeti(L_, LUA_REGISTRYINDEX, args.ref);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, globals_);
  lua_setupvalue(L_, -2, 1);  // the prelude's _ENV is the shared globals table
  luaL_unref(L_, LUA_REGISTRYINDEX, args.ref);
  const int status = lua_pcall(L_, 0, 0, 0);
  if (status != LUA_OK) {
    error = lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "error";
    lua_pop(L_, 1);
    return false;
  }
  freezeGlobals();
  return true;
}

std::optional<int> MbtLuaRuntime::compile(std::string_view code, std::string_view file,
                                          uint32_t line, std::string& error) {
  // The environment comes in as the chunk's argument, so closures a script makes keep
  // their own agent's environment. Newlines put the code on its XML line, so Lua's own
  // messages read "file.xml:line: ...".
  std::string source = "local _ENV = ...;";
  source.append(line > 1 ? line - 1 : 0, '\n');
  source += code;
  const std::string name = "=" + std::string(file);
  CompileArgs args{source, name.c_str()};
  lua_pushcfunction(L_, &protectedCompile);
  lua_pushlightuserdata(L_, &args);
  if (lua_pcall(L_, 1, 0, 0) != LUA_OK) {
    error = lua_tostring(L_, -1) ? lua_tostring(L_, -1) : "error";
    lua_pop(L_, 1);
    return std::nullopt;
  }
  ++chunks_;
  return args.ref;
}

void MbtLuaRuntime::release(int chunk) {
  if (chunk < 0) return;
  luaL_unref(L_, LUA_REGISTRYINDEX, chunk);
  --chunks_;
}

void MbtLuaRuntime::releaseEnv(int env) {
  if (env >= 0) luaL_unref(L_, LUA_REGISTRYINDEX, env);
}

namespace {

struct RunArgs {
  MbtLuaRuntime* runtime;
  int chunk;
};

}  // namespace

int MbtLuaRuntime::newEnv(MbtContext& ctx) {
  // Called inside a protected call: allocation failures surface as script errors.
  lua_createtable(L_, 0, 1);
  lua_rawgeti(L_, LUA_REGISTRYINDEX, env_meta_);
  lua_setmetatable(L_, -2);
  lua_createtable(L_, 0, 2);
  lua_pushinteger(L_, static_cast<lua_Integer>(raw(ctx.instance.agent())));
  lua_setfield(L_, -2, "id");
  const std::string_view name = ctx.host.agent().name;
  if (!name.empty()) {
    lua_pushlstring(L_, name.data(), name.size());
    lua_setfield(L_, -2, "name");
  }
  lua_rawgeti(L_, LUA_REGISTRYINDEX, entity_meta_);
  lua_setmetatable(L_, -2);
  lua_setfield(L_, -2, "entity");
  return luaL_ref(L_, LUA_REGISTRYINDEX);
}

// The keys the daemon owns: `entity` and `signal` in an environment, `id` and `name` on
// the entity table. Scripts' own values are everything else.
const std::initializer_list<std::string_view> kEnvKeys = {"entity", "signal"};
const std::initializer_list<std::string_view> kEntityKeys = {"id", "name"};

void MbtLuaRuntime::saveEnv(int env, LuaEnvImage& out) {
  out = LuaEnvImage{};
  if (env < 0 || !lua_checkstack(L_, 2)) return;
  lua_rawgeti(L_, LUA_REGISTRYINDEX, env);
  saveLuaTable(L_, -1, kEnvKeys, out.globals, out.left_out);
  lua_pushliteral(L_, "entity");
  if (lua_rawget(L_, -2) == LUA_TTABLE) saveLuaTable(L_, -1, kEntityKeys, out.entity, out.left_out);
  lua_pop(L_, 2);
}

void MbtLuaRuntime::loadEnv(int env, const LuaEnvImage& image) {
  lua_rawgeti(L_, LUA_REGISTRYINDEX, env);
  loadLuaTable(L_, -1, image.globals, kEnvKeys);
  lua_pushliteral(L_, "entity");
  if (lua_rawget(L_, -2) == LUA_TTABLE) loadLuaTable(L_, -1, image.entity, kEntityKeys);
  lua_pop(L_, 2);
}

void MbtLuaRuntime::pushSignal(const MbtEvent& event) {
  lua_createtable(L_, 0, 6);
  const std::string& name = signals_.name(event.id);
  lua_pushlstring(L_, name.data(), name.size());
  lua_setfield(L_, -2, "name");
  auto entity = [&](EntityId id, const char* field) {
    if (id == EntityId::kNone) return;
    lua_pushinteger(L_, static_cast<lua_Integer>(raw(id)));
    lua_setfield(L_, -2, field);
  };
  entity(event.sender, "sender");
  entity(event.subject, "subject");
  lua_createtable(L_, 0, 3);
  lua_pushnumber(L_, event.position.x);
  lua_setfield(L_, -2, "x");
  lua_pushnumber(L_, event.position.y);
  lua_setfield(L_, -2, "y");
  lua_pushnumber(L_, event.position.z);
  lua_setfield(L_, -2, "z");
  lua_setfield(L_, -2, "position");
  if (event.distance_m >= 0.f) {
    lua_pushnumber(L_, event.distance_m);
    lua_setfield(L_, -2, "distance");
  }
  lua_pushnumber(L_, event.value);
  lua_setfield(L_, -2, "value");
  if (!event.action.empty()) {
    lua_pushlstring(L_, event.action.data(), event.action.size());
    lua_setfield(L_, -2, "action");
  }
}

MbtLuaRuntime::Outcome MbtLuaRuntime::run(int chunk, MbtContext& ctx, const MbtNode& node) {
  const std::lock_guard<std::recursive_mutex> lock(mutex_);
  MbtContext* const outer_ctx = ctx_;
  const MbtNode* const outer_node = node_;
  ctx_ = &ctx;
  node_ = &node;
  instructions_ = 0;
  RunArgs args{this, chunk};
  lua_pushcfunction(L_, [](lua_State* L) -> int {
    auto* a = static_cast<RunArgs*>(lua_touserdata(L, 1));
    MbtLuaRuntime& self = *a->runtime;
    MbtInstance& instance = self.ctx_->instance;
    if (instance.luaEnv() < 0) {
      instance.setLuaEnv(self.newEnv(*self.ctx_));
      // A restored agent's scripts find what they had kept (MbtInstance::setRestoredLua).
      if (const LuaEnvImage* restored = instance.restoredLua()) {
        self.loadEnv(instance.luaEnv(), *restored);
        instance.setRestoredLua(std::nullopt);
      }
    }
    lua_rawgeti(L, LUA_REGISTRYINDEX, a->chunk);
    lua_rawgeti(L, LUA_REGISTRYINDEX, instance.luaEnv());
    const MbtEvent* event = self.ctx_->event;
    if (event) {  // handlers read the signal being handled as `signal`
      self.pushSignal(*event);
      lua_setfield(L, -2, "signal");
    }
    lua_call(L, 1, 1);
    if (event) {
      lua_rawgeti(L, LUA_REGISTRYINDEX, instance.luaEnv());
      lua_pushnil(L);
      lua_setfield(L, -2, "signal");
      lua_pop(L, 1);
    }
    return 1;
  });
  lua_pushlightuserdata(L_, &args);
  const int status = lua_pcall(L_, 1, 1, 0);
  Outcome outcome;
  if (status != LUA_OK) {
    const char* message = lua_tostring(L_, -1);
    ctx.workspace.lua_error.assign(message ? message : "error object is not a string");
    outcome = Outcome::kError;
  } else {
    outcome = lua_toboolean(L_, -1) ? Outcome::kTrue : Outcome::kFalse;
  }
  lua_pop(L_, 1);
  ctx_ = outer_ctx;
  node_ = outer_node;
  return outcome;
}

}  // namespace npc
