// The debug page's HTTP plumbing: query strings and percent-decoding.
#include <catch2/catch.hpp>

#include "debug/http_server.h"

using namespace npc;

TEST_CASE("Query strings are split and decoded", "[debug][http]") {
  SECTION("Should split pairs and decode escapes and '+'") {
    const auto q = parseQuery("id=1101&place=guard%5Fpost&text=a+b%21");
    REQUIRE(q.at("id") == "1101");
    REQUIRE(q.at("place") == "guard_post");
    REQUIRE(q.at("text") == "a b!");
  }
  SECTION("Should keep keys without a value and skip empty pairs") {
    const auto q = parseQuery("trace&&x=");
    REQUIRE(q.size() == 2);
    REQUIRE(q.at("trace").empty());
    REQUIRE(q.at("x").empty());
  }
  SECTION("Should keep malformed escapes as written") {
    REQUIRE(percentDecode("100%") == "100%");
    REQUIRE(percentDecode("%zz%4") == "%zz%4");
    REQUIRE(percentDecode("%41%42") == "AB");
  }
}

TEST_CASE("The HTTP server refuses an address it cannot use, naming it", "[debug][http]") {
  HttpServer server([](const HttpRequest&, HttpResponder respond) { respond({}); });
  std::string error;
  SECTION("Should want host:port") {
    REQUIRE_FALSE(server.start("localhost", error));
    REQUIRE(error == "debug_listen \"localhost\": expected host:port");
  }
  SECTION("Should report a port in use") {
    HttpServer first([](const HttpRequest&, HttpResponder respond) { respond({}); });
    REQUIRE(first.start("127.0.0.1:0", error));
    const std::string taken = "127.0.0.1:" + std::to_string(first.port());
    REQUIRE_FALSE(server.start(taken, error));
    REQUIRE_THAT(error, Catch::StartsWith("cannot listen on " + taken + " for the debug page ("));
  }
}
