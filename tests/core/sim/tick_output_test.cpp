// TickOutput: cleared between ticks, it keeps its events' text buffers for the next texts,
// so that a steady tick with many failed intentions allocates none for their texts.
#include <string>

#include <catch2/catch.hpp>

#include "sim/tick_output.h"

using namespace npc;

TEST_CASE("TickOutput hands a cleared event's text buffer to the next text") {
  TickOutput out;
  CHECK(out.takeText().capacity() == std::string().capacity());  // nothing kept yet

  EventOut failed;
  failed.text = std::string(200, 'x');
  const char* buffer = failed.text.data();
  out.events.push_back(std::move(failed));
  EventOut short_text;
  short_text.text = "a -> b";  // in the string itself: nothing to keep
  out.events.push_back(std::move(short_text));
  out.clear();
  CHECK(out.events.empty());

  std::string next = out.takeText();
  CHECK(next.empty());
  CHECK(next.capacity() >= 200);
  CHECK(next.data() == buffer);  // the same buffer, not a new one
  CHECK(out.takeText().capacity() == std::string().capacity());  // only the long one was kept
}
