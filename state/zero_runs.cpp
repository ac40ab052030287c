#include "zero_runs.h"

#include <cstdint>

namespace npc {

namespace {

void putVarint(std::string& out, size_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

bool getVarint(std::string_view in, size_t& at, size_t& v) {
  v = 0;
  for (int shift = 0; shift < 35; shift += 7) {
    if (at >= in.size()) return false;
    const auto b = static_cast<uint8_t>(in[at++]);
    v |= static_cast<size_t>(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

// Zero runs shorter than this stay literal: a block costs two varints.
constexpr size_t kMinRun = 4;

}  // namespace

std::string packZeroRuns(std::string_view bytes) {
  std::string out;
  size_t at = 0;
  while (at < bytes.size()) {
    // The literal part runs up to the next zero run of kMinRun or more (or the end).
    size_t literal_end = at;
    size_t run = 0;
    while (literal_end < bytes.size()) {
      run = 0;
      while (literal_end + run < bytes.size() && bytes[literal_end + run] == 0) ++run;
      if (run >= kMinRun || literal_end + run == bytes.size()) break;
      literal_end += run + 1;
      run = 0;
    }
    if (literal_end > bytes.size()) literal_end = bytes.size();
    putVarint(out, literal_end - at);
    out.append(bytes.substr(at, literal_end - at));
    putVarint(out, run);
    at = literal_end + run;
  }
  return out;
}

std::optional<std::string> unpackZeroRuns(std::string_view packed, size_t size) {
  std::string out;
  out.reserve(size);
  size_t at = 0;
  while (at < packed.size()) {
    size_t literal = 0, zeros = 0;
    if (!getVarint(packed, at, literal) || literal > packed.size() - at) return std::nullopt;
    if (out.size() + literal > size) return std::nullopt;
    out.append(packed.substr(at, literal));
    at += literal;
    if (!getVarint(packed, at, zeros) || zeros > size - out.size()) return std::nullopt;
    out.append(zeros, '\0');
  }
  if (out.size() != size) return std::nullopt;
  return out;
}

namespace {

std::string xorWith(std::string_view bytes, std::string_view baseline) {
  std::string out(bytes);
  for (size_t i = 0; i < out.size() && i < baseline.size(); ++i) out[i] ^= baseline[i];
  return out;
}

}  // namespace

std::string packAgainst(std::string_view bytes, std::string_view baseline) {
  return packZeroRuns(xorWith(bytes, baseline));
}

std::optional<std::string> unpackAgainst(std::string_view packed, std::string_view baseline) {
  std::optional<std::string> bytes = unpackZeroRuns(packed, baseline.size());
  if (bytes) *bytes = xorWith(*bytes, baseline);
  return bytes;
}

}  // namespace npc
