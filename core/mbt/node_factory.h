// MbtNodeFactory: node types by tag name. The library registers the standard nodes; a game
// adds its own (or replaces a standard one) before loading trees:
//
//   library.factory().add<FlyNode>("Fly");
//   NPC_MBT_REGISTER_NODE(library.factory(), Hover);      // registers class Hover as "Hover"
//
// Lookups are exact and case-sensitive, as CryEngine's; a tag that is not registered fails
// the tree's load with a located error (naming a registered type that differs only in case).
// Registration affects the next load/reload, never trees already loaded. Names stay
// registered for the factory's life (nodes keep a view of them).
//
// Action nodes (Move, Shoot, Bubble, ...) are registered with addAction: each asks the host
// for an action named after its type, so whoever hosts trees (the simulation) reads
// actionNames() to make every one of them performable, a game's own included.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "mbt/node.h"

namespace npc {

using MbtNodeCreator = std::function<std::unique_ptr<MbtNode>()>;

class MbtNodeFactory {
 public:
  // Registers `name`; false (and nothing changes) when it is already registered.
  bool add(std::string name, MbtNodeCreator creator);
  template <class T>
  bool add(std::string name) {
    return add(std::move(name), [] { return std::unique_ptr<MbtNode>(std::make_unique<T>()); });
  }
  // Registers `name` as an action node: the host must accept an action of that name.
  bool addAction(std::string name, MbtNodeCreator creator);
  // Registers or replaces `name` (e.g. a game's own QueryTPS); an action node stays one.
  void set(std::string name, MbtNodeCreator creator);
  template <class T>
  void set(std::string name) {
    set(std::move(name), [] { return std::unique_ptr<MbtNode>(std::make_unique<T>()); });
  }

  bool contains(std::string_view name) const { return entries_.find(name) != entries_.end(); }
  // A new node of type `name` and the registered spelling (stable for the factory's life);
  // nullptr when unknown.
  std::unique_ptr<MbtNode> create(std::string_view name, std::string_view& registered) const;
  // A registered name equal to `name` ignoring case, or "".
  std::string_view sameIgnoringCase(std::string_view name) const;
  std::vector<std::string> names() const;
  // The types registered with addAction, sorted: the actions trees can start by node type.
  std::vector<std::string> actionNames() const;
  // Changes with every add/set: trees built before are rebuilt by the next reload.
  uint32_t revision() const { return revision_; }

 private:
  uint32_t revision_ = 0;
  struct Entry {
    MbtNodeCreator creator;
    bool action = false;
  };
  std::map<std::string, Entry, std::less<>> entries_;
};

#define NPC_MBT_REGISTER_NODE(factory, Type) (factory).add<Type>(#Type)

}  // namespace npc
