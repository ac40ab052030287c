// "Did you mean": which misspellings get a suggestion, and which do not.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "base/did_you_mean.h"

using namespace npc;

TEST_CASE("nameDistance counts edits without case, swaps of neighbours as one", "[base][did_you_mean]") {
  CHECK(nameDistance("SeesSomeone", "SeesSomeone", 3) == 0);
  CHECK(nameDistance("seessomeone", "SeesSomeone", 3) == 0);
  CHECK(nameDistance("SeesSomone", "SeesSomeone", 3) == 1);    // a letter left out
  CHECK(nameDistance("SeesSoemone", "SeesSomeone", 3) == 1);   // two letters swapped
  CHECK(nameDistance("SeesSomxone", "SeesSomeone", 3) == 1);   // one letter wrong
  CHECK(nameDistance("Alarm", "Alert", 3) == 2);
  CHECK(nameDistance("abc", "xyz", 1) == 2);                   // past the limit: limit + 1
  CHECK(nameDistance("a", "abcdefgh", 3) == 4);                // too long a gap, not even tried
}

TEST_CASE("didYouMean suggests the closest known name only when it is close", "[base][did_you_mean]") {
  const std::vector<std::string> variables{"AwareOfEnemy", "AwareOfSound", "SeesSomeone", "Alert"};
  CHECK(didYouMean("SeesSomone", variables) == " (did you mean \"SeesSomeone\"?)");
  CHECK(didYouMean("AwareOfEnmy", variables) == " (did you mean \"AwareOfEnemy\"?)");
  CHECK(didYouMean("awareofsound", variables) == " (did you mean \"AwareOfSound\"?)");
  CHECK(didYouMean("Hungry", variables) == "");        // nothing like it
  CHECK(didYouMean("Alarm", variables) == "");         // two edits in five letters: too far
  CHECK(didYouMean("Steady", {"Ready"}) == "");         // two in six: a rhyme, not a typo
  CHECK(didYouMean("Alert", variables) == "");         // the name itself is no suggestion
  CHECK(didYouMean("b", {"a", "c"}) == "");            // every letter rewritten: not a typo
  CHECK(didYouMean("sight_rang_m", {"fov_deg", "sight_range_m", "hearing_scale"}) ==
        " (did you mean \"sight_range_m\"?)");
  // Ties go to the first candidate, so the hint depends only on the candidates' order.
  CHECK(didYouMean("Cat", {"Bat", "Hat"}) == " (did you mean \"Bat\"?)");
  NameSuggester s("Gaurd");
  s.consider("Guard");
  s.consider("Guards");
  REQUIRE(s.best());
  CHECK(*s.best() == "Guard");
}
