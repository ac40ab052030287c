// BucketAllocator: the small-block allocator behind MBT runtime data (and the Lua heap).
//
// Node runtime data is a few bytes, created when an agent enters a node and freed when it
// leaves, thousands of times per tick: the seed asks for a bucket allocator so this never
// reaches the general heap. Blocks come in size classes (16 .. 1024 bytes, 16-byte aligned);
// each class carves 32 KiB pages and keeps an intrusive free list. Pages are only returned
// when the allocator is destroyed, so once the peak is reached allocate/deallocate are a
// few instructions and never call operator new. Requests above 1024 bytes go to operator
// new (counted in largeBytes()).
//
// Not synchronised: one per thread that ticks trees (MbtWorkspace, mbt/workspace.h). A
// block may be freed into another allocator than the one it came from; that one's free
// list keeps it, and the counters below are then exact only summed over the allocators.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace npc {

class BucketAllocator {
 public:
  static constexpr size_t kAlignment = 16;
  static constexpr size_t kMaxBucketBytes = 1024;
  static constexpr size_t kPageBytes = 32 * 1024;

  BucketAllocator();
  BucketAllocator(const BucketAllocator&) = delete;
  BucketAllocator& operator=(const BucketAllocator&) = delete;

  // A block of at least `bytes` (> 0), 16-byte aligned. Never returns nullptr (operator
  // new throws when the machine is out of memory).
  void* allocate(size_t bytes);
  // Returns a block; `bytes` must be the size it was allocated with.
  void deallocate(void* block, size_t bytes);
  // Bytes a request of `bytes` really occupies (its size class; itself above 1024).
  static size_t blockBytes(size_t bytes);

  size_t bytesInUse() const { return in_use_; }      // by size class, live blocks
  size_t peakBytesInUse() const { return peak_; }
  size_t pageBytes() const { return pages_.size() * kPageBytes; }  // reserved by buckets
  size_t largeBytes() const { return large_; }       // live blocks above 1024 bytes
  size_t liveBlocks() const { return live_blocks_; }

 private:
  static constexpr size_t kClassCount = 12;
  static const std::array<uint16_t, kClassCount> kClassBytes;
  static int classOf(size_t bytes);

  struct FreeBlock {
    FreeBlock* next;
  };
  struct Bucket {
    FreeBlock* free = nullptr;
    std::byte* bump = nullptr;  // uncarved rest of the newest page
    std::byte* end = nullptr;
  };

  std::array<Bucket, kClassCount> buckets_{};
  std::vector<std::unique_ptr<std::byte[]>> pages_;
  size_t in_use_ = 0;
  size_t peak_ = 0;
  size_t large_ = 0;
  size_t live_blocks_ = 0;
};

}  // namespace npc
