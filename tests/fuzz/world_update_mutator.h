// A small structure-aware mutator for the stream fuzz target: the input is a sequence of
// WorldUpdates, each framed as [2-byte little-endian length][serialized npc.v1.WorldUpdate].
// Mutations go through protobuf reflection (set a field to a value near a limit or to a
// name the demo world knows, add an element to a repeated field, clear a field, add or
// drop an update), with libFuzzer's byte mutation now and then for what reflection misses.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "npc/v1/npc.pb.h"

namespace npc::fuzz {

inline constexpr size_t kMaxUpdatesPerInput = 16;

// Frames that do not parse are skipped; at most kMaxUpdatesPerInput are returned.
std::vector<v1::WorldUpdate> decodeUpdates(const uint8_t* data, size_t size);
std::string encodeUpdates(const std::vector<v1::WorldUpdate>& updates);

// One random change to one field somewhere inside `message` (recursing into sub-messages).
void mutateMessage(google::protobuf::Message& message, std::mt19937_64& rng, int depth = 0);

}  // namespace npc::fuzz
