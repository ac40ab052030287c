// Where each value of a JSON text starts, by JSON pointer, so diagnostics can say
// "file:12:5: /actions/3/effects: ..." (nlohmann keeps no positions of its own).
//
// One scan of the text records, for every value, the line and column where the value
// starts and, for an object member, where its key starts. Lines and columns count from 1;
// a column counts bytes, as the parse errors' columns do. The scan expects text nlohmann
// has already accepted: on malformed text it stops and keeps what it found so far.
//
// Pointers follow RFC 6901 ("/a/0/b", "~1" for '/' and "~0" for '~' in keys); the root is
// "". A pointer that names nothing (a missing key) resolves to its nearest ancestor that
// exists, which is where a "missing required key" belongs.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace npc {

struct TextPosition {
  size_t line = 1;
  size_t column = 1;
};

class JsonPositions {
 public:
  JsonPositions() = default;
  explicit JsonPositions(std::string_view text);

  bool empty() const { return entries_.empty(); }
  // Where the value at `pointer` starts (or its nearest existing ancestor's value);
  // nullopt when the index is empty.
  std::optional<TextPosition> value(std::string_view pointer) const;
  // Where the key of the member at `pointer` starts; for array items, the root and
  // missing pointers, the same as value().
  std::optional<TextPosition> key(std::string_view pointer) const;

 private:
  struct Entry {
    TextPosition value;
    std::optional<TextPosition> key;
  };
  const Entry* nearest(std::string_view pointer) const;
  friend class JsonPositionScanner;
  std::unordered_map<std::string, Entry> entries_;
};

// Escapes a key for use as one JSON pointer segment ("a/b" -> "a~1b").
std::string escapePointerSegment(std::string_view key);

}  // namespace npc
