// Dense table of rows addressed by generation-checked handles (Handle<Row>) and by a 64-bit id.
//
// Rows are packed (swap-and-pop on removal) so per-tick loops walk contiguous memory; a
// slot array maps a handle to the row it currently occupies. Iteration order depends only
// on the sequence of inserts and removals, so it is deterministic. Row must have a public
// member `id` of type Id (an enum class over uint64_t, 0 = none).
// Not synchronised: owned by the tick thread.
#pragma once

#include <cstdint>
#include <new>
#include <span>
#include <unordered_map>
#include <vector>

#include "base/handle.h"
#include "base/large_page_allocator.h"

namespace npc {

template <class Row, class Id>
class DenseTable {
 public:
  // Adds a row for `id` and returns its handle; a null handle when `id` already exists or
  // is 0. The new row is default-initialised except for its id.
  Handle<Row> insert(Id id);
  // Removes the row of `id`; false when there is none. Handles to it become stale.
  bool remove(Id id);

  // Handle of `id`, or a null handle.
  Handle<Row> find(Id id) const;
  // The row behind `handle`, or nullptr when the handle is null or stale.
  Row* get(Handle<Row> handle);
  const Row* get(Handle<Row> handle) const;
  Row* get(Id id) { return get(find(id)); }
  const Row* get(Id id) const { return get(find(id)); }
  // Dense row index of a valid handle (for parallel arrays and the spatial index).
  uint32_t rowOf(Handle<Row> handle) const { return slots_[handle.slot].row; }
  // Handle of the row stored at dense index `row` (row < size()).
  Handle<Row> handleAt(uint32_t row) const {
    const uint32_t slot = row_slot_[row];
    return {slot, slots_[slot].generation};
  }

  std::span<Row> rows() { return rows_; }
  std::span<const Row> rows() const { return rows_; }
  size_t size() const { return rows_.size(); }
  // Changes whenever a row is added or removed (rows may then have moved): a caller that
  // keeps lists of rows rebuilds them when it differs from the one they were built at.
  uint64_t layoutVersion() const { return layout_version_; }
  void reserve(size_t n) {
    rows_.reserve(n);
    row_slot_.reserve(n);
    slots_.reserve(n);
  }
  // The first time the table must grow at `from` rows or more, it makes room for `up_to`
  // instead of doubling. Each doubling copies every row, and a table of large rows (an
  // Agent is 4 KiB) copies hundreds of megabytes within one tick; address space reserved
  // costs no memory until rows use it. A reservation the system refuses (bad_alloc) leaves
  // growth as it was.
  void reserveWhenLarge(size_t from, size_t up_to) {
    reserve_from_ = from;
    reserve_up_to_ = up_to;
  }

 private:
  struct Slot {
    uint32_t row = 0;
    uint32_t generation = 0;
  };
  std::vector<Row, LargePageAllocator<Row>> rows_;  // walked every tick: see the allocator
  std::vector<uint32_t> row_slot_;    // row -> slot
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;  // LIFO reuse keeps slot choice deterministic
  std::unordered_map<uint64_t, Handle<Row>> by_id_;  // lookups only, never iterated
  uint64_t layout_version_ = 0;
  size_t reserve_from_ = SIZE_MAX;  // reserveWhenLarge; SIZE_MAX: never
  size_t reserve_up_to_ = 0;
};

template <class Row, class Id>
Handle<Row> DenseTable<Row, Id>::insert(Id id) {
  const auto key = static_cast<uint64_t>(id);
  if (key == 0 || by_id_.count(key) != 0) return {};
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.push_back({});
  }
  slots_[slot].row = static_cast<uint32_t>(rows_.size());
  if (rows_.size() == rows_.capacity() && rows_.size() >= reserve_from_ &&
      reserve_up_to_ > rows_.size()) {
    try {
      reserve(reserve_up_to_);
    } catch (const std::bad_alloc&) {
    }
    reserve_from_ = SIZE_MAX;  // once
  }
  rows_.emplace_back();
  rows_.back().id = id;
  row_slot_.push_back(slot);
  Handle<Row> handle{slot, slots_[slot].generation};
  by_id_.emplace(key, handle);
  ++layout_version_;
  return handle;
}

template <class Row, class Id>
bool DenseTable<Row, Id>::remove(Id id) {
  auto it = by_id_.find(static_cast<uint64_t>(id));
  if (it == by_id_.end()) return false;
  const uint32_t slot = it->second.slot;
  const uint32_t row = slots_[slot].row;
  const auto last = static_cast<uint32_t>(rows_.size() - 1);
  if (row != last) {
    rows_[row] = std::move(rows_[last]);
    row_slot_[row] = row_slot_[last];
    slots_[row_slot_[row]].row = row;
  }
  rows_.pop_back();
  row_slot_.pop_back();
  ++slots_[slot].generation;  // every outstanding handle to this row is now stale
  free_slots_.push_back(slot);
  by_id_.erase(it);
  ++layout_version_;
  return true;
}

template <class Row, class Id>
Handle<Row> DenseTable<Row, Id>::find(Id id) const {
  auto it = by_id_.find(static_cast<uint64_t>(id));
  return it == by_id_.end() ? Handle<Row>{} : it->second;
}

template <class Row, class Id>
Row* DenseTable<Row, Id>::get(Handle<Row> handle) {
  if (handle.isNull() || handle.slot >= slots_.size()) return nullptr;
  const Slot& s = slots_[handle.slot];
  return s.generation == handle.generation ? &rows_[s.row] : nullptr;
}

template <class Row, class Id>
const Row* DenseTable<Row, Id>::get(Handle<Row> handle) const {
  return const_cast<DenseTable*>(this)->get(handle);
}

}  // namespace npc
