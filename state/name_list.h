// NameList: a name table copied for a snapshot (SimStateCopy), indexed as the runtime's
// NameTable is: the codecs that turn indices back into names read these, never the
// simulation's own tables, so they can run on another thread than the tick.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace npc {

using NameList = std::span<const std::string>;

// The name behind `index`; empty out of range (as NameTable::name).
inline const std::string& nameAt(NameList names, size_t index) {
  static const std::string kEmpty;
  return index < names.size() ? names[index] : kEmpty;
}

}  // namespace npc
