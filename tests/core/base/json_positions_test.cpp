// JSON pointer -> line:col index (core/base/json_positions.h).
#include "base/json_positions.h"

#include <catch2/catch.hpp>

namespace npc {
namespace {

std::string at(const std::optional<TextPosition>& p) {
  return p ? std::to_string(p->line) + ":" + std::to_string(p->column) : "none";
}

}  // namespace

TEST_CASE("JsonPositions maps pointers to where values and keys start", "[json][positions]") {
  const JsonPositions positions(R"({
  "name": "guard",
  "facts": [
    { "name": "has_torch", "type": "bool" },
    {"name":"lit"}
  ],
  "empty": {},
  "n": -1.5e3
})");

  SECTION("Should place the root at the opening brace") { CHECK(at(positions.value("")) == "1:1"); }
  SECTION("Should place a member's value after its key") {
    CHECK(at(positions.value("/name")) == "2:11");
    CHECK(at(positions.key("/name")) == "2:3");
  }
  SECTION("Should place array items and their members") {
    CHECK(at(positions.value("/facts")) == "3:12");
    CHECK(at(positions.value("/facts/0")) == "4:5");
    CHECK(at(positions.value("/facts/0/type")) == "4:36");
    CHECK(at(positions.key("/facts/0/type")) == "4:28");
    CHECK(at(positions.value("/facts/1/name")) == "5:13");
  }
  SECTION("Should give an array item's own position for its key") {
    CHECK(at(positions.key("/facts/1")) == "5:5");
  }
  SECTION("Should place scalars and empty containers") {
    CHECK(at(positions.value("/empty")) == "7:12");
    CHECK(at(positions.value("/n")) == "8:8");
  }
  SECTION("Should resolve a missing pointer to its nearest existing ancestor") {
    CHECK(at(positions.value("/facts/1/type")) == "5:5");
    CHECK(at(positions.key("/facts/1/type")) == "5:5");
    CHECK(at(positions.value("/nothing/here")) == "1:1");
    CHECK(at(positions.value("/facts/7")) == "3:12");
  }
}

TEST_CASE("JsonPositions decodes keys as JSON pointers name them", "[json][positions]") {
  SECTION("Should escape '/' and '~' in keys as ~1 and ~0") {
    const JsonPositions positions(R"({"a/b": 1, "c~d": 2})");
    CHECK(at(positions.value("/a~1b")) == "1:9");
    CHECK(at(positions.value("/c~0d")) == "1:19");
  }
  SECTION("Should decode escapes in keys and skip them in values") {
    const JsonPositions positions("{\"q\\\"\": \"x\\\"y\", \"\\u00e9t\\u00e9\": [true, null]}");
    CHECK(at(positions.value("/q\"")) == "1:9");
    CHECK(at(positions.value("/\xc3\xa9t\xc3\xa9/1")) == "1:41");
  }
  SECTION("Should count lines across CRLF and tabs as one column each") {
    const JsonPositions positions("{\r\n\t\"k\":\r\n\t\t[0]}");
    CHECK(at(positions.value("/k")) == "3:3");
    CHECK(at(positions.value("/k/0")) == "3:4");
  }
  SECTION("Should keep what it found before malformed text") {
    const JsonPositions positions(R"({"a": 1, "b": [2, )");
    CHECK(at(positions.value("/a")) == "1:7");
    CHECK(at(positions.value("/b/0")) == "1:16");
  }
  SECTION("Should know nothing of an empty text") {
    const JsonPositions positions("");
    CHECK(positions.empty());
    CHECK(at(positions.value("/a")) == "none");
  }
}

TEST_CASE("escapePointerSegment follows RFC 6901", "[json][positions]") {
  CHECK(escapePointerSegment("plain") == "plain");
  CHECK(escapePointerSegment("a/b~c") == "a~1b~0c");
}

}  // namespace npc
