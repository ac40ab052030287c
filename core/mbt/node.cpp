#include "mbt/node.h"

#include "mbt/bucket_allocator.h"
#include "mbt/instance.h"
#include "mbt/log_router.h"
#include "mbt/tree.h"

namespace npc {

MbtNode::~MbtNode() = default;

bool MbtNode::isActive(const MbtContext& ctx) const {
  return ctx.instance.slotOwner(slot_) == index_;
}

void* MbtNode::runtimeBlock(const MbtContext& ctx) const {
  return ctx.instance.slotData(slot_);
}

std::string_view MbtNode::logText(MbtLogKind kind) const {
  if (!logs_) return {};
  switch (kind) {
    case MbtLogKind::kStart: return (*logs_)[0];
    case MbtLogKind::kSuccess: return (*logs_)[1];
    case MbtLogKind::kFailure: return (*logs_)[2];
    default: return {};
  }
}

size_t MbtNode::runtimeBlockBytes() const {
  const size_t bytes = runtimeBytes();
  return bytes == 0 ? 0 : BucketAllocator::blockBytes(bytes);
}

MbtStatus MbtNode::tick(MbtContext& ctx) const {
  if (!isActive(ctx)) {
    ctx.instance.enterSlot(*this, ctx);
    if (logs_ && !(*logs_)[0].empty()) MbtLogRouter::nodeText(ctx, *this, MbtLogKind::kStart);
    onInitialize(ctx);
  }
  const MbtStatus status = update(ctx);
  if (status != MbtStatus::kRunning) {
    leave(ctx);
    if (ctx.trace) ctx.trace->record(index_);
    if (logs_) {
      const MbtLogKind kind =
          status == MbtStatus::kSuccess ? MbtLogKind::kSuccess : MbtLogKind::kFailure;
      if (!logText(kind).empty()) MbtLogRouter::nodeText(ctx, *this, kind);
    }
  }
  return status;
}

void MbtNode::terminate(MbtContext& ctx) const {
  if (isActive(ctx)) leave(ctx);
}

void MbtNode::leave(MbtContext& ctx) const {
  // Children first: the innermost running node lets go of its resources first.
  for (uint16_t i = 0; i < child_count_; ++i) children_[i]->terminate(ctx);
  onTerminate(ctx);
  ctx.instance.leaveSlot(*this, ctx);
}

void MbtNode::sendEvent(MbtContext& ctx, SignalId event) const {
  if (!isActive(ctx)) return;
  handleEvent(ctx, event);
  for (uint16_t i = 0; i < child_count_; ++i) children_[i]->sendEvent(ctx, event);
}

}  // namespace npc
