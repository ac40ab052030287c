#include <catch2/catch.hpp>

#include "bst/condition.h"

using namespace npc;

namespace {

// Compiles `text` over the variables a, b, c (indices 0, 1, 2; "A.b_c" is index 3).
struct Compiled {
  bool ok = false;
  std::string error;
  std::vector<std::string> warnings;
  std::vector<ConditionInstr> code;
  CompiledCondition condition;

  bool eval(bool a, bool b = false, bool c = false, bool d = false) const {
    VariableSet v;
    v.set(0, a);
    v.set(1, b);
    v.set(2, c);
    v.set(3, d);
    return evaluateCondition(code.data(), condition, v);
  }
};

Compiled compile(const std::string& text) {
  Compiled out;
  auto resolve = [](std::string_view name) -> int {
    if (name == "a") return 0;
    if (name == "b") return 1;
    if (name == "c") return 2;
    if (name == "A.b_c") return 3;
    return -1;
  };
  out.ok = compileCondition(text, resolve, out.code, out.condition, out.error, out.warnings);
  return out;
}

}  // namespace

TEST_CASE("Conditions evaluate CryEngine's operators", "[bst][condition]") {
  SECTION("Should read a variable, true and false") {
    REQUIRE(compile("a").eval(true));
    REQUIRE_FALSE(compile("a").eval(false));
    REQUIRE(compile("true").eval(false));
    REQUIRE_FALSE(compile("false").eval(true));
  }
  SECTION("Should apply and, or, xor, ==, != and prefix !") {
    for (int a = 0; a < 2; ++a) {
      for (int b = 0; b < 2; ++b) {
        INFO("a=" << a << " b=" << b);
        REQUIRE(compile("a and b").eval(a, b) == (a && b));
        REQUIRE(compile("a or b").eval(a, b) == (a || b));
        REQUIRE(compile("a xor b").eval(a, b) == (a != b));
        REQUIRE(compile("a == b").eval(a, b) == (a == b));
        REQUIRE(compile("a != b").eval(a, b) == (a != b));
        REQUIRE(compile("!a").eval(a, b) == !a);
        REQUIRE(compile("!a == b").eval(a, b) == ((!a) == b));
        REQUIRE(compile("!(a or b)").eval(a, b) == !(a || b));
      }
    }
  }
  SECTION("Should take keywords in any case and ignore whitespace") {
    const Compiled c = compile("  a AND (b Or TRUE)\tXOR\nFalse ");
    REQUIRE(c.ok);
    REQUIRE(c.eval(true, false));
    REQUIRE_FALSE(c.eval(false, false));
  }
  SECTION("Should accept identifiers with dots and underscores") {
    REQUIRE(compile("A.b_c").eval(false, false, false, true));
  }
  SECTION("Should treat a missing condition (no code) as true") {
    REQUIRE(evaluateCondition(nullptr, CompiledCondition{}, VariableSet{}));
  }
  SECTION("Should compile into reverse Polish code over variable indices") {
    const Compiled c = compile("a and !b");
    REQUIRE(c.code.size() == 4);
    REQUIRE(c.code[0].op == ConditionOp::kVariable);
    REQUIRE(c.code[1].variable == 1);
    REQUIRE(c.code[2].op == ConditionOp::kNot);
    REQUIRE(c.code[3].op == ConditionOp::kAnd);
  }
}

TEST_CASE("and, or and xor have no precedence: left to right, with a warning", "[bst][condition]") {
  SECTION("Should read 'a or b and c' as '(a or b) and c', like CryEngine") {
    const Compiled c = compile("a or b and c");
    REQUIRE(c.ok);
    REQUIRE_FALSE(c.eval(true, false, false));  // C++ precedence would say true
    REQUIRE(c.warnings == std::vector<std::string>{
                              "mixes \"or\" and \"and\" without parentheses; CryEngine evaluates "
                              "left to right, as \"(a or b) and c\""});
  }
  SECTION("Should warn about every mix, showing the grouping of longer chains") {
    const Compiled c = compile("a and b or c xor a");
    REQUIRE(c.warnings == std::vector<std::string>{
                              "mixes \"and\", \"or\" and \"xor\" without parentheses; CryEngine "
                              "evaluates left to right, as \"((a and b) or c) xor a\""});
  }
  SECTION("Should not warn when one operator repeats or parentheses group the mix") {
    REQUIRE(compile("a and b and c").warnings.empty());
    REQUIRE(compile("a or (b and c)").warnings.empty());
    REQUIRE(compile("(a or b) and c").warnings.empty());
    REQUIRE(compile("a or (b and c)").eval(true, false, false));
  }
  SECTION("Should warn inside parentheses too") {
    REQUIRE(compile("!(a xor b or c)").warnings.size() == 1);
  }
}

TEST_CASE("Malformed conditions are errors, stricter than CryEngine", "[bst][condition]") {
  auto error = [](const std::string& text) {
    const Compiled c = compile(text);
    REQUIRE_FALSE(c.ok);
    REQUIRE(c.code.empty());
    return c.error;
  };
  SECTION("Should reject an undeclared name (CryEngine reads it as false)") {
    REQUIRE(error("a and AwareOfEnemy") == "unknown variable \"AwareOfEnemy\"");
  }
  SECTION("Should reject tokens after a complete expression (CryEngine ignores them)") {
    REQUIRE(error("a b") == "unexpected \"b\" after a complete expression");
    REQUIRE(error("a = b") == "unexpected \"=\" after a complete expression");
    REQUIRE(error("a == b == c") == "unexpected \"==\" after a complete expression");
    REQUIRE(error("a && b") == "unexpected \"&\" after a complete expression");
  }
  SECTION("Should reject unbalanced parentheses") {
    REQUIRE(error("(a and b") == "unbalanced \"(\": missing \")\"");
    REQUIRE(error("a and b)") == "unbalanced \")\"");
    REQUIRE(error("(a b)") == "expected \")\" but found \"b\"");
  }
  SECTION("Should reject a missing operand") {
    REQUIRE(error("") == "expected a variable, \"true\", \"false\", \"!\" or \"(\" but found "
                         "end of expression");
    REQUIRE(error("a and") == "expected a variable, \"true\", \"false\", \"!\" or \"(\" but "
                              "found end of expression");
    REQUIRE(error("!!a") == "expected a variable, \"true\", \"false\", \"!\" or \"(\" but found "
                            "\"!\"");
    REQUIRE(error("a or not b") == "unknown variable \"not\"");
  }
  SECTION("Should refuse expressions deeper than the 64-bit evaluation stack") {
    std::string deep = "a";
    for (int i = 0; i < 70; ++i) deep = "a and (" + deep + ")";
    REQUIRE(error(deep) == "nests too deeply (more than 64 pending operands)");
    std::string fine = "a";
    for (int i = 0; i < 60; ++i) fine = "a and (" + fine + ")";
    REQUIRE(compile(fine).eval(true));
  }
}
