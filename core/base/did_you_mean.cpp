#include "base/did_you_mean.h"

#include <algorithm>
#include <cctype>

namespace npc {
namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

// Names are short (identifiers, keys): three rows of the dynamic programme suffice.
constexpr size_t kMaxCompared = 128;

}  // namespace

size_t nameDistance(std::string_view a, std::string_view b, size_t limit) {
  if (a.size() > kMaxCompared || b.size() > kMaxCompared) return limit + 1;
  const size_t gap = a.size() > b.size() ? a.size() - b.size() : b.size() - a.size();
  if (gap > limit) return limit + 1;
  std::vector<size_t> before(b.size() + 1), prev(b.size() + 1), row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    row[0] = i;
    size_t smallest = row[0];
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      row[j] = std::min({prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1])) {
        row[j] = std::min(row[j], before[j - 2] + 1);  // two neighbours swapped
      }
      smallest = std::min(smallest, row[j]);
    }
    if (smallest > limit) return limit + 1;  // every alignment is already too far
    std::swap(before, prev);
    std::swap(prev, row);
  }
  return std::min(prev[b.size()], limit + 1);
}

NameSuggester::NameSuggester(std::string_view wanted)
    : wanted_(wanted),
      limit_(std::clamp<size_t>(wanted.size() / 4, 1, 3)),
      best_distance_(limit_ + 1) {}

void NameSuggester::consider(std::string_view candidate) {
  if (candidate == wanted_) return;  // the same name is not a suggestion
  const size_t d = nameDistance(wanted_, candidate, limit_);
  // Rewriting every letter of a short name is not a misspelling ("a" is not "b").
  if (d >= best_distance_ || d >= wanted_.size()) return;
  best_distance_ = d;
  best_ = candidate;
}

std::optional<std::string> NameSuggester::best() const {
  if (best_distance_ > limit_) return std::nullopt;
  return best_;
}

std::string NameSuggester::hint() const {
  const auto b = best();
  return b ? " (did you mean \"" + *b + "\"?)" : "";
}

std::string didYouMean(std::string_view wanted, std::span<const std::string> candidates) {
  NameSuggester s(wanted);
  for (const std::string& c : candidates) s.consider(c);
  return s.hint();
}

std::string didYouMean(std::string_view wanted, std::initializer_list<std::string_view> candidates) {
  NameSuggester s(wanted);
  for (std::string_view c : candidates) s.consider(c);
  return s.hint();
}

}  // namespace npc
