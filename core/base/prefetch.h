// Prefetching for passes over large rows.
//
// An Agent row is 4 KiB, and most passes of the tick read one or two cache lines of it per
// agent. Consecutive rows are then a page apart, and the hardware prefetchers, which follow
// streams within a 4 KiB page, never run ahead: every row waits for memory (≈ 100 ns, so
// 10 ms per pass at 100,000 agents). Asking for the line a pass will read a few rows ahead
// overlaps those waits. `field` is a pointer-to-member path into the row, e.g.
//
//   for (size_t i = 0; i < agents.size(); ++i) {
//     prefetchAhead(agents, i, [](const Agent& a) { return &a.intent.queue; });
//     ...
//   }
#pragma once

#include <cstddef>
#include <span>

namespace npc {

// How many rows ahead: enough to cover a memory round trip at a few ns of work per row,
// few enough that the lines are still in L1/L2 when the pass reaches them.
inline constexpr size_t kPrefetchRows = 8;

// The x86-64 and ARM64 cache line: the unit a prefetch brings in.
inline constexpr size_t kCacheLineBytes = 64;

inline void prefetchForRead(const void* address) { __builtin_prefetch(address, 0, 3); }
inline void prefetchForWrite(const void* address) { __builtin_prefetch(address, 1, 3); }

// Prefetches, for reading, what `field(rows[i + kPrefetchRows])` points at (nothing past
// the end). `field` must only compute an address inside the row, never load from it.
template <class Row, class Field>
inline void prefetchAhead(std::span<Row> rows, size_t i, Field&& field) {
  if (i + kPrefetchRows < rows.size()) prefetchForRead(field(rows[i + kPrefetchRows]));
}

enum class PrefetchFor : bool { kRead, kWrite };

// Prefetches every line of rows[i + kPrefetchRows] (nothing past the end): for a pass that
// reads, or overwrites, whole rows of a few lines each.
template <PrefetchFor kFor = PrefetchFor::kRead, class Row>
inline void prefetchRowAhead(std::span<Row> rows, size_t i) {
  if (i + kPrefetchRows >= rows.size()) return;
  const auto* row = reinterpret_cast<const char*>(&rows[i + kPrefetchRows]);
  for (size_t line = 0; line < sizeof(Row); line += kCacheLineBytes) {
    if constexpr (kFor == PrefetchFor::kWrite) {
      prefetchForWrite(row + line);
    } else {
      prefetchForRead(row + line);
    }
  }
}

}  // namespace npc
