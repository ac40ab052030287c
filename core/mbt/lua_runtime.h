// MbtLuaRuntime: the Lua 5.4 state behind ExecuteLua, AssertLua, LuaGate and LuaWrapper.
//
// One state per library. Code is compiled once when its tree loads (a syntax error is a
// located load error) into a function taking the agent's environment; each call runs it
// with that environment, so agents never see each other's globals.
//
// Sandbox. Scripts see only: assert error ipairs next pairs pcall select tonumber tostring
// type xpcall rawequal rawget rawlen setmetatable getmetatable print _VERSION, the string
// (without dump), table, math and utf8 libraries, and `AI` — all read-only tables shared
// by every agent. No io, os, require/package, debug, load/dofile/loadfile, collectgarbage,
// coroutine or rawset: scripts cannot touch files, processes or the network. math.random
// draws from the agent's own seeded stream (math.randomseed is absent) and pairs() visits
// keys sorted (booleans, numbers, strings; Lua's own order changes with every process's
// hash seed): deterministic.
// A call may execute at most `instruction_limit` VM instructions and the whole state may
// hold at most `memory_limit_bytes`; beyond either the script fails with an error.
// Its heap comes from a bucket allocator of its own.
//
// Threads. Trees tick on the tick's pool (core/sim/behavior_phase.h), so scripts of
// different agents may be run by different threads; run() takes the state's lock, so one
// runs at a time, in an order that depends on the threads. Nothing a script can see
// depends on that order: agents' environments are apart, the shared tables are frozen,
// and setmetatable refuses __gc and __mode, whose effects would follow the collector's
// timing (and so every other agent's allocations). What does: the memory limit is the
// whole state's, so when it is reached, which script fails first depends on the order.
// Everything else (compile, release, saveEnv, the prelude) runs on the tick thread alone,
// outside the pool's run.
//
// The agent's API (each agent has its own `entity` table; fields scripts set on it stay
// per agent, and like its own globals they go into snapshots: saveEnv(), lua_saved.h):
//   entity.id, entity.name
//   entity:GetPos() / entity:GetDirection() / entity:GetHome() → {x=, y=, z=}
//   entity:HasTarget() → bool;  entity:GetTargetPos() → {x,y,z} or nil
//   entity:GetTargetDistance() → metres to the attention target (math.huge without one)
//   entity:GetTargetId() → integer or nil
//   entity:CanReachTarget([max_m]) → bool, walk length in metres (nil when not reachable):
//     can the agent walk to its attention target (within max_m metres of walk)? The host
//     answers (MbtHost::walkTo): on the world's navmesh when there is one, else along the
//     straight line (always reachable). false, nil without an attention target.
//   entity:GetVariable(name) → bool;  entity:SetVariable(name, bool)   (tree variables)
//   entity:TimeSince(timestamp) → seconds, or nil when not set
//   entity:Signal(name [, "Group"|"GroupExcludingSender"])   (sends a signal)
//   entity:Log(text)   print(...) also logs
//   AI.GetGroupOf(id) → the agent's group key;  AI.GetGroupScopeUserCount(id, scope)
//   AI.SetRefPointPosition(id, {x,y,z});  AI.GetRefPointPosition(id) → {x,y,z} or nil
//   AI.SetBehaviorVariable(id, name, bool)   (the agent's selection tree variable; an
//     unknown name is an error)
//   signal (in <OnSignal> code only): the signal being handled, {name=, sender=, subject=,
//     position={x,y,z}, distance= (metres from the agent, nil when unknown), value=,
//     action= (the action concerned, e.g. OnExternalAction's, nil when none)};
//     sender and subject are entity ids, nil when none
// (`id` must be the agent's own entity.id.) A game extends this with a prelude: trusted
// code run once whose globals every script can read (frozen); a global `EntityPrototype`
// table supplies further entity methods/fields (e.g. CryEngine's entity.actor).
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "mbt/lua_saved.h"

struct lua_State;
struct lua_Debug;

namespace npc {

class BucketAllocator;
class MbtGroupScopes;
class MbtNode;
class SignalNames;
struct MbtContext;

class MbtLuaRuntime {
 public:
  enum class Outcome : uint8_t { kTrue, kFalse, kError };

  MbtLuaRuntime(BucketAllocator& allocator, MbtGroupScopes& scopes, SignalNames& signals,
                size_t memory_limit_bytes, uint32_t instruction_limit);
  MbtLuaRuntime(const MbtLuaRuntime&) = delete;
  MbtLuaRuntime& operator=(const MbtLuaRuntime&) = delete;
  ~MbtLuaRuntime();

  // Runs trusted set-up code; its globals join what scripts see (frozen). Call before
  // agents run Lua. False with `error` set when it does not compile or fails.
  bool setPrelude(std::string_view code, std::string_view chunk_name, std::string& error);

  // Compiles `code` written at file:line; error messages read "file:line: ...".
  std::optional<int> compile(std::string_view code, std::string_view file, uint32_t line,
                             std::string& error);
  void release(int chunk);
  void releaseEnv(int env);

  // Runs a chunk for ctx's agent (its environment is created on first use); the
  // truthiness of the first result. kError: ctx.workspace.lua_error says why. Callable from
  // any worker of the tick's pool: one call runs at a time (the state is locked for it).
  Outcome run(int chunk, MbtContext& ctx, const MbtNode& node);

  // Snapshots: what the agent environment `env` holds of its scripts' own (the globals they
  // set, the fields they set on `entity`) as plain values (lua_saved.h). Runs no script
  // and no metamethod.
  void saveEnv(int env, LuaEnvImage& out);

  size_t bytesInUse() const { return bytes_; }
  size_t chunkCount() const { return chunks_; }

 private:
  static void* allocate(void* ud, void* block, size_t old_size, size_t new_size);
  static void countHook(lua_State* L, ::lua_Debug* ar);
  void buildSandbox();
  int newEnv(MbtContext& ctx);
  void loadEnv(int env, const LuaEnvImage& image);  // may raise: inside a protected call
  void pushSignal(const struct MbtEvent& event);  // the `signal` table handlers read
  void freezeGlobals();

  friend struct MbtLuaApi;

  BucketAllocator& allocator_;
  std::recursive_mutex mutex_;  // run(); recursive: a script's host call may run another
  MbtGroupScopes& scopes_;
  SignalNames& signals_;
  lua_State* L_ = nullptr;
  size_t bytes_ = 0;
  size_t memory_limit_;
  uint32_t instruction_limit_;
  uint32_t instructions_ = 0;   // of the running call, in hook steps
  size_t chunks_ = 0;
  int globals_ = -2;            // shared table scripts read (base + AI + prelude)
  int env_meta_ = -2;           // metatable of every agent environment
  int entity_meta_ = -2;        // metatable of every entity table
  int freeze_ = -2;             // the freezing function (trusted Lua)
  MbtContext* ctx_ = nullptr;   // the call in progress
  const MbtNode* node_ = nullptr;
};

}  // namespace npc
