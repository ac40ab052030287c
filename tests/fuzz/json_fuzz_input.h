// The common start of the JSON definition fuzz targets: the input as the text of one file,
// parsed by the loaders' own JsonReader (so syntax and overflow errors are part of the run)
// and read by a definition set's loadObject().
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/json_reader.h"

namespace npc::fuzz {

inline std::string_view inputText(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Loads the input as file `name` into `out` (ArchetypeSet, InfluenceSet,
// LongActionLibrary, ...); true when it loaded without errors.
template <typename Definitions>
bool loadInput(const uint8_t* data, size_t size, const char* name, Definitions& out) {
  JsonReader reader(name);
  nlohmann::json root;
  if (!reader.parse(inputText(data, size), root)) return false;
  out.loadObject(root, reader);
  return reader.ok();
}

}  // namespace npc::fuzz
