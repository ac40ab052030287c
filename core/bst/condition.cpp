#include "bst/condition.h"

#include <algorithm>
#include <cctype>

namespace npc {
namespace {

enum class Tok : uint8_t {
  kEnd, kLParen, kRParen, kNot, kEqual, kNotEqual, kAnd, kOr, kXor, kTrue, kFalse, kIdent, kBad
};

struct Token {
  Tok kind = Tok::kEnd;
  size_t begin = 0;  // byte range in the source text
  size_t end = 0;
};

bool equalsNoCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(a[i])) !=
        std::tolower(static_cast<unsigned char>(b[i]))) {
      return false;
    }
  }
  return true;
}

// Same character classes as CryEngine's SimpleLexer; anything else is a kBad token so the
// parser can name it.
std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    const auto ch = static_cast<unsigned char>(text[i]);
    if (std::isspace(ch)) {
      ++i;
      continue;
    }
    Token t;
    t.begin = i;
    const char next = i + 1 < text.size() ? text[i + 1] : '\0';
    if (ch == '(' || ch == ')') {
      t.kind = ch == '(' ? Tok::kLParen : Tok::kRParen;
      ++i;
    } else if (ch == '=' && next == '=') {
      t.kind = Tok::kEqual;
      i += 2;
    } else if (ch == '!' && next == '=') {
      t.kind = Tok::kNotEqual;
      i += 2;
    } else if (ch == '!') {
      t.kind = Tok::kNot;
      ++i;
    } else if (std::isalpha(ch) || ch == '_') {
      ++i;
      while (i < text.size()) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (!std::isalnum(c) && c != '_' && c != '.') break;
        ++i;
      }
      const std::string_view word = text.substr(t.begin, i - t.begin);
      t.kind = equalsNoCase(word, "and")     ? Tok::kAnd
               : equalsNoCase(word, "or")    ? Tok::kOr
               : equalsNoCase(word, "xor")   ? Tok::kXor
               : equalsNoCase(word, "true")  ? Tok::kTrue
               : equalsNoCase(word, "false") ? Tok::kFalse
                                             : Tok::kIdent;
    } else {
      t.kind = Tok::kBad;
      ++i;
    }
    t.end = i;
    tokens.push_back(t);
  }
  Token end;
  end.begin = end.end = text.size();
  tokens.push_back(end);
  return tokens;
}

const char* keyword(Tok kind) {
  switch (kind) {
    case Tok::kAnd: return "and";
    case Tok::kOr: return "or";
    default: return "xor";
  }
}

class Parser {
 public:
  Parser(std::string_view text, const VariableResolver& resolve, const UnknownNameHint& hint,
         std::vector<std::string>& warnings)
      : text_(text), tokens_(tokenize(text)), resolve_(resolve), hint_(hint), warnings_(warnings) {}

  bool parse(std::vector<ConditionInstr>& out, std::string& error) {
    if (!logical()) {
      error = error_;
      return false;
    }
    const Token& t = peek();
    if (t.kind != Tok::kEnd) {
      error = t.kind == Tok::kRParen
                  ? "unbalanced \")\""
                  : "unexpected \"" + std::string(spell(t)) + "\" after a complete expression";
      return false;
    }
    out = std::move(code_);
    return true;
  }

 private:
  const Token& peek() const { return tokens_[pos_]; }
  const Token& take() { return tokens_[pos_++]; }
  std::string_view spell(const Token& t) const { return text_.substr(t.begin, t.end - t.begin); }
  std::string found(const Token& t) const {
    return t.kind == Tok::kEnd ? "end of expression" : "\"" + std::string(spell(t)) + "\"";
  }
  bool fail(std::string message) {
    if (error_.empty()) error_ = std::move(message);
    return false;
  }
  void emit(ConditionOp op, uint8_t variable = 0) { code_.push_back({op, variable}); }

  bool logical() {
    size_t span_begin = peek().begin;
    if (!compop()) return false;
    std::string grouped(text_.substr(span_begin, tokens_[pos_ - 1].end - span_begin));
    std::vector<Tok> distinct;
    bool mixed = false;
    while (peek().kind == Tok::kAnd || peek().kind == Tok::kOr || peek().kind == Tok::kXor) {
      const Tok op = take().kind;
      span_begin = peek().begin;
      if (!compop()) return false;
      const std::string_view right = text_.substr(span_begin, tokens_[pos_ - 1].end - span_begin);
      if (!distinct.empty() && distinct.back() != op) mixed = true;
      bool seen = false;
      for (Tok d : distinct) seen |= d == op;
      if (!seen) distinct.push_back(op);
      grouped = "(" + grouped + " " + keyword(op) + " " + std::string(right) + ")";
      emit(op == Tok::kAnd ? ConditionOp::kAnd : op == Tok::kOr ? ConditionOp::kOr : ConditionOp::kXor);
    }
    if (mixed) {
      std::string ops;
      for (size_t i = 0; i < distinct.size(); ++i) {
        if (i > 0) ops += i + 1 == distinct.size() ? " and " : ", ";
        ops += "\"" + std::string(keyword(distinct[i])) + "\"";
      }
      // Drop the outermost parentheses of the rendering: they add nothing.
      warnings_.push_back("mixes " + ops +
                          " without parentheses; CryEngine evaluates left to right, as \"" +
                          grouped.substr(1, grouped.size() - 2) + "\"");
    }
    return true;
  }

  bool compop() {
    if (!unary()) return false;
    const Tok kind = peek().kind;
    if (kind != Tok::kEqual && kind != Tok::kNotEqual) return true;
    take();
    if (!unary()) return false;
    emit(kind == Tok::kEqual ? ConditionOp::kEqual : ConditionOp::kNotEqual);
    return true;
  }

  bool unary() {
    if (peek().kind != Tok::kNot) return value();
    take();
    if (!value()) return false;
    emit(ConditionOp::kNot);
    return true;
  }

  bool value() {
    const Token& t = take();
    switch (t.kind) {
      case Tok::kLParen: {
        if (!logical()) return false;
        const Token& close = take();
        if (close.kind == Tok::kRParen) return true;
        if (close.kind == Tok::kEnd) return fail("unbalanced \"(\": missing \")\"");
        return fail("expected \")\" but found " + found(close));
      }
      case Tok::kTrue: emit(ConditionOp::kTrue); return true;
      case Tok::kFalse: emit(ConditionOp::kFalse); return true;
      case Tok::kIdent: {
        const int index = resolve_(spell(t));
        if (index < 0) {
          return fail("unknown variable \"" + std::string(spell(t)) + "\"" + (hint_ ? hint_(spell(t)) : ""));
        }
        emit(ConditionOp::kVariable, static_cast<uint8_t>(index));
        return true;
      }
      default:
        return fail("expected a variable, \"true\", \"false\", \"!\" or \"(\" but found " +
                    found(t));
    }
  }

  std::string_view text_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  const VariableResolver& resolve_;
  const UnknownNameHint& hint_;
  std::vector<std::string>& warnings_;
  std::vector<ConditionInstr> code_;
  std::string error_;
};

// Deepest evaluation stack the code needs.
size_t stackDepth(const std::vector<ConditionInstr>& code) {
  size_t depth = 0, deepest = 0;
  for (const ConditionInstr& instr : code) {
    switch (instr.op) {
      case ConditionOp::kVariable:
      case ConditionOp::kTrue:
      case ConditionOp::kFalse: deepest = std::max(deepest, ++depth); break;
      case ConditionOp::kNot: break;
      default: --depth; break;
    }
  }
  return deepest;
}

}  // namespace

bool compileCondition(std::string_view text, const VariableResolver& resolve,
                      std::vector<ConditionInstr>& code, CompiledCondition& out,
                      std::string& error, std::vector<std::string>& warnings,
                      const UnknownNameHint& hint) {
  std::vector<std::string> local_warnings;
  Parser parser(text, resolve, hint, local_warnings);
  std::vector<ConditionInstr> compiled;
  if (!parser.parse(compiled, error)) return false;
  if (stackDepth(compiled) > 64) {
    error = "nests too deeply (more than 64 pending operands)";
    return false;
  }
  if (compiled.size() > 0xffff) {
    error = "is too long (more than 65535 operations)";
    return false;
  }
  out.first = static_cast<uint32_t>(code.size());
  out.count = static_cast<uint16_t>(compiled.size());
  code.insert(code.end(), compiled.begin(), compiled.end());
  warnings.insert(warnings.end(), local_warnings.begin(), local_warnings.end());
  return true;
}

}  // namespace npc
