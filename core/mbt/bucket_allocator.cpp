#include "mbt/bucket_allocator.h"

#include <algorithm>
#include <cassert>
#include <new>

namespace npc {

// Classes step by 16 up to 64 bytes (most node runtime data), then by half powers of two.
const std::array<uint16_t, BucketAllocator::kClassCount> BucketAllocator::kClassBytes = {
    16, 32, 48, 64, 96, 128, 192, 256, 384, 512, 768, 1024};

BucketAllocator::BucketAllocator() = default;

int BucketAllocator::classOf(size_t bytes) {
  if (bytes > kMaxBucketBytes) return -1;
  // A 64-entry table would do too; the scan touches at most 12 shorts in one cache line.
  for (size_t c = 0; c < kClassCount; ++c) {
    if (bytes <= kClassBytes[c]) return static_cast<int>(c);
  }
  return -1;
}

size_t BucketAllocator::blockBytes(size_t bytes) {
  const int c = classOf(std::max<size_t>(bytes, 1));
  return c < 0 ? bytes : kClassBytes[static_cast<size_t>(c)];
}

void* BucketAllocator::allocate(size_t bytes) {
  bytes = std::max<size_t>(bytes, 1);
  const int c = classOf(bytes);
  ++live_blocks_;
  if (c < 0) {
    large_ += bytes;
    return ::operator new(bytes, std::align_val_t{kAlignment});
  }
  const size_t size = kClassBytes[static_cast<size_t>(c)];
  in_use_ += size;
  peak_ = std::max(peak_, in_use_);
  Bucket& bucket = buckets_[static_cast<size_t>(c)];
  if (bucket.free) {
    FreeBlock* block = bucket.free;
    bucket.free = block->next;
    return block;
  }
  if (bucket.bump == nullptr || bucket.bump + size > bucket.end) {
    // operator new[] of std::byte is aligned to __STDCPP_DEFAULT_NEW_ALIGNMENT__ (16).
    pages_.push_back(std::make_unique<std::byte[]>(kPageBytes));
    bucket.bump = pages_.back().get();
    bucket.end = bucket.bump + kPageBytes;
  }
  void* block = bucket.bump;
  bucket.bump += size;
  return block;
}

void BucketAllocator::deallocate(void* block, size_t bytes) {
  if (!block) return;
  bytes = std::max<size_t>(bytes, 1);
  const int c = classOf(bytes);
  // No check that live_blocks_ > 0: a block may come back to another allocator than the one
  // it left (mbt/workspace.h), whose counters then wrap; their sum stays exact.
  --live_blocks_;
  if (c < 0) {
    large_ -= bytes;
    ::operator delete(block, std::align_val_t{kAlignment});
    return;
  }
  in_use_ -= kClassBytes[static_cast<size_t>(c)];
  Bucket& bucket = buckets_[static_cast<size_t>(c)];
  auto* node = static_cast<FreeBlock*>(block);
  node->next = bucket.free;
  bucket.free = node;
}

}  // namespace npc
