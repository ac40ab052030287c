#include "mbt/node_factory.h"

#include "bst/xml_source.h"  // equalsNoCase

namespace npc {

bool MbtNodeFactory::add(std::string name, MbtNodeCreator creator) {
  const bool added = entries_.emplace(std::move(name), Entry{std::move(creator), false}).second;
  if (added) ++revision_;
  return added;
}

bool MbtNodeFactory::addAction(std::string name, MbtNodeCreator creator) {
  const bool added = entries_.emplace(std::move(name), Entry{std::move(creator), true}).second;
  if (added) ++revision_;
  return added;
}

void MbtNodeFactory::set(std::string name, MbtNodeCreator creator) {
  auto it = entries_.find(name);
  if (it == entries_.end()) {
    entries_.emplace(std::move(name), Entry{std::move(creator), false});
  } else {
    it->second.creator = std::move(creator);
  }
  ++revision_;
}

std::unique_ptr<MbtNode> MbtNodeFactory::create(std::string_view name,
                                                std::string_view& registered) const {
  auto it = entries_.find(name);
  if (it == entries_.end()) return nullptr;
  registered = it->first;
  return it->second.creator();
}

std::string_view MbtNodeFactory::sameIgnoringCase(std::string_view name) const {
  for (const auto& [key, entry] : entries_) {
    if (equalsNoCase(key, name)) return key;
  }
  return {};
}

std::vector<std::string> MbtNodeFactory::names() const {
  std::vector<std::string> out;
  out.reserve(entries_.size());
  for (const auto& entry : entries_) out.push_back(entry.first);
  return out;
}

std::vector<std::string> MbtNodeFactory::actionNames() const {
  std::vector<std::string> out;
  for (const auto& [name, entry] : entries_) {
    if (entry.action) out.push_back(name);
  }
  return out;
}

}  // namespace npc
