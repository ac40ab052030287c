// Handle<Row>: a generation-checked reference to a row of a DenseTable<Row, Id>. A handle
// whose generation no longer matches its slot is stale, and lookups fail cleanly instead of
// aliasing the row's next occupant. The row type is part of the handle's type, so a handle
// into one table cannot be handed to another (an agent's planner rows, its body's entity
// row and its own agent row are three different tables).
#pragma once

#include <cstdint>
#include <limits>

namespace npc {

template <class Row>
struct Handle {
  uint32_t slot = std::numeric_limits<uint32_t>::max();
  uint32_t generation = 0;

  bool isNull() const { return slot == std::numeric_limits<uint32_t>::max(); }
  friend bool operator==(Handle, Handle) = default;
};

}  // namespace npc
