// LargePageAllocator: a std::allocator for the big row arrays that per-tick loops walk
// (DenseTable's rows). A block of 2 MiB or more is aligned to 2 MiB and offered to the
// kernel for transparent huge pages (madvise MADV_HUGEPAGE; the daemon's Debian default is
// "madvise", so nothing else asks for them).
//
// Why: an Agent is 4 KiB, so a pass over 100,000 agents touches 100,000 different 4 KiB
// pages, and each costs a TLB miss and a page walk on top of its cache miss; on 2 MiB pages
// the same pass needs 200 translations. Where the kernel declines (THP "never", no
// contiguous memory), the memory is ordinary and only the alignment remains.
// Smaller blocks go to the ordinary operator new, as std::allocator would.
#pragma once

#include <cstddef>
#include <new>

namespace npc {

namespace large_pages {

inline constexpr size_t kPageBytes = size_t{2} << 20;

// Rounds `bytes` up to whole large pages.
constexpr size_t roundUp(size_t bytes) { return (bytes + kPageBytes - 1) / kPageBytes * kPageBytes; }

// Allocates `bytes` (a multiple of kPageBytes) aligned to kPageBytes and advises the
// kernel to back them with huge pages. Throws std::bad_alloc like operator new.
void* allocate(size_t bytes);
void release(void* p, size_t bytes);

}  // namespace large_pages

template <class T>
class LargePageAllocator {
 public:
  using value_type = T;

  LargePageAllocator() = default;
  template <class U>
  LargePageAllocator(const LargePageAllocator<U>&) noexcept {}

  T* allocate(size_t n) {
    const size_t bytes = n * sizeof(T);
    if (bytes < large_pages::kPageBytes) {
      return static_cast<T*>(::operator new(bytes, std::align_val_t{alignof(T)}));
    }
    return static_cast<T*>(large_pages::allocate(large_pages::roundUp(bytes)));
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (bytes < large_pages::kPageBytes) {
      ::operator delete(p, std::align_val_t{alignof(T)});
      return;
    }
    large_pages::release(p, large_pages::roundUp(bytes));
  }

  template <class U>
  bool operator==(const LargePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace npc
