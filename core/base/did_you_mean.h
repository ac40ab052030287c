// "Did you mean": the closest known name to a misspelt one, for loaders' errors
// (`unknown variable "SeesSomone" (did you mean "SeesSomeone"?)`).
//
// Closeness is the optimal-string-alignment distance (insertions, deletions, substitutions
// and swaps of two neighbours each cost 1), compared without case. A name is suggested
// only when it is within a quarter of the misspelt name's length (at least 1, at most 3
// edits, and never every letter of it): far-off guesses mislead more than they help. Ties
// go to the first candidate, so
// the suggestion depends only on the candidates' order.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace npc {

// Edit distance between `a` and `b` without case, or `limit + 1` once it exceeds `limit`.
size_t nameDistance(std::string_view a, std::string_view b, size_t limit);

// Collects candidates and picks the closest to `wanted`.
class NameSuggester {
 public:
  explicit NameSuggester(std::string_view wanted);
  void consider(std::string_view candidate);
  // The closest candidate close enough, or nullopt.
  std::optional<std::string> best() const;
  // " (did you mean \"X\"?)", or "" when nothing is close enough.
  std::string hint() const;

 private:
  std::string wanted_;
  size_t limit_;
  size_t best_distance_;
  std::string best_;
};

// hint() over a list of candidates.
std::string didYouMean(std::string_view wanted, std::span<const std::string> candidates);
std::string didYouMean(std::string_view wanted, std::initializer_list<std::string_view> candidates);

}  // namespace npc
