// The functions Lua scripts call: the `entity` methods, `AI`, print and math.random. Each
// works on the agent whose script is running (MbtLuaRuntime::run sets it); see
// lua_runtime.h for the documented API.
#include <cmath>
#include <limits>
#include <string_view>

#include <lua.hpp>

#include "mbt/group_scopes.h"
#include "mbt/host.h"
#include "mbt/instance.h"
#include "mbt/log_router.h"
#include "mbt/lua_runtime.h"
#include "mbt/node.h"
#include "mbt/tree.h"
#include "world/signal_names.h"

namespace npc {

struct MbtLuaApi {
  static MbtLuaRuntime& runtime(lua_State* L) {
    return **static_cast<MbtLuaRuntime**>(lua_getextraspace(L));
  }
  // The call in progress; raises a Lua error outside one (e.g. from a prelude).
  static MbtContext& ctx(lua_State* L) {
    MbtLuaRuntime& r = runtime(L);
    if (!r.ctx_) luaL_error(L, "agent functions work only while a tree node runs");
    return *r.ctx_;
  }
  static const MbtNode* node(lua_State* L) { return runtime(L).node_; }

  static void pushVec(lua_State* L, Vec3 v) {
    lua_createtable(L, 0, 3);
    lua_pushnumber(L, v.x);
    lua_setfield(L, -2, "x");
    lua_pushnumber(L, v.y);
    lua_setfield(L, -2, "y");
    lua_pushnumber(L, v.z);
    lua_setfield(L, -2, "z");
  }
  static Vec3 toVec(lua_State* L, int index) {
    luaL_checktype(L, index, LUA_TTABLE);
    Vec3 v;
    auto component = [&](const char* field, int array_index) {
      lua_getfield(L, index, field);
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_geti(L, index, array_index);
      }
      const auto value = static_cast<float>(luaL_checknumber(L, -1));
      lua_pop(L, 1);
      return value;
    };
    v.x = component("x", 1);
    v.y = component("y", 2);
    v.z = component("z", 3);
    return v;
  }
  static void checkOwnId(lua_State* L, int index) {
    const lua_Integer id = luaL_checkinteger(L, index);
    if (static_cast<uint64_t>(id) != raw(ctx(L).instance.agent())) {
      luaL_error(L, "only the agent's own entity.id is accepted here");
    }
  }

  // --- globals ---------------------------------------------------------------------------
  static int print(lua_State* L) {
    MbtContext& c = ctx(L);
    const int n = lua_gettop(L);
    luaL_Buffer b;
    luaL_buffinit(L, &b);
    for (int i = 1; i <= n; ++i) {
      if (i > 1) luaL_addchar(&b, '\t');
      luaL_tolstring(L, i, nullptr);
      luaL_addvalue(&b);
    }
    luaL_pushresult(&b);
    size_t length = 0;
    const char* text = lua_tolstring(L, -1, &length);
    MbtLogRouter::message(c, node(L), MbtLogKind::kMessage, std::string_view(text, length));
    return 0;
  }
  static int random(lua_State* L) {
    Rng& rng = ctx(L).instance.rng();
    const int n = lua_gettop(L);
    if (n == 0) {
      lua_pushnumber(L, rng.uniform());
      return 1;
    }
    lua_Integer low = 1;
    lua_Integer high = luaL_checkinteger(L, 1);
    if (n >= 2) {
      low = high;
      high = luaL_checkinteger(L, 2);
    }
    luaL_argcheck(L, low <= high, n, "interval is empty");
    const auto span = static_cast<uint64_t>(high - low) + 1u;
    lua_pushinteger(L, low + static_cast<lua_Integer>(span == 0 ? rng.next() : rng.next() % span));
    return 1;
  }

  // --- entity ------------------------------------------------------------------------------
  static int getPos(lua_State* L) {
    pushVec(L, ctx(L).host.agent().position);
    return 1;
  }
  static int getDirection(lua_State* L) {
    pushVec(L, ctx(L).host.agent().forward);
    return 1;
  }
  static int getHome(lua_State* L) {
    pushVec(L, ctx(L).host.agent().home);
    return 1;
  }
  static int hasTarget(lua_State* L) {
    lua_pushboolean(L, ctx(L).host.agent().target_class != MbtTargetClass::kNone);
    return 1;
  }
  static int getTargetPos(lua_State* L) {
    const MbtAgentView& a = ctx(L).host.agent();
    if (a.target_class == MbtTargetClass::kNone) {
      lua_pushnil(L);
    } else {
      pushVec(L, a.target_position);
    }
    return 1;
  }
  static int getTargetDistance(lua_State* L) {
    const MbtAgentView& a = ctx(L).host.agent();
    lua_pushnumber(L, a.target_class == MbtTargetClass::kNone
                          ? std::numeric_limits<lua_Number>::infinity()
                          : static_cast<lua_Number>(length(a.target_position - a.position)));
    return 1;
  }
  // entity:CanReachTarget([max_m]): can the agent walk to its attention target (within
  // max_m metres of walk)? Second result: the walk's length, nil when not reachable.
  static int canReachTarget(lua_State* L) {
    const lua_Number max_m = luaL_optnumber(L, 2, std::numeric_limits<lua_Number>::infinity());
    MbtHost& host = ctx(L).host;
    const MbtAgentView& a = host.agent();
    const MbtWalk walk = a.target_class == MbtTargetClass::kNone ? MbtWalk{false, 0.f}
                                                                 : host.walkTo(a.target_position);
    const bool ok = walk.reachable && walk.length_m <= max_m;
    lua_pushboolean(L, ok);
    if (walk.reachable) {
      lua_pushnumber(L, static_cast<lua_Number>(walk.length_m));
    } else {
      lua_pushnil(L);
    }
    return 2;
  }
  static int getTargetId(lua_State* L) {
    const MbtAgentView& a = ctx(L).host.agent();
    if (a.target == EntityId::kNone) {
      lua_pushnil(L);
    } else {
      lua_pushinteger(L, static_cast<lua_Integer>(raw(a.target)));
    }
    return 1;
  }
  static int variableIndex(lua_State* L, MbtContext& c, int arg) {
    size_t length = 0;
    const char* name = luaL_checklstring(L, arg, &length);
    const int index = c.tree.variableIndex(std::string_view(name, length));
    if (index < 0) luaL_error(L, "tree \"%s\" declares no variable \"%s\"", c.tree.name().c_str(), name);
    return index;
  }
  static int getVariable(lua_State* L) {
    MbtContext& c = ctx(L);
    lua_pushboolean(L, c.instance.variable(static_cast<size_t>(variableIndex(L, c, 2))));
    return 1;
  }
  static int setVariable(lua_State* L) {
    MbtContext& c = ctx(L);
    const int index = variableIndex(L, c, 2);
    c.instance.setVariable(static_cast<size_t>(index), lua_toboolean(L, 3) != 0);
    return 0;
  }
  static int timeSince(lua_State* L) {
    MbtContext& c = ctx(L);
    size_t length = 0;
    const char* name = luaL_checklstring(L, 2, &length);
    const int index = c.tree.timestampIndex(std::string_view(name, length));
    if (index < 0) luaL_error(L, "tree \"%s\" declares no timestamp \"%s\"", c.tree.name().c_str(), name);
    const std::optional<double> elapsed = c.instance.elapsed(static_cast<size_t>(index), c.now_s);
    if (elapsed) {
      lua_pushnumber(L, *elapsed);
    } else {
      lua_pushnil(L);
    }
    return 1;
  }
  static int signal(lua_State* L) {
    MbtContext& c = ctx(L);
    size_t length = 0;
    const char* name = luaL_checklstring(L, 2, &length);
    static const char* const kScopes[] = {"Sender", "Group", "GroupExcludingSender", nullptr};
    const int scope = luaL_checkoption(L, 3, "Sender", kScopes);
    const SignalId id = runtime(L).signals_.intern(std::string_view(name, length));
    if (id == SignalId::kNone) luaL_error(L, "signal name is empty or the table is full");
    c.host.sendSignal(id, static_cast<MbtSignalScope>(scope));
    return 0;
  }
  static int log(lua_State* L) {
    MbtContext& c = ctx(L);
    size_t length = 0;
    const char* text = luaL_checklstring(L, 2, &length);
    MbtLogRouter::message(c, node(L), MbtLogKind::kMessage, std::string_view(text, length));
    return 0;
  }

  // --- AI ----------------------------------------------------------------------------------
  static int getGroupOf(lua_State* L) {
    checkOwnId(L, 1);
    lua_pushinteger(L, static_cast<lua_Integer>(ctx(L).host.agent().group));
    return 1;
  }
  static int getGroupScopeUserCount(lua_State* L) {
    checkOwnId(L, 1);
    size_t length = 0;
    const char* name = luaL_checklstring(L, 2, &length);
    MbtGroupScopes& scopes = runtime(L).scopes_;
    const GroupScopeId scope = scopes.find(std::string_view(name, length));
    const uint64_t group = ctx(L).host.agent().group;
    lua_pushinteger(L, scope == GroupScopeId::kNone ? 0 : scopes.users(scope, group));
    return 1;
  }
  static int setRefPointPosition(lua_State* L) {
    checkOwnId(L, 1);
    ctx(L).instance.setRegister(MbtRegister::kRefPoint, toVec(L, 2));
    return 0;
  }
  static int setBehaviorVariable(lua_State* L) {
    checkOwnId(L, 1);
    size_t length = 0;
    const char* name = luaL_checklstring(L, 2, &length);
    luaL_checkany(L, 3);
    if (!ctx(L).host.setSelectionVariable(std::string_view(name, length), lua_toboolean(L, 3) != 0)) {
      luaL_error(L, "the agent's selection tree declares no variable \"%s\"", name);
    }
    return 0;
  }
  static int getRefPointPosition(lua_State* L) {
    checkOwnId(L, 1);
    Vec3 p;
    if (ctx(L).instance.getRegister(MbtRegister::kRefPoint, p)) {
      pushVec(L, p);
    } else {
      lua_pushnil(L);
    }
    return 1;
  }
};

// Pushes {print=, random=, AI={...}, entity={...}} for the sandbox set-up.
void pushMbtLuaNatives(lua_State* L) {
  lua_createtable(L, 0, 4);
  lua_pushcfunction(L, &MbtLuaApi::print);
  lua_setfield(L, -2, "print");
  lua_pushcfunction(L, &MbtLuaApi::random);
  lua_setfield(L, -2, "random");

  static const luaL_Reg kAi[] = {
      {"GetGroupOf", &MbtLuaApi::getGroupOf},
      {"GetGroupScopeUserCount", &MbtLuaApi::getGroupScopeUserCount},
      {"SetRefPointPosition", &MbtLuaApi::setRefPointPosition},
      {"GetRefPointPosition", &MbtLuaApi::getRefPointPosition},
      {"SetBehaviorVariable", &MbtLuaApi::setBehaviorVariable},
      {nullptr, nullptr}};
  luaL_newlib(L, kAi);
  lua_setfield(L, -2, "AI");

  static const luaL_Reg kEntity[] = {
      {"GetPos", &MbtLuaApi::getPos},
      {"GetDirection", &MbtLuaApi::getDirection},
      {"GetHome", &MbtLuaApi::getHome},
      {"HasTarget", &MbtLuaApi::hasTarget},
      {"GetTargetPos", &MbtLuaApi::getTargetPos},
      {"GetTargetDistance", &MbtLuaApi::getTargetDistance},
      {"GetTargetId", &MbtLuaApi::getTargetId},
      {"CanReachTarget", &MbtLuaApi::canReachTarget},
      {"GetVariable", &MbtLuaApi::getVariable},
      {"SetVariable", &MbtLuaApi::setVariable},
      {"TimeSince", &MbtLuaApi::timeSince},
      {"Signal", &MbtLuaApi::signal},
      {"Log", &MbtLuaApi::log},
      {nullptr, nullptr}};
  luaL_newlib(L, kEntity);
  lua_setfield(L, -2, "entity");
}

}  // namespace npc
