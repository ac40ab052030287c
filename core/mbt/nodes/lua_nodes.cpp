// ExecuteLua, AssertLua, LuaGate, LuaWrapper (seed 002 "Lua Scripting", BT-REFERENCE.md
// §2b) and OnSignal (seed 001's behavior signal methods). Code is compiled when the tree
// loads; a Lua error fails the node and is logged with the node's file, line and agent — it
// never reaches the daemon.
#include <charconv>
#include <string>
#include <string_view>

#include "mbt/library.h"
#include "mbt/load_context.h"
#include "mbt/log_router.h"
#include "mbt/lua_runtime.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/workspace.h"
#include "mbt/nodes/standard_nodes.h"
#include "mbt/tree.h"

namespace npc {
namespace {

// A compiled chunk owned by a node; released with the tree.
class LuaChunk {
 public:
  LuaChunk() = default;
  LuaChunk(const LuaChunk&) = delete;
  LuaChunk& operator=(const LuaChunk&) = delete;
  ~LuaChunk() {
    if (lua_ && ref_ >= 0) lua_->release(ref_);
  }
  // Compiles attribute `attribute`; absent and optional → no code (always "true").
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx, std::string_view attribute, bool required) {
    lua_ = &ctx.luaRuntime();
    const std::optional<int> ref = ctx.lua(xml, attribute, required);
    if (!ref) return false;
    ref_ = *ref;
    return true;
  }
  bool empty() const { return ref_ < 0; }
  // Runs it; a Lua error is logged and reads as kError.
  MbtLuaRuntime::Outcome run(MbtContext& ctx, const MbtNode& node) const {
    if (ref_ < 0) return MbtLuaRuntime::Outcome::kTrue;
    const MbtLuaRuntime::Outcome outcome = lua_->run(ref_, ctx, node);
    if (outcome == MbtLuaRuntime::Outcome::kError) {
      MbtErrorReporter(node, ctx).logError("Lua error: ",
                                           withoutOwnLocation(ctx.workspace.lua_error, ctx, node));
    }
    return outcome;
  }

 private:
  // Lua prefixes "file:line: "; when that is the node's own line, it is already said.
  static std::string_view withoutOwnLocation(std::string_view error, const MbtContext& ctx,
                                             const MbtNode& node) {
    const std::string& file = ctx.tree.file();
    if (error.size() <= file.size() + 1 || error.compare(0, file.size(), file) != 0 ||
        error[file.size()] != ':') {
      return error;
    }
    std::string_view rest = error.substr(file.size() + 1);
    uint32_t line = 0;
    const auto parsed = std::from_chars(rest.data(), rest.data() + rest.size(), line);
    if (parsed.ec != std::errc() || line != node.line()) return error;
    rest.remove_prefix(static_cast<size_t>(parsed.ptr - rest.data()));
    if (rest.size() < 2 || rest[0] != ':' || rest[1] != ' ') return error;
    return rest.substr(2);
  }

  MbtLuaRuntime* lua_ = nullptr;
  int ref_ = -1;
};

// ExecuteLua code: runs the code → Success (Failure on a Lua error; CryEngine always
// succeeds). AssertLua code: Success when the code returns a true value, else Failure.
class ExecuteLuaNode : public MbtNode {
 public:
  explicit ExecuteLuaNode(bool assert_result) : assert_(assert_result) {}

  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    return code_.load(xml, ctx, "code", true);
  }

 protected:
  MbtStatus update(MbtContext& ctx) const override {
    const MbtLuaRuntime::Outcome outcome = code_.run(ctx, *this);
    if (outcome == MbtLuaRuntime::Outcome::kError) return MbtStatus::kFailure;
    if (!assert_) return MbtStatus::kSuccess;
    return outcome == MbtLuaRuntime::Outcome::kTrue ? MbtStatus::kSuccess : MbtStatus::kFailure;
  }

 private:
  bool assert_;
  LuaChunk code_;
};

struct GateData {
  bool open = false;
};

// LuaGate code: the code runs once on entry; a true result runs the child (its status),
// false or an error → Failure.
class LuaGateNode : public MbtNodeT<GateData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    bool ok = code_.load(xml, ctx, "code", true);
    ok &= ctx.loadChildren(xml, 1, 1);
    return ok;
  }
  void debugText(const MbtContext& ctx, std::string& out) const override {
    out = data(ctx).open ? "open" : "closed";
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    data(ctx).open = code_.run(ctx, *this) == MbtLuaRuntime::Outcome::kTrue;
  }
  MbtStatus update(MbtContext& ctx) const override {
    return data(ctx).open ? child(0).tick(ctx) : MbtStatus::kFailure;
  }

 private:
  LuaChunk code_;
};

struct WrapperData {
  bool enter_failed = false;
};

// LuaWrapper onEnter onExit: onEnter runs on entry, onExit when the node is left — after
// the child finished or was interrupted. Returns the child's status; an error in onEnter
// fails the node without running the child.
class LuaWrapperNode : public MbtNodeT<WrapperData> {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    bool ok = on_enter_.load(xml, ctx, "onEnter", false);
    ok &= on_exit_.load(xml, ctx, "onExit", false);
    ok &= ctx.loadChildren(xml, 1, 1);
    return ok;
  }

 protected:
  void onInitialize(MbtContext& ctx) const override {
    data(ctx).enter_failed = on_enter_.run(ctx, *this) == MbtLuaRuntime::Outcome::kError;
  }
  MbtStatus update(MbtContext& ctx) const override {
    return data(ctx).enter_failed ? MbtStatus::kFailure : child(0).tick(ctx);
  }
  void onTerminate(MbtContext& ctx) const override { on_exit_.run(ctx, *this); }

 private:
  LuaChunk on_enter_;
  LuaChunk on_exit_;
};

// OnSignal name code: runs the code each time signal `name` reaches the agent while the
// node runs, with the signal's data as `signal` (seed 001's behavior signal methods:
// OnSoundHeard(entity, distance)); Running until left — put it in a Parallel beside the
// behavior's work. A Lua error is logged; the node keeps listening.
class OnSignalNode : public MbtNode {
 public:
  bool load(MbtXmlElement& xml, MbtLoadContext& ctx) override {
    const auto name = xml.name("name", true);
    if (name) signal_ = ctx.signal(*name);
    return code_.load(xml, ctx, "code", true) && name.has_value();
  }

 protected:
  MbtStatus update(MbtContext&) const override { return MbtStatus::kRunning; }
  void handleEvent(MbtContext& ctx, SignalId event) const override {
    if (event == signal_ && ctx.event) code_.run(ctx, *this);
  }

 private:
  SignalId signal_ = SignalId::kNone;
  LuaChunk code_;
};

}  // namespace

void registerMbtLuaNodes(MbtNodeFactory& factory) {
  factory.add("ExecuteLua", [] { return std::make_unique<ExecuteLuaNode>(false); });
  factory.add("AssertLua", [] { return std::make_unique<ExecuteLuaNode>(true); });
  factory.add<LuaGateNode>("LuaGate");
  factory.add<LuaWrapperNode>("LuaWrapper");
  factory.add<OnSignalNode>("OnSignal");
}

}  // namespace npc
