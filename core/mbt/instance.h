// MbtInstance: one agent's run of a behavior tree (CryEngine's BehaviorTreeInstance).
//
// Holds only what differs per agent: the tree's variables (a 128-bit set), its timestamps,
// the RefPoint / Cover registers QueryTPS writes, a seeded random stream, and the runtime
// data of the nodes the agent is currently in, reached through a slot table sized by the
// tree (the most nodes that can run at once). Runtime data is created on entering a node
// and freed on leaving it, from the library's bucket allocator. A short log history and
// the agent's Lua environment are created on first use.
//
// Per tick, for each agent (tick thread only; the host must speak for this agent):
//   for each signal the agent received:  instance.handleEvent(signal, host);
//   instance.tick(host);
// handleEvent applies the tree's signal variables, then timestamps, then sends the event
// from the root down the running nodes (WaitForEvent, StateMachine transitions). tick()
// ticks the root; if it succeeds or fails, the finish is logged with the nodes that just
// finished and the tree starts again on the next tick (or stops; MbtRootFinish).
// Neither call allocates in steady state (Lua may, inside its own bucket-backed heap).
//
// When the agent leaves the behavior, call terminate(host): running actions are cancelled
// and group scopes released. Destroying a bound instance terminates it without a host
// (actions are then not cancelled).
//
// Reload: an instance bound to a tree that a reload replaced moves to the new version on
// its next handleEvent/tick: running nodes are terminated with the old tree, variables and
// timestamps are kept by name, and the new tree starts. A tree that no longer exists
// unbinds the instance. An unchanged file keeps its tree object: nothing happens.
//
// Movable (embed it in the agent's row), not copyable. The library must outlive it.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/rng.h"
#include "bst/bst_types.h"
#include "mbt/host.h"
#include "mbt/lua_saved.h"
#include "mbt/mbt_types.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

class BucketAllocator;
class MbtLibrary;
class MbtNode;
class MbtTree;
struct MbtContext;

struct MbtTimestamp {
  double time_s = 0.0;
  bool valid = false;     // set and not invalidated by an exclusive timestamp
  bool ever_set = false;  // kept when invalidated: orNeverBeenSet gates stay closed
};

struct MbtLogEntry {
  double time_s = 0.0;
  uint16_t node = 0xffff;   // 0xffff: the tree itself
  MbtLogKind kind = MbtLogKind::kMessage;
  uint8_t text = 0xff;      // 0xff: the node's own text; else a slot of the dynamic ring
  uint32_t text_seq = 0;    // which message that slot held
};

// Where QueryTPS leaves its result and Move/Shoot to="Cover"|"RefPoint" read it.
enum class MbtRegister : uint8_t { kRefPoint, kCover };

class MbtInstance {
 public:
  MbtInstance();
  MbtInstance(MbtInstance&& other) noexcept;
  MbtInstance& operator=(MbtInstance&& other) noexcept;
  MbtInstance(const MbtInstance&) = delete;
  MbtInstance& operator=(const MbtInstance&) = delete;
  ~MbtInstance();

  bool bound() const { return tree_ != nullptr; }
  const MbtTree* tree() const { return tree_; }
  EntityId agent() const { return agent_; }
  // The root finished and the tree says kStop: tick() does nothing until restart().
  bool stopped() const { return stopped_; }
  void restart() { stopped_ = false; }
  // Snapshot restore, on a freshly bound instance before its first tick: the variables,
  // the timestamps (by index, at most the tree's count) and whether the root had stopped.
  // Running nodes come back with restoreRun() (an exact restore); without it the tree
  // starts again at its root.
  void restoreRuntime(const VariableSet& variables, const MbtTimestamp* stamps, size_t count,
                      bool stopped);

  // Snapshots, for an exact restore: everything of the run beyond variables and timestamps.
  // The running nodes' data is each node's plain RuntimeData as bytes, valid for the same
  // definitions and build (the snapshot's definitions hash and runtime layout say so).
  struct RunImage {
    struct Running {
      uint16_t slot = 0;
      uint16_t node = 0;
      std::string data;  // the node's RuntimeData, byte for byte
    };
    uint64_t rng_state = 0;
    Vec3 registers[2];
    uint8_t registers_set = 0;
    bool changed = false;
    bool changed_before_tick = false;
    uint32_t root_finishes = 0;
    std::vector<Running> running;  // by slot
  };
  void captureRun(RunImage& out) const;
  // captureRun() without the running nodes (out.running is left as it is): a snapshot
  // copies their data itself through slotOwner()/slotData(), into storage it reuses.
  void captureRunScalars(RunImage& out) const;
  static constexpr uint16_t kFreeSlot = 0xffff;  // slotOwner() of a slot nothing runs in
  // On a freshly bound instance (after restoreRuntime): puts the running nodes back with
  // their data, and the stream and registers. False (nothing changed) when the image does
  // not fit this tree: a node index, slot or data size it does not have.
  bool restoreRun(const RunImage& image);
  // What its scripts keep of their own (globals, fields on `entity`), for a snapshot; false
  // (out empty) when they keep nothing. A restored image not yet given to a script counts.
  bool saveLua(LuaEnvImage& out) const;
  // Restore: scripts find `image` when they next run (the environment is made on first use).
  void setRestoredLua(std::optional<LuaEnvImage> image);
  const LuaEnvImage* restoredLua() const;

  // --- per tick -------------------------------------------------------------------------
  void handleEvent(SignalId event, MbtHost& host);
  // The same, with the data the signal carries (read by <OnSignal> handlers).
  void handleEvent(const MbtEvent& event, MbtHost& host);
  // Root status: kRunning normally; kSuccess/kFailure on the tick the root finished (or
  // kFailure when unbound / stopped).
  MbtStatus tick(MbtHost& host);
  // The same on worker `worker` of the tick's pool (MbtLibrary::workspace): node data comes
  // from that worker's allocator. Only for an instance that !needsTickThread(), with a host
  // whose calls are safe on that worker; agents of one group (MbtAgentView::group) must
  // tick on one worker at a time, in a fixed order (their group scopes are shared).
  MbtStatus tick(MbtHost& host, unsigned worker);
  // Its next tick must run on the tick thread: its tree has nodes that need it
  // (MbtNode::needsTickThread: planning), or a reload replaced its tree (moving to the new
  // one releases the old one in the library).
  bool needsTickThread() const;
  // Leaves every running node (deepest first): actions cancelled, scopes released.
  void terminate(MbtHost& host);

  // --- variables and timestamps ---------------------------------------------------------
  std::optional<bool> variable(std::string_view name) const;
  // False when the tree does not declare `name`.
  bool setVariable(std::string_view name, bool value);
  bool variable(size_t index) const { return variables_.get(static_cast<unsigned>(index)); }
  void setVariable(size_t index, bool value) {
    changed_ |= variables_.set(static_cast<unsigned>(index), value);
  }
  const VariableSet& variables() const { return variables_; }
  // A variable flipped since the tick before this one began (Priority re-evaluates then).
  bool variablesChanged() const { return changed_before_tick_ || changed_; }

  const MbtTimestamp& timestamp(size_t index) const { return timestamps_[index]; }
  // Sets a timestamp to `now_s` and invalidates its exclusiveTo timestamp.
  void setTimestamp(size_t index, double now_s);
  // Seconds since the timestamp was set; nullopt when not valid.
  std::optional<double> elapsed(size_t index, double now_s) const;

  bool getRegister(MbtRegister reg, Vec3& out) const;
  void setRegister(MbtRegister reg, Vec3 position);

  Rng& rng() { return rng_; }

  // --- memory (debug view, benchmark) ----------------------------------------------------
  // Everything this agent holds: the instance object, its fixed block (timestamps + slot
  // table), the runtime data of running nodes and the log history (not its Lua heap).
  size_t bytesUsed() const;
  size_t runtimeBytes() const { return runtime_bytes_; }
  size_t activeNodes() const { return active_nodes_; }
  int luaEnv() const { return lua_env_; }

  // --- node support (through MbtContext) -------------------------------------------------
  uint16_t slotOwner(uint16_t slot) const { return owners_[slot]; }
  void* slotData(uint16_t slot) const { return data_[slot]; }
  void enterSlot(const MbtNode& node, MbtContext& ctx);
  void leaveSlot(const MbtNode& node, MbtContext& ctx);
  // Dispatches an event synchronously (SendEvent / SendTransitionEvent).
  void dispatchEvent(SignalId event, MbtContext& ctx);
  void setLuaEnv(int env) { lua_env_ = env; }

  // Log history, oldest first (kMbtLogHistory entries at most).
  size_t logCount() const;
  const MbtLogEntry& logEntry(size_t i) const;
  // Text of a dynamic log entry ("" when the ring has moved on, or for node texts).
  std::string_view dynamicText(const MbtLogEntry& entry) const;
  // Appends to the history; `text` (optional) is copied to the dynamic ring. The history's
  // block comes from `allocator` (the ticking thread's) the first time.
  void appendLog(const MbtLogEntry& entry, std::string_view text, BucketAllocator& allocator);
  // The last root-finished message ("" if none).
  std::string_view lastRootFinish() const;
  uint32_t rootFinishes() const { return root_finishes_; }

 private:
  friend class MbtLibrary;
  struct Cold;

  void bindTo(MbtLibrary& library, const MbtTree& tree, EntityId agent, uint64_t seed);
  void unbind(MbtHost* host);
  void migrateIfReloaded(MbtHost& host);
  void applyEvent(SignalId event, MbtContext& ctx);
  void rootFinished(MbtStatus status, MbtContext& ctx, const struct MbtTickTrace& trace);
  void freeBlocks();
  void moveFrom(MbtInstance& other) noexcept;

  MbtLibrary* library_ = nullptr;
  const MbtTree* tree_ = nullptr;
  uint16_t* owners_ = nullptr;      // slot → node index running there (0xffff: free)
  void** data_ = nullptr;           // slot → runtime data (nullptr for data-less nodes)
  MbtTimestamp* timestamps_ = nullptr;
  void* block_ = nullptr;           // one allocation: timestamps, data_, owners_
  MbtLogEntry* history_ = nullptr;  // kMbtLogHistory entries, allocated on first log
  std::unique_ptr<Cold> cold_;      // dynamic log texts, created on first use
  EntityId agent_ = EntityId::kNone;
  Rng rng_;
  VariableSet variables_;
  Vec3 registers_[2];
  uint32_t generation_ = 0;         // library generation last checked
  uint32_t block_bytes_ = 0;
  uint32_t runtime_bytes_ = 0;
  uint32_t log_count_ = 0;          // entries ever appended
  uint32_t root_finishes_ = 0;
  uint16_t active_nodes_ = 0;
  int lua_env_ = -2;                // LUA_NOREF
  uint8_t registers_set_ = 0;       // bit per MbtRegister
  bool changed_ = false;
  bool changed_before_tick_ = false;
  bool stopped_ = false;
};

}  // namespace npc
