// Counts heap allocations, so tests and benchmarks can show that a hot path allocates
// nothing. allocation_counter.cpp replaces the global operator new and delete (every form:
// plain, array, nothrow, aligned) of the binary it is linked into; link it into a binary at
// most once, and only into binaries that want the count.
#pragma once

#include <cstdint>

namespace npc::test {

// Allocations through operator new since the start of the process.
uint64_t allocationCount();

}  // namespace npc::test
