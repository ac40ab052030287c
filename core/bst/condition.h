// Selection conditions: CryEngine's boolean expression grammar, compiled once at load into
// reverse-Polish code over variable indices and evaluated against a VariableSet.
//
// Grammar (CryEngine `SelectionCondition`, BT-REFERENCE.md §3):
//   logical := compop { ("and" | "or" | "xor") compop }   left to right, NO precedence
//   compop  := unary [ ("==" | "!=") unary ]
//   unary   := "!" value | value
//   value   := "(" logical ")" | "true" | "false" | IDENT
//   IDENT   := [A-Za-z_][A-Za-z0-9_.]*     keywords case-insensitive, whitespace ignored
// `a or b and c` means `(a or b) and c`, as in CryEngine; compiling such a mix without
// parentheses adds a warning that shows the grouping. Stricter than CryEngine: an
// undeclared name, an empty expression and tokens after a complete expression are errors.
//
// Evaluation allocates nothing: a 64-deep stack of bits in one register. Expressions that
// would need a deeper stack are refused at compile time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bst/bst_types.h"

namespace npc {

enum class ConditionOp : uint8_t {
  kVariable,  // push values[variable]
  kTrue,
  kFalse,
  kNot,       // pop a, push !a
  kAnd,       // pop b, pop a, push a op b
  kOr,
  kXor,
  kEqual,
  kNotEqual,
};

struct ConditionInstr {
  ConditionOp op = ConditionOp::kTrue;
  uint8_t variable = 0;  // kVariable only
};

// A compiled expression: `count` instructions starting at `first` in the owner's code array.
// count == 0 means "no condition" (always true).
struct CompiledCondition {
  uint32_t first = 0;
  uint16_t count = 0;
};

// Maps a name to the tree's variable index, or -1 when it is not declared.
using VariableResolver = std::function<int(std::string_view name)>;
// What an unknown name may have meant: " (did you mean \"X\"?)" or "" (base/did_you_mean.h).
using UnknownNameHint = std::function<std::string(std::string_view name)>;

// Compiles `text`, appending its instructions to `code`. On failure returns false and sets
// `error` to a message without location (the caller adds "file:line: what \"text\": ");
// `code` is then left as it was. Warnings (mixed operators) are appended to `warnings`.
bool compileCondition(std::string_view text, const VariableResolver& resolve,
                      std::vector<ConditionInstr>& code, CompiledCondition& out,
                      std::string& error, std::vector<std::string>& warnings,
                      const UnknownNameHint& hint = {});

// Evaluates compiled code. `code` points at the owner's instruction array.
inline bool evaluateCondition(const ConditionInstr* code, CompiledCondition condition,
                              const VariableSet& values) {
  if (condition.count == 0) return true;
  uint64_t stack = 0;  // bit 0 is the top
  const ConditionInstr* ip = code + condition.first;
  const ConditionInstr* end = ip + condition.count;
  for (; ip != end; ++ip) {
    uint64_t top;
    switch (ip->op) {
      case ConditionOp::kVariable: stack = (stack << 1) | values.get(ip->variable); continue;
      case ConditionOp::kTrue: stack = (stack << 1) | 1u; continue;
      case ConditionOp::kFalse: stack <<= 1; continue;
      case ConditionOp::kNot: stack ^= 1u; continue;
      default: break;
    }
    top = stack & 1u;
    stack >>= 1;
    const uint64_t below = stack & 1u;
    uint64_t result = 0;
    switch (ip->op) {
      case ConditionOp::kAnd: result = below & top; break;
      case ConditionOp::kOr: result = below | top; break;
      case ConditionOp::kXor:
      case ConditionOp::kNotEqual: result = below ^ top; break;
      case ConditionOp::kEqual: result = (below ^ top) ^ 1u; break;
      default: break;
    }
    stack = (stack & ~uint64_t{1}) | result;
  }
  return stack & 1u;
}

}  // namespace npc
