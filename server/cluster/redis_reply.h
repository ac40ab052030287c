// RedisReply: one reply of a Redis command, copied out of the client library's reply so
// callers never see its types. Bulk strings are binary-safe (std::string keeps NUL bytes).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace npc {

struct RedisReply {
  enum class Kind : uint8_t {
    kNil,      // a missing key, or a Lua `false`
    kInteger,  // `integer`
    kString,   // a bulk string, in `str`
    kStatus,   // a simple status such as OK, in `str`
    kError,    // an error reply, its text in `str`
    kArray,    // `elements` (Lua tables come back as arrays)
  };

  Kind kind = Kind::kNil;
  int64_t integer = 0;
  std::string str;
  std::vector<RedisReply> elements;

  bool isNil() const { return kind == Kind::kNil; }
  bool isInteger() const { return kind == Kind::kInteger; }
  bool isString() const { return kind == Kind::kString; }
  bool isArray() const { return kind == Kind::kArray; }
};

}  // namespace npc
