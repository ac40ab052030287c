// Log lines with figures: text mode prints the text, JSON mode a short message and fields.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "logging.h"

using namespace npc;

TEST_CASE("A log event is its text in text mode and fields in JSON mode", "[logging]") {
  const std::string text = "tick overrun #3 at tick 4210 (7 slots skipped so far)";
  const std::vector<LogField> fields{{"tick", uint64_t{4210}},
                                     {"overruns", 3},
                                     {"tick_p99_ms", 12.5},
                                     {"phase", std::string_view("perception")},
                                     {"simulated_players", true}};

  SECTION("Should print the text as it is in text mode") {
    CHECK(formatLogEvent(false, "tick overrun", text, fields) == text);
  }
  SECTION("Should give the short message and each figure as a field in JSON mode") {
    // The JSON pattern wraps %v as {"ts":...,"msg":%v}: rebuild that object and read it.
    const std::string v = formatLogEvent(true, "tick overrun", text, fields);
    const nlohmann::json line = nlohmann::json::parse("{\"msg\":" + v + "}");
    CHECK(line["msg"] == "tick overrun");
    CHECK(line["tick"] == 4210);
    CHECK(line["overruns"] == 3);
    CHECK(line["tick_p99_ms"] == 12.5);
    CHECK(line["phase"] == "perception");
    CHECK(line["simulated_players"] == true);
    CHECK(line.size() == 6);
  }
  SECTION("Should escape what needs escaping in messages and text fields") {
    const std::string v = formatLogEvent(true, "rpc \"x\"", "", {{"peer", "a\"b\\c\n"}});
    const nlohmann::json line = nlohmann::json::parse("{\"msg\":" + v + "}");
    CHECK(line["msg"] == "rpc \"x\"");
    CHECK(line["peer"] == "a\"b\\c\n");
  }
}
