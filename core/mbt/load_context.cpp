#include "mbt/load_context.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include "base/did_you_mean.h"
#include "mbt/group_scopes.h"
#include "mbt/lua_runtime.h"
#include "mbt/node.h"
#include "mbt/node_factory.h"
#include "mbt/tree.h"
#include "world/name_table.h"

namespace npc {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

bool isReserved(std::string_view attribute) {
  return attribute == "_startLog" || attribute == "_successLog" || attribute == "_failureLog";
}

}  // namespace

// --- MbtXmlElement -----------------------------------------------------------------------

MbtXmlElement::MbtXmlElement(pugi::xml_node node, MbtLoadContext& ctx) : node_(node), ctx_(ctx) {}

MbtXmlElement::~MbtXmlElement() {
  if (accept_all_) return;
  size_t i = 0;
  for (pugi::xml_attribute a = node_.first_attribute(); a; a = a.next_attribute(), ++i) {
    if (i < 64 && (read_ >> i) & 1u) continue;
    if (i >= 64 || isReserved(a.name())) continue;
    ctx_.diagnostics().warning(where(a.name()), "<" + std::string(tag()) +
                                                    "> unknown attribute " + quoted(a.name()) +
                                                    " is ignored");
  }
}

uint32_t MbtXmlElement::line() const { return ctx_.file().lineOf(node_); }

uint32_t MbtXmlElement::lineOf(std::string_view attribute) const {
  return ctx_.file().lineOf(node_, node_.attribute(std::string(attribute).c_str()));
}

Location MbtXmlElement::where() const { return Location{&ctx_.file(), line(), nullptr}; }

Location MbtXmlElement::where(std::string_view attribute) const {
  return Location{&ctx_.file(), lineOf(attribute), nullptr};
}

bool MbtXmlElement::has(std::string_view attribute) const {
  return static_cast<bool>(node_.attribute(std::string(attribute).c_str()));
}

void MbtXmlElement::markRead(pugi::xml_attribute attribute) {
  size_t i = 0;
  for (pugi::xml_attribute a = node_.first_attribute(); a; a = a.next_attribute(), ++i) {
    if (a == attribute) {
      if (i < 64) read_ |= uint64_t{1} << i;
      return;
    }
  }
}

void MbtXmlElement::accept(std::string_view attribute) {
  if (pugi::xml_attribute a = node_.attribute(std::string(attribute).c_str())) markRead(a);
}

std::optional<std::string_view> MbtXmlElement::string(std::string_view attribute,
                                                      bool required) {
  const pugi::xml_attribute a = node_.attribute(std::string(attribute).c_str());
  if (!a) {
    if (required) error("needs attribute " + quoted(attribute));
    return std::nullopt;
  }
  markRead(a);
  return std::string_view(a.value());
}

std::optional<std::string_view> MbtXmlElement::name(std::string_view attribute, bool required) {
  auto text = string(attribute, required);
  if (!text) return std::nullopt;
  if (trim(*text).empty()) {
    error(attribute, std::string(attribute) + " must not be empty");
    return std::nullopt;
  }
  return text;
}

std::optional<double> MbtXmlElement::number(std::string_view attribute, bool required,
                                            double min, double max) {
  auto text = string(attribute, required);
  if (!text) return std::nullopt;
  const std::string value(trim(*text));
  char* end = nullptr;
  const double number = value.empty() ? 0.0 : std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(number)) {
    error(attribute, std::string(attribute) + " " + quoted(*text) + " is not a number");
    return std::nullopt;
  }
  if (number < min || number > max) {
    error(attribute, std::string(attribute) + " " + quoted(*text) + " is outside [" +
                         (min <= -1e300 ? std::string("-inf") : std::to_string(min)) + ", " +
                         (max >= 1e300 ? std::string("inf") : std::to_string(max)) + "]");
    return std::nullopt;
  }
  return number;
}

std::optional<bool> MbtXmlElement::boolean(std::string_view attribute, bool required) {
  auto text = string(attribute, required);
  if (!text) return std::nullopt;
  const std::string_view value = trim(*text);
  if (value == "1" || equalsNoCase(value, "true")) return true;
  if (value == "0" || equalsNoCase(value, "false")) return false;
  error(attribute, std::string(attribute) + " " + quoted(*text) +
                       " is not a boolean (1, 0, true or false)");
  return std::nullopt;
}

std::optional<uint32_t> MbtXmlElement::count(std::string_view attribute, bool required,
                                             uint32_t max) {
  auto text = string(attribute, required);
  if (!text) return std::nullopt;
  const std::string_view value = trim(*text);
  uint64_t number = 0;
  const auto result = std::from_chars(value.data(), value.data() + value.size(), number);
  if (value.empty() || result.ec != std::errc() || result.ptr != value.data() + value.size()) {
    error(attribute, std::string(attribute) + " " + quoted(*text) + " is not a whole number");
    return std::nullopt;
  }
  if (number > max) {
    error(attribute, std::string(attribute) + " " + quoted(*text) + " is more than " +
                         std::to_string(max));
    return std::nullopt;
  }
  return static_cast<uint32_t>(number);
}

std::optional<size_t> MbtXmlElement::choice(std::string_view attribute,
                                            std::initializer_list<std::string_view> choices,
                                            bool required) {
  auto text = string(attribute, required);
  if (!text) return std::nullopt;
  size_t i = 0;
  for (std::string_view c : choices) {
    if (equalsNoCase(trim(*text), c)) return i;
    ++i;
  }
  std::string list;
  for (std::string_view c : choices) list += (list.empty() ? "" : ", ") + std::string(c);
  error(attribute, std::string(attribute) + " " + quoted(*text) + " is not one of: " + list);
  return std::nullopt;
}

std::vector<pugi::xml_node> MbtXmlElement::children() {
  children_handled_ = true;
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node c = node_.first_child(); c; c = c.next_sibling()) {
    if (c.type() == pugi::node_element) out.push_back(c);
  }
  return out;
}

void MbtXmlElement::error(std::string_view message) {
  failed_ = true;
  ctx_.diagnostics().error(where(), "<" + std::string(tag()) + "> " + std::string(message));
}

void MbtXmlElement::error(std::string_view attribute, std::string_view message) {
  failed_ = true;
  ctx_.diagnostics().error(where(attribute),
                           "<" + std::string(tag()) + "> " + std::string(message));
}

void MbtXmlElement::warning(std::string_view message) {
  ctx_.diagnostics().warning(where(), "<" + std::string(tag()) + "> " + std::string(message));
}

void MbtXmlElement::warning(std::string_view attribute, std::string_view message) {
  ctx_.diagnostics().warning(where(attribute),
                             "<" + std::string(tag()) + "> " + std::string(message));
}

// --- MbtLoadContext ----------------------------------------------------------------------

MbtLoadContext::MbtLoadContext(MbtTree& tree, const XmlFile& file, const MbtNodeFactory& factory,
                               SignalNames& signals, NameTable<ActionNameId>& names,
                               MbtGroupScopes& scopes, MbtLuaRuntime& lua,
                               const MbtLibraryConfig& config, Diagnostics& diagnostics)
    : tree_(tree),
      file_(file),
      factory_(factory),
      signals_(signals),
      names_(names),
      scopes_(scopes),
      lua_(lua),
      config_(config),
      diagnostics_(diagnostics) {}

const std::string& MbtLoadContext::treeName() const { return tree_.name_; }

size_t MbtLoadContext::loadedChildCount() const {
  return stack_.empty() ? 0 : stack_.back().children.size();
}

std::optional<MbtNodeIndex> MbtLoadContext::createNode(pugi::xml_node element) {
  const Location at{&file_, file_.lineOf(element), nullptr};
  const std::string tag = element.name();
  if (depth_ >= kMaxMbtDepth) {
    diagnostics_.error(at, "<" + tag + "> nests deeper than " + std::to_string(kMaxMbtDepth) +
                               " levels");
    return std::nullopt;
  }
  std::string_view registered;
  std::unique_ptr<MbtNode> node = factory_.create(tag, registered);
  if (!node) {
    std::string message = "<" + tag + "> is not a known node type";
    NameSuggester near(tag);
    for (const std::string& name : factory_.names()) near.consider(name);
    if (const std::string_view same = factory_.sameIgnoringCase(tag); !same.empty()) {
      message += " (node types are case-sensitive: did you mean <" + std::string(same) + ">?)";
    } else if (const auto guess = near.best()) {
      message += " (did you mean <" + *guess + ">?)";
    } else {
      message += " (register it with the node factory)";
    }
    diagnostics_.error(at, message);
    return std::nullopt;
  }
  if (tree_.nodes_.size() >= kMaxMbtNodes) {
    diagnostics_.error(at, "tree has more than " + std::to_string(kMaxMbtNodes) + " nodes");
    return std::nullopt;
  }
  const auto index = static_cast<uint16_t>(tree_.nodes_.size());
  MbtNode* raw_node = node.get();
  raw_node->index_ = index;
  raw_node->line_ = at.line;
  raw_node->type_ = registered;
  tree_.nodes_.push_back(std::move(node));
  child_lists_.emplace_back();

  MbtXmlElement xml(element, *this);
  const auto start = xml.string("_startLog");
  const auto success = xml.string("_successLog");
  const auto failure = xml.string("_failureLog");
  if (start || success || failure) {
    raw_node->logs_ = std::make_unique<std::array<std::string, 3>>();
    (*raw_node->logs_)[0] = start.value_or("");
    (*raw_node->logs_)[1] = success.value_or("");
    (*raw_node->logs_)[2] = failure.value_or("");
  }
  stack_.emplace_back();
  ++depth_;
  bool ok = raw_node->load(xml, *this);
  --depth_;
  child_lists_[index] = std::move(stack_.back().children);
  stack_.pop_back();
  if (!xml.childrenHandled() && element.find_child([](pugi::xml_node c) {
        return c.type() == pugi::node_element;
      })) {
    xml.error("takes no child nodes");
  }
  if (xml.failed()) ok = false;
  if (!ok) return std::nullopt;
  return static_cast<MbtNodeIndex>(index);
}

std::optional<MbtNodeIndex> MbtLoadContext::loadChild(pugi::xml_node element) {
  const std::optional<MbtNodeIndex> index = createNode(element);
  if (index && !stack_.empty()) stack_.back().children.push_back(raw(*index));
  return index;
}

bool MbtLoadContext::loadChildren(MbtXmlElement& parent, size_t min, size_t max) {
  const std::vector<pugi::xml_node> elements = parent.children();
  bool ok = true;
  const size_t n = elements.size();
  if (n < min || n > max) {
    std::string expected;
    size_t bound = max;
    if (min == max) {
      expected = "takes exactly ";
      bound = min;
    } else if (n < min) {
      expected = "needs at least ";
      bound = min;
    } else {
      expected = "takes at most ";
    }
    expected += std::to_string(bound) + (bound == 1 ? " child node" : " child nodes");
    parent.error(expected + ", has " + std::to_string(n));
    ok = false;
  }
  for (pugi::xml_node element : elements) ok &= loadChild(element).has_value();
  return ok;
}

bool MbtLoadContext::condition(MbtXmlElement& xml, std::string_view attribute,
                               CompiledCondition& out, bool required, bool empty_is_true) {
  out = {};
  const auto text = xml.string(attribute, required);
  if (!text) return !required;
  if (trim(*text).empty()) {
    if (empty_is_true) return true;
    xml.error(attribute, std::string(attribute) + " is empty");
    return false;
  }
  std::string error;
  std::vector<std::string> warnings;
  const MbtTree& tree = tree_;
  const VariableResolver resolve = [&tree](std::string_view name) {
    return tree.variableIndex(name);
  };
  const UnknownNameHint hint = [&tree](std::string_view name) {
    NameSuggester near(name);
    for (size_t v = 0; v < tree.variableCount(); ++v) near.consider(tree.variableName(v));
    return near.hint();
  };
  if (!compileCondition(*text, resolve, tree_.code_, out, error, warnings, hint)) {
    xml.error(attribute, std::string(attribute) + " " + quoted(*text) + ": " + error);
    return false;
  }
  for (const std::string& w : warnings) {
    xml.warning(attribute, std::string(attribute) + " " + quoted(*text) + ": " + w);
  }
  return true;
}

std::optional<uint8_t> MbtLoadContext::timestamp(MbtXmlElement& xml, std::string_view attribute,
                                                 bool required) {
  const auto name = xml.name(attribute, required);
  if (!name) return std::nullopt;
  const int index = tree_.timestampIndex(*name);
  if (index < 0) {
    xml.error(attribute, std::string(attribute) + " " + quoted(*name) +
                             " is not a declared timestamp");
    return std::nullopt;
  }
  return static_cast<uint8_t>(index);
}

std::optional<int> MbtLoadContext::lua(MbtXmlElement& xml, std::string_view attribute,
                                       bool required) {
  const auto code = xml.string(attribute, required);
  if (!code) {
    if (required) return std::nullopt;
    return -1;
  }
  const uint32_t line = xml.lineOf(attribute);
  std::string error;
  const std::optional<int> chunk = lua_.compile(*code, file_.name, line, error);
  if (!chunk) {
    // Lua says "file:line: why"; drop the location when it is the attribute's own.
    const std::string own = file_.name + ":" + std::to_string(line) + ": ";
    if (error.compare(0, own.size(), own) == 0) error.erase(0, own.size());
    xml.error(attribute, std::string(attribute) + " does not compile: " + error);
  }
  return chunk;
}

SignalId MbtLoadContext::signal(std::string_view name) { return signals_.intern(name); }

ActionNameId MbtLoadContext::name(std::string_view name) { return names_.intern(name); }

GroupScopeId MbtLoadContext::scope(std::string_view name) { return scopes_.intern(name); }

}  // namespace npc
