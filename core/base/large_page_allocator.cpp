#include "base/large_page_allocator.h"

#ifdef __linux__
#include <sys/mman.h>
#endif

namespace npc::large_pages {

void* allocate(size_t bytes) {
  // Through operator new, so the allocation tests count it like any other.
  void* p = ::operator new(bytes, std::align_val_t{kPageBytes});
#ifdef __linux__
  // Advice only: refused (THP off, an old kernel), the pages stay ordinary.
  (void)::madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return p;
}

void release(void* p, size_t /*bytes*/) {
  ::operator delete(p, std::align_val_t{kPageBytes});
}

}  // namespace npc::large_pages
