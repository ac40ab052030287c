// Native records (an intention queue, a planner's row) are mostly as a fresh one is: empty
// slots, plan steps not used. A snapshot keeps them XORed with a fresh record of the type
// (the baseline), which makes those parts zeros, with the zero runs collapsed: blocks of
// [varint n][n literal bytes][varint z] standing for those bytes followed by z zeros.
#pragma once

#include <new>
#include <optional>
#include <string>
#include <string_view>

namespace npc {

std::string packZeroRuns(std::string_view bytes);
// nullopt when `packed` is malformed or does not unpack to exactly `size` bytes.
std::optional<std::string> unpackZeroRuns(std::string_view packed, size_t size);

// The same against a baseline of the record's size (a fresh record's bytes).
std::string packAgainst(std::string_view bytes, std::string_view baseline);
std::optional<std::string> unpackAgainst(std::string_view packed, std::string_view baseline);

// A fresh T's bytes (constructed over zeroed storage, so padding is zero too).
template <class T>
std::string freshBytes() {
  alignas(T) unsigned char storage[sizeof(T)] = {};
  const T* fresh = new (storage) T();
  std::string bytes(reinterpret_cast<const char*>(storage), sizeof(T));
  fresh->~T();
  return bytes;
}

}  // namespace npc
