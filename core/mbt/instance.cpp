#include "mbt/instance.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <charconv>
#include <cstring>
#include <utility>
#include <vector>

#include "mbt/library.h"
#include "mbt/log_router.h"
#include "mbt/lua_runtime.h"
#include "mbt/node.h"
#include "mbt/tree.h"

namespace npc {
namespace {

constexpr size_t kDynamicTexts = 4;
constexpr size_t kHistoryBytes = kMbtLogHistory * sizeof(MbtLogEntry);

size_t blockBytesFor(const MbtTree& tree) {
  return tree.timestamps().size() * sizeof(MbtTimestamp) +
         tree.slotCount() * (sizeof(void*) + sizeof(uint16_t));
}

}  // namespace

// Texts made at run time (errors, prints, root finishes): a ring whose strings keep their
// capacity, so steady-state logging does not allocate.
struct MbtInstance::Cold {
  std::array<std::string, kDynamicTexts> texts;
  std::array<uint32_t, kDynamicTexts> seqs{};
  uint32_t next_seq = 1;
  std::string root_finish;
  std::optional<LuaEnvImage> restored_lua;  // until the scripts' environment is made
};

MbtInstance::MbtInstance() = default;
MbtInstance::MbtInstance(MbtInstance&& other) noexcept { moveFrom(other); }

MbtInstance& MbtInstance::operator=(MbtInstance&& other) noexcept {
  if (this != &other) {
    if (tree_) unbind(nullptr);
    moveFrom(other);
  }
  return *this;
}

MbtInstance::~MbtInstance() {
  if (tree_) unbind(nullptr);
}

void MbtInstance::moveFrom(MbtInstance& other) noexcept {
  library_ = other.library_;
  tree_ = std::exchange(other.tree_, nullptr);
  owners_ = std::exchange(other.owners_, nullptr);
  data_ = std::exchange(other.data_, nullptr);
  timestamps_ = std::exchange(other.timestamps_, nullptr);
  block_ = std::exchange(other.block_, nullptr);
  history_ = std::exchange(other.history_, nullptr);
  cold_ = std::move(other.cold_);
  agent_ = other.agent_;
  rng_ = other.rng_;
  variables_ = other.variables_;
  registers_[0] = other.registers_[0];
  registers_[1] = other.registers_[1];
  generation_ = other.generation_;
  block_bytes_ = std::exchange(other.block_bytes_, 0);
  runtime_bytes_ = std::exchange(other.runtime_bytes_, 0);
  log_count_ = std::exchange(other.log_count_, 0);
  root_finishes_ = other.root_finishes_;
  active_nodes_ = std::exchange(other.active_nodes_, 0);
  lua_env_ = std::exchange(other.lua_env_, -2);
  registers_set_ = other.registers_set_;
  changed_ = other.changed_;
  changed_before_tick_ = other.changed_before_tick_;
  stopped_ = other.stopped_;
}

void MbtInstance::bindTo(MbtLibrary& library, const MbtTree& tree, EntityId agent,
                         uint64_t seed) {
  library_ = &library;
  tree_ = &tree;
  ++tree.instances_;
  ++library.instances_;
  agent_ = agent;
  rng_ = Rng::forStream(seed, raw(agent));
  variables_ = tree.variableDefaults();
  generation_ = library.generation();
  registers_set_ = 0;
  changed_ = changed_before_tick_ = stopped_ = false;
  root_finishes_ = 0;
  log_count_ = 0;
  block_bytes_ = static_cast<uint32_t>(blockBytesFor(tree));
  block_ = block_bytes_ ? library.allocator().allocate(block_bytes_) : nullptr;
  auto* bytes = static_cast<std::byte*>(block_);
  timestamps_ = reinterpret_cast<MbtTimestamp*>(bytes);
  for (size_t i = 0; i < tree.timestamps().size(); ++i) new (&timestamps_[i]) MbtTimestamp();
  bytes += tree.timestamps().size() * sizeof(MbtTimestamp);
  data_ = reinterpret_cast<void**>(bytes);
  bytes += tree.slotCount() * sizeof(void*);
  owners_ = reinterpret_cast<uint16_t*>(bytes);
  for (size_t s = 0; s < tree.slotCount(); ++s) {
    data_[s] = nullptr;
    owners_[s] = kFreeSlot;
  }
}

void MbtInstance::restoreRuntime(const VariableSet& variables, const MbtTimestamp* stamps,
                                 size_t count, bool stopped) {
  if (!tree_) return;
  variables_ = variables;
  changed_ = true;
  const size_t n = std::min(count, tree_->timestamps().size());
  for (size_t i = 0; i < n; ++i) timestamps_[i] = stamps[i];
  stopped_ = stopped;
}

void MbtInstance::captureRunScalars(RunImage& out) const {
  out.rng_state = rng_.state();
  out.registers[0] = registers_[0];
  out.registers[1] = registers_[1];
  out.registers_set = registers_set_;
  out.changed = changed_;
  out.changed_before_tick = changed_before_tick_;
  out.root_finishes = root_finishes_;
}

void MbtInstance::captureRun(RunImage& out) const {
  captureRunScalars(out);
  out.running.clear();
  if (!tree_) return;
  for (uint16_t slot = 0; slot < tree_->slotCount(); ++slot) {
    if (owners_[slot] == kFreeSlot) continue;
    const MbtNode& node = tree_->node(owners_[slot]);
    RunImage::Running& r = out.running.emplace_back();
    r.slot = slot;
    r.node = owners_[slot];
    if (data_[slot]) r.data.assign(static_cast<const char*>(data_[slot]), node.runtimeBytes());
  }
}

bool MbtInstance::restoreRun(const RunImage& image) {
  if (!tree_ || active_nodes_ != 0) return false;
  for (const RunImage::Running& r : image.running) {
    if (r.node >= tree_->nodeCount() || r.slot >= tree_->slotCount()) return false;
    const MbtNode& node = tree_->node(r.node);
    if (node.slot() != r.slot || node.runtimeBytes() != r.data.size()) return false;
  }
  MbtNullHost host(agent_);
  MbtContext ctx{*this, host, *tree_, *library_, library_->workspace(0), 0.0, nullptr};
  for (const RunImage::Running& r : image.running) {
    const MbtNode& node = tree_->node(r.node);
    enterSlot(node, ctx);
    if (!r.data.empty()) std::memcpy(data_[r.slot], r.data.data(), r.data.size());
  }
  for (const RunImage::Running& r : image.running) {
    tree_->node(r.node).onRestored(ctx);
  }
  rng_ = Rng(image.rng_state);
  registers_[0] = image.registers[0];
  registers_[1] = image.registers[1];
  registers_set_ = image.registers_set;
  changed_ = image.changed;
  changed_before_tick_ = image.changed_before_tick;
  root_finishes_ = image.root_finishes;
  return true;
}

void MbtInstance::freeBlocks() {
  if (block_) library_->allocator().deallocate(block_, block_bytes_);
  if (history_) library_->allocator().deallocate(history_, kHistoryBytes);
  block_ = nullptr;
  history_ = nullptr;
  owners_ = nullptr;
  data_ = nullptr;
  timestamps_ = nullptr;
  block_bytes_ = 0;
  log_count_ = 0;
}

bool MbtInstance::saveLua(LuaEnvImage& out) const {
  if (lua_env_ >= 0) {
    library_->lua().saveEnv(lua_env_, out);
  } else if (const LuaEnvImage* restored = restoredLua()) {
    out = *restored;
  } else {
    out = LuaEnvImage{};
  }
  return !out.empty();
}

void MbtInstance::setRestoredLua(std::optional<LuaEnvImage> image) {
  if (!image && !cold_) return;
  if (!cold_) cold_ = std::make_unique<Cold>();
  cold_->restored_lua = std::move(image);
}

const LuaEnvImage* MbtInstance::restoredLua() const {
  return cold_ && cold_->restored_lua ? &*cold_->restored_lua : nullptr;
}

void MbtInstance::unbind(MbtHost* host) {
  MbtNullHost null_host(agent_);
  MbtHost& h = host ? *host : null_host;
  MbtContext ctx{*this, h, *tree_, *library_, library_->workspace(0), host ? h.nowS() : 0.0, nullptr};
  tree_->root().terminate(ctx);
  freeBlocks();
  if (lua_env_ != -2) library_->lua().releaseEnv(lua_env_);
  lua_env_ = -2;
  if (cold_) cold_->restored_lua.reset();
  const MbtTree* tree = std::exchange(tree_, nullptr);
  library_->release(tree);
}

void MbtInstance::terminate(MbtHost& host) {
  if (!tree_) return;
  MbtContext ctx{*this, host, *tree_, *library_, library_->workspace(0), host.nowS(), nullptr};
  tree_->root().terminate(ctx);
}

void MbtInstance::migrateIfReloaded(MbtHost& host) {
  if (generation_ == library_->generation()) return;
  generation_ = library_->generation();
  const MbtTree* next = library_->successor(tree_);
  if (next == tree_) return;
  const MbtTree& old = *tree_;
  {
    MbtContext ctx{*this, host, old, *library_, library_->workspace(0), host.nowS(), nullptr};
    old.root().terminate(ctx);
  }
  if (!next) {
    unbind(&host);
    return;
  }
  // Carry variables and timestamps over by name; new ones start at their defaults.
  VariableSet values = next->variableDefaults();
  for (size_t i = 0; i < old.variableCount(); ++i) {
    const int to = next->variableIndex(old.variableName(i));
    if (to >= 0) values.set(static_cast<unsigned>(to), variable(i));
  }
  std::vector<std::pair<int, MbtTimestamp>> stamps;
  for (size_t i = 0; i < old.timestamps().size(); ++i) {
    const int to = next->timestampIndex(old.timestamps()[i].name);
    if (to >= 0) stamps.emplace_back(to, timestamps_[i]);
  }
  const Rng rng = rng_;
  const uint32_t finishes = root_finishes_;
  const int env = std::exchange(lua_env_, -2);
  const uint8_t registers_set = registers_set_;
  freeBlocks();
  library_->release(&old);
  bindTo(*library_, *next, agent_, 0);
  rng_ = rng;
  lua_env_ = env;
  registers_set_ = registers_set;
  root_finishes_ = finishes;
  changed_ = variables_ != values;
  variables_ = values;
  for (const auto& [index, stamp] : stamps) timestamps_[index] = stamp;
  MbtContext ctx{*this, host, *tree_, *library_, library_->workspace(0), host.nowS(), nullptr};
  MbtLogRouter::message(ctx, nullptr, MbtLogKind::kReloaded, "tree reloaded");
}

void MbtInstance::handleEvent(SignalId event, MbtHost& host) {
  MbtEvent plain;
  plain.id = event;
  handleEvent(plain, host);
}

void MbtInstance::handleEvent(const MbtEvent& event, MbtHost& host) {
  if (!tree_) return;
  migrateIfReloaded(host);
  if (!tree_) return;
  MbtContext ctx{*this, host, *tree_, *library_, library_->workspace(0), host.nowS(), nullptr, &event};
  applyEvent(event.id, ctx);
}

void MbtInstance::dispatchEvent(SignalId event, MbtContext& ctx) { applyEvent(event, ctx); }

void MbtInstance::applyEvent(SignalId event, MbtContext& ctx) {
  // CryEngine's order: signal variables, timestamps, then the running nodes.
  for (const MbtSignalAssignment& a : tree_->assignments(event)) {
    setVariable(a.variable, tree_->evaluate(a.value, variables_));
  }
  const auto defs = tree_->timestamps();
  for (size_t i = 0; i < defs.size(); ++i) {
    if (defs[i].set_on == event) setTimestamp(i, ctx.now_s);
  }
  if (!stopped_) tree_->root().sendEvent(ctx, event);
}

MbtStatus MbtInstance::tick(MbtHost& host) { return tick(host, 0); }

bool MbtInstance::needsTickThread() const {
  return tree_ && (tree_->needsTickThread() || generation_ != library_->generation());
}

MbtStatus MbtInstance::tick(MbtHost& host, unsigned worker) {
  if (!tree_) return MbtStatus::kFailure;
  migrateIfReloaded(host);
  if (!tree_ || stopped_) return MbtStatus::kFailure;
  changed_before_tick_ = changed_;
  changed_ = false;
  MbtTickTrace trace;
  MbtContext ctx{*this, host, *tree_, *library_, library_->workspace(worker), host.nowS(), &trace};
  const MbtStatus status = tree_->root().tick(ctx);
  if (status != MbtStatus::kRunning) rootFinished(status, ctx, trace);
  return status;
}

void MbtInstance::rootFinished(MbtStatus status, MbtContext& ctx, const MbtTickTrace& trace) {
  ++root_finishes_;
  const bool stop = tree_->rootFinish() == MbtRootFinish::kStop;
  if (!cold_) cold_ = std::make_unique<Cold>();
  std::string& text = cold_->root_finish;
  text.clear();
  text += "Modular Behavior Tree: The root node for entity '";
  const MbtAgentView& view = ctx.host.agent();
  char number[24];
  if (!view.name.empty()) {
    text += view.name;
  } else {
    text += "agent ";
    text.append(number, std::to_chars(number, number + sizeof(number), raw(agent_)).ptr);
  }
  text += status == MbtStatus::kSuccess ? "' SUCCEEDED." : "' FAILED.";
  text += stop ? " Stopping the tree." : " Rebooting the tree next frame.";
  // The nodes that finished this tick, in the order they finished (the root last).
  const uint32_t shown = std::min<uint32_t>(trace.count, MbtTickTrace::kCapacity);
  for (uint32_t i = trace.count - shown; i < trace.count; ++i) {
    const MbtNode& node = tree_->node(trace.nodes[i % MbtTickTrace::kCapacity]);
    text += " (";
    text.append(number, std::to_chars(number, number + sizeof(number), node.line()).ptr);
    text += ") ";
    text += node.type();
    text += '.';
  }
  MbtLogRouter::message(ctx, nullptr, MbtLogKind::kRootFinished, text);
  if (stop) stopped_ = true;
}

// --- variables, timestamps, registers ----------------------------------------------------

std::optional<bool> MbtInstance::variable(std::string_view name) const {
  if (!tree_) return std::nullopt;
  const int index = tree_->variableIndex(name);
  if (index < 0) return std::nullopt;
  return variable(static_cast<size_t>(index));
}

bool MbtInstance::setVariable(std::string_view name, bool value) {
  if (!tree_) return false;
  const int index = tree_->variableIndex(name);
  if (index < 0) return false;
  setVariable(static_cast<size_t>(index), value);
  return true;
}

void MbtInstance::setTimestamp(size_t index, double now_s) {
  MbtTimestamp& stamp = timestamps_[index];
  stamp.time_s = now_s;
  stamp.valid = true;
  stamp.ever_set = true;
  const uint8_t exclusive = tree_->timestamps()[index].exclusive_to;
  if (exclusive != 0xff) timestamps_[exclusive].valid = false;
}

std::optional<double> MbtInstance::elapsed(size_t index, double now_s) const {
  const MbtTimestamp& stamp = timestamps_[index];
  if (!stamp.valid) return std::nullopt;
  return now_s - stamp.time_s;
}

bool MbtInstance::getRegister(MbtRegister reg, Vec3& out) const {
  const auto bit = static_cast<uint8_t>(1u << static_cast<unsigned>(reg));
  if (!(registers_set_ & bit)) return false;
  out = registers_[static_cast<size_t>(reg)];
  return true;
}

void MbtInstance::setRegister(MbtRegister reg, Vec3 position) {
  registers_[static_cast<size_t>(reg)] = position;
  registers_set_ |= static_cast<uint8_t>(1u << static_cast<unsigned>(reg));
}

// --- runtime data slots --------------------------------------------------------------------

void MbtInstance::enterSlot(const MbtNode& node, MbtContext& ctx) {
  const uint16_t slot = node.slot();
  if (owners_[slot] != kFreeSlot) {
    // Only a node type that runs children concurrently without saying so gets here: keep
    // memory consistent by leaving the node that held the slot.
    assert(!"two running nodes share a slot: childrenRunConcurrently() missing?");
    tree_->node(owners_[slot]).terminate(ctx);
  }
  void* block = nullptr;
  if (const size_t bytes = node.runtimeBytes(); bytes != 0) {
    block = ctx.workspace.allocator.allocate(bytes);
    node.constructRuntime(block);
    runtime_bytes_ += static_cast<uint32_t>(BucketAllocator::blockBytes(bytes));
  }
  owners_[slot] = raw(node.index());
  data_[slot] = block;
  ++active_nodes_;
}

void MbtInstance::leaveSlot(const MbtNode& node, MbtContext& ctx) {
  const uint16_t slot = node.slot();
  if (void* block = data_[slot]) {
    const size_t bytes = node.runtimeBytes();
    node.destroyRuntime(block);
    ctx.workspace.allocator.deallocate(block, bytes);
    runtime_bytes_ -= static_cast<uint32_t>(BucketAllocator::blockBytes(bytes));
  }
  data_[slot] = nullptr;
  owners_[slot] = kFreeSlot;
  --active_nodes_;
}

// --- log history ---------------------------------------------------------------------------

size_t MbtInstance::logCount() const {
  return std::min<size_t>(log_count_, kMbtLogHistory);
}

const MbtLogEntry& MbtInstance::logEntry(size_t i) const {
  const size_t start = log_count_ > kMbtLogHistory ? log_count_ % kMbtLogHistory : 0;
  return history_[(start + i) % kMbtLogHistory];
}

void MbtInstance::appendLog(const MbtLogEntry& entry, std::string_view text,
                            BucketAllocator& allocator) {
  if (!history_) {
    history_ = static_cast<MbtLogEntry*>(allocator.allocate(kHistoryBytes));
    for (size_t i = 0; i < kMbtLogHistory; ++i) new (&history_[i]) MbtLogEntry();
  }
  MbtLogEntry& slot = history_[log_count_ % kMbtLogHistory];
  slot = entry;
  if (!text.empty()) {
    if (!cold_) cold_ = std::make_unique<Cold>();
    const uint32_t seq = cold_->next_seq++;
    const size_t ring = seq % kDynamicTexts;
    cold_->texts[ring].assign(text);
    cold_->seqs[ring] = seq;
    slot.text = static_cast<uint8_t>(ring);
    slot.text_seq = seq;
  }
  ++log_count_;
}

std::string_view MbtInstance::dynamicText(const MbtLogEntry& entry) const {
  if (entry.text == 0xff || !cold_) return {};
  if (cold_->seqs[entry.text] != entry.text_seq) return "(text no longer kept)";
  return cold_->texts[entry.text];
}

std::string_view MbtInstance::lastRootFinish() const {
  return cold_ ? std::string_view(cold_->root_finish) : std::string_view{};
}

size_t MbtInstance::bytesUsed() const {
  size_t bytes = sizeof(MbtInstance) + runtime_bytes_;
  if (block_) bytes += BucketAllocator::blockBytes(block_bytes_);
  if (history_) bytes += BucketAllocator::blockBytes(kHistoryBytes);
  if (cold_) {
    bytes += sizeof(Cold) + cold_->root_finish.capacity();
    for (const std::string& t : cold_->texts) bytes += t.capacity();
  }
  return bytes;
}

}  // namespace npc
