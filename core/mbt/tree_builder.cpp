#include "mbt/tree_builder.h"

#include <algorithm>
#include <map>

#include "base/did_you_mean.h"
#include "mbt/node.h"

namespace npc {
namespace {

std::string quoted(std::string_view text) { return "\"" + std::string(text) + "\""; }

}  // namespace

MbtTreeBuilder::MbtTreeBuilder(const XmlFile& file, std::string tree_name,
                               const MbtNodeFactory& factory, SignalNames& signals,
                               NameTable<ActionNameId>& names, MbtGroupScopes& scopes,
                               MbtLuaRuntime& lua, const MbtLibraryConfig& config,
                               Diagnostics& diagnostics)
    : file_(file),
      tree_(std::make_unique<MbtTree>()),
      diagnostics_(diagnostics),
      ctx_(*tree_, file, factory, signals, names, scopes, lua, config, diagnostics),
      errors_before_(diagnostics.errorCount()) {
  tree_->name_ = std::move(tree_name);
  tree_->file_ = file.name;
  tree_->source_ = file.text;
}

std::unique_ptr<MbtTree> MbtTreeBuilder::build() {
  const pugi::xml_node top = file_.doc.document_element();
  MbtXmlElement xml(top, ctx_);
  if (std::string_view(top.name()) != "BehaviorTree") {
    xml.acceptAll();
    diagnostics_.error(xml.where(), "root element is <" + std::string(top.name()) +
                                        ">; expected <BehaviorTree>");
    return nullptr;
  }
  if (auto finish = xml.choice("onRootFinished", {"reboot", "stop"})) {
    tree_->root_finish_ = *finish == 0 ? MbtRootFinish::kReboot : MbtRootFinish::kStop;
  }
  // Sections may come in any order; they are read in dependency order.
  std::map<std::string, pugi::xml_node> sections;
  for (pugi::xml_node child : xml.children()) {
    const std::string tag = child.name();
    if (tag == "MetaExtensions" || tag == "Events") continue;  // CryEngine 5 editor data
    if (tag != "Variables" && tag != "SignalVariables" && tag != "Timestamps" && tag != "Root") {
      diagnostics_.warning(Location{&file_, file_.lineOf(child), nullptr},
                           "<" + tag + "> is not a section of <BehaviorTree> and is ignored");
      continue;
    }
    auto [it, inserted] = sections.emplace(tag, child);
    if (!inserted) {
      diagnostics_.error(Location{&file_, file_.lineOf(child), nullptr},
                         "second <" + tag + "> section (the first is at line " +
                             std::to_string(file_.lineOf(it->second)) + ")");
    }
  }
  if (auto it = sections.find("Variables"); it != sections.end()) variables(it->second);
  if (auto it = sections.find("SignalVariables"); it != sections.end()) {
    signalVariables(it->second);
  }
  if (auto it = sections.find("Timestamps"); it != sections.end()) timestamps(it->second);
  if (auto it = sections.find("Root"); it != sections.end()) {
    root(it->second);
  } else {
    xml.error("needs a <Root> section");
  }
  if (diagnostics_.errorCount() != errors_before_) return nullptr;
  finish();
  return std::move(tree_);
}

void MbtTreeBuilder::variables(pugi::xml_node section) {
  MbtXmlElement xml(section, ctx_);
  for (pugi::xml_node child : xml.children()) {
    MbtXmlElement item(child, ctx_);
    if (item.tag() != "Variable") {
      item.acceptAll();
      item.error("is not allowed in <Variables>; expected <Variable name default>");
      continue;
    }
    const auto name = item.name("name", true);
    const auto value = item.boolean("default");
    if (!name) continue;
    if (tree_->variableIndex(*name) >= 0) {
      item.error("name", "duplicate variable " + quoted(*name));
      continue;
    }
    if (tree_->variable_names_.size() >= kMaxMbtVariables) {
      item.error("is one variable too many (at most " + std::to_string(kMaxMbtVariables) + ")");
      continue;
    }
    tree_->defaults_.set(static_cast<unsigned>(tree_->variable_names_.size()),
                         value.value_or(false));
    tree_->variable_names_.emplace_back(*name);
  }
}

void MbtTreeBuilder::signalVariables(pugi::xml_node section) {
  MbtXmlElement xml(section, ctx_);
  for (pugi::xml_node child : xml.children()) {
    MbtXmlElement item(child, ctx_);
    if (item.tag() != "Signal") {
      item.acceptAll();
      item.error("is not allowed in <SignalVariables>; expected <Signal name variable value>");
      continue;
    }
    const auto name = item.name("name", true);
    const auto variable = item.name("variable", true);
    MbtSignalAssignment a;
    const bool value_ok = ctx_.condition(item, "value", a.value, true);
    if (!name || !variable || !value_ok) continue;
    const int index = tree_->variableIndex(*variable);
    if (index < 0) {
      NameSuggester near(*variable);
      for (size_t v = 0; v < tree_->variableCount(); ++v) near.consider(tree_->variableName(v));
      item.error("variable", "variable " + quoted(*variable) + " is not declared in <Variables>" + near.hint());
      continue;
    }
    a.signal = ctx_.signal(*name);
    a.variable = static_cast<uint8_t>(index);
    tree_->assignments_.push_back(a);
  }
  std::stable_sort(tree_->assignments_.begin(), tree_->assignments_.end(),
                   [](const MbtSignalAssignment& x, const MbtSignalAssignment& y) {
                     return raw(x.signal) < raw(y.signal);
                   });
}

void MbtTreeBuilder::timestamps(pugi::xml_node section) {
  MbtXmlElement xml(section, ctx_);
  struct Exclusive {
    size_t timestamp;
    std::string to;
    Location at;
  };
  std::vector<Exclusive> exclusives;
  for (pugi::xml_node child : xml.children()) {
    MbtXmlElement item(child, ctx_);
    if (item.tag() != "Timestamp") {
      item.acceptAll();
      item.error("is not allowed in <Timestamps>; expected <Timestamp name setOnEvent>");
      continue;
    }
    const auto name = item.name("name", true);
    const auto event = item.name("setOnEvent", true);
    const auto exclusive = item.name("exclusiveTo");
    if (!name || !event) continue;
    if (tree_->timestampIndex(*name) >= 0) {
      item.error("name", "duplicate timestamp " + quoted(*name));
      continue;
    }
    if (tree_->timestamps_.size() >= kMaxMbtTimestamps) {
      item.error("is one timestamp too many");
      continue;
    }
    MbtTimestampDef def;
    def.name = *name;
    def.set_on = ctx_.signal(*event);
    def.line = item.line();
    if (exclusive) {
      exclusives.push_back({tree_->timestamps_.size(), std::string(*exclusive),
                            item.where("exclusiveTo")});
    }
    tree_->timestamps_.push_back(std::move(def));
  }
  // exclusiveTo may name a timestamp declared further down.
  for (const Exclusive& e : exclusives) {
    const int to = tree_->timestampIndex(e.to);
    if (to < 0) {
      diagnostics_.error(e.at, "<Timestamp> exclusiveTo " + quoted(e.to) +
                                   " is not a declared timestamp");
      continue;
    }
    tree_->timestamps_[e.timestamp].exclusive_to = static_cast<uint8_t>(to);
  }
}

void MbtTreeBuilder::root(pugi::xml_node section) {
  MbtXmlElement xml(section, ctx_);
  const std::vector<pugi::xml_node> nodes = xml.children();
  if (nodes.size() != 1) {
    xml.error("takes exactly 1 node, has " + std::to_string(nodes.size()));
    return;
  }
  ctx_.createNode(nodes[0]);
}

void MbtTreeBuilder::finish() {
  MbtTree& tree = *tree_;
  // Children as contiguous runs of pointers (never reallocated after this).
  size_t total = 0;
  for (const auto& list : ctx_.child_lists_) total += list.size();
  tree.children_.reserve(total);
  for (size_t i = 0; i < tree.nodes_.size(); ++i) {
    const std::vector<uint16_t>& list = ctx_.child_lists_[i];
    MbtNode& node = *tree.nodes_[i];
    node.child_count_ = static_cast<uint16_t>(list.size());
    node.children_ = tree.children_.data() + tree.children_.size();
    for (uint16_t child : list) tree.children_.push_back(tree.nodes_[child].get());
  }
  tree.slot_count_ = assignSlots(*tree.nodes_[0], 0);
  tree.shared_bytes_ = sizeof(MbtTree) + tree.children_.size() * sizeof(void*) +
                       tree.code_.size() * sizeof(ConditionInstr) +
                       tree.assignments_.size() * sizeof(MbtSignalAssignment) +
                       tree.timestamps_.size() * sizeof(MbtTimestampDef);
  for (const auto& node : tree.nodes_) {
    tree.shared_bytes_ += sizeof(*node) + 64;
    tree.needs_tick_thread_ = tree.needs_tick_thread_ || node->needsTickThread();
  }
}

// Nodes that may run at the same time get distinct slots; exclusive siblings share theirs.
// Returns how many slots the subtree uses.
uint16_t MbtTreeBuilder::assignSlots(MbtNode& node, uint16_t base) {
  node.slot_ = base;
  uint32_t width = 1;
  if (node.childrenRunConcurrently()) {
    uint32_t offset = base + 1u;
    for (uint16_t i = 0; i < node.child_count_; ++i) {
      offset += assignSlots(const_cast<MbtNode&>(*node.children_[i]),
                            static_cast<uint16_t>(offset));
    }
    width = offset - base;
  } else {
    for (uint16_t i = 0; i < node.child_count_; ++i) {
      width = std::max<uint32_t>(width, 1u + assignSlots(const_cast<MbtNode&>(*node.children_[i]),
                                                         static_cast<uint16_t>(base + 1u)));
    }
  }
  return static_cast<uint16_t>(width);
}

}  // namespace npc
