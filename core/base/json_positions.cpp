#include "base/json_positions.h"

#include <cstdint>

namespace npc {

std::string escapePointerSegment(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

// A recursive-descent walk over already-validated JSON. It only needs to find where
// values and keys start, so numbers and literals are skipped, not parsed; strings are
// decoded only when they are keys (a key's pointer segment is its decoded text).
class JsonPositionScanner {
 public:
  JsonPositionScanner(std::string_view text, JsonPositions& out) : text_(text), out_(out) {}

  void run() {
    std::string pointer;
    skipSpace();
    value(pointer, std::nullopt, 0);
  }

 private:
  // Deeper nesting than any definition needs; the parser has a limit of its own, and this
  // keeps the scan's stack bounded whatever it is given.
  static constexpr int kMaxDepth = 512;

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }
  TextPosition here() const { return {line_, pos_ - line_start_ + 1}; }

  void advance() {
    if (atEnd()) return;
    if (text_[pos_] == '\n') {
      ++line_;
      line_start_ = pos_ + 1;
    }
    ++pos_;
  }

  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
      advance();
    }
  }

  bool value(std::string& pointer, std::optional<TextPosition> key_at, int depth) {
    if (atEnd() || depth > kMaxDepth) return false;
    out_.entries_[pointer] = JsonPositions::Entry{here(), key_at};
    switch (peek()) {
      case '{':
        return object(pointer, depth);
      case '[':
        return array(pointer, depth);
      case '"': {
        std::string ignored;
        return string(ignored);
      }
      default:
        return scalar();
    }
  }

  // The members of an object or array, from its opening bracket to `close`: the one place
  // that knows the separators, so objects and arrays cannot come to disagree on them.
  // `member(index)` reads one member, starting at its first character.
  template <class Member>
  bool members(char close, Member&& member) {
    advance();  // '{' or '['
    skipSpace();
    if (peek() == close) {
      advance();
      return true;
    }
    for (size_t index = 0;; ++index) {
      skipSpace();
      if (!member(index)) return false;
      skipSpace();
      if (peek() == ',') {
        advance();
        continue;
      }
      if (peek() != close) return false;
      advance();
      return true;
    }
  }

  // The value of the child `segment` (already escaped) of `pointer`.
  bool child(std::string& pointer, std::string_view segment, std::optional<TextPosition> key_at,
             int depth) {
    const size_t base = pointer.size();
    pointer += '/';
    pointer += segment;
    const bool ok = value(pointer, key_at, depth + 1);
    pointer.resize(base);
    return ok;
  }

  bool object(std::string& pointer, int depth) {
    return members('}', [&](size_t) {
      if (peek() != '"') return false;
      const TextPosition key_at = here();
      std::string key;
      if (!string(key)) return false;
      skipSpace();
      if (peek() != ':') return false;
      advance();
      skipSpace();
      return child(pointer, escapePointerSegment(key), key_at, depth);
    });
  }

  bool array(std::string& pointer, int depth) {
    return members(']', [&](size_t index) {
      return child(pointer, std::to_string(index), std::nullopt, depth);
    });
  }

  // Decodes a string starting at its opening quote into `out` (UTF-8).
  bool string(std::string& out) {
    advance();  // '"'
    while (!atEnd()) {
      const char c = peek();
      if (c == '"') {
        advance();
        return true;
      }
      if (c != '\\') {
        out += c;
        advance();
        continue;
      }
      advance();
      if (!escape(out)) return false;
    }
    return false;
  }

  bool escape(std::string& out) {
    const char c = peek();
    advance();
    switch (c) {
      case 'b': out += '\b'; return true;
      case 'f': out += '\f'; return true;
      case 'n': out += '\n'; return true;
      case 'r': out += '\r'; return true;
      case 't': out += '\t'; return true;
      case 'u': return unicode(out);
      case '\0': return false;
      default: out += c; return true;  // '"', '\\', '/'
    }
  }

  bool hex4(uint32_t& code) {
    code = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = peek();
      uint32_t digit;
      if (c >= '0' && c <= '9') {
        digit = static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return false;
      }
      code = code * 16 + digit;
      advance();
    }
    return true;
  }

  // "\uXXXX", with a following low surrogate when XXXX is a high one.
  bool unicode(std::string& out) {
    uint32_t code;
    if (!hex4(code)) return false;
    if (code >= 0xD800 && code <= 0xDBFF && peek() == '\\') {
      advance();
      if (peek() != 'u') return false;
      advance();
      uint32_t low;
      if (!hex4(low)) return false;
      code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
    }
    appendUtf8(out, code);
    return true;
  }

  static void appendUtf8(std::string& out, uint32_t code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xC0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xE0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  // Numbers, true, false and null: skipped up to the next delimiter.
  bool scalar() {
    const size_t start = pos_;
    while (!atEnd()) {
      const char c = peek();
      if (c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
        break;
      }
      advance();
    }
    return pos_ > start;
  }

  std::string_view text_;
  JsonPositions& out_;
  size_t pos_ = 0;
  size_t line_ = 1;
  size_t line_start_ = 0;
};

JsonPositions::JsonPositions(std::string_view text) {
  JsonPositionScanner(text, *this).run();
}

const JsonPositions::Entry* JsonPositions::nearest(std::string_view pointer) const {
  std::string p(pointer);
  while (true) {
    auto it = entries_.find(p);
    if (it != entries_.end()) return &it->second;
    if (p.empty()) return nullptr;
    p.resize(p.rfind('/') == std::string::npos ? 0 : p.rfind('/'));
  }
}

std::optional<TextPosition> JsonPositions::value(std::string_view pointer) const {
  const Entry* e = nearest(pointer);
  if (!e) return std::nullopt;
  return e->value;
}

std::optional<TextPosition> JsonPositions::key(std::string_view pointer) const {
  auto it = entries_.find(std::string(pointer));
  if (it == entries_.end()) return value(pointer);
  return it->second.key ? it->second.key : it->second.value;
}

}  // namespace npc
