// A small world with inventories for the inventory actions (Take, Drop, Give): a World, a
// few agents' inventories and an item name table, behind the InventoryModel interface the
// daemon-side actions use.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include <catch2/catch.hpp>

#include "intent/inventory_actions.h"
#include "intent/inventory_model.h"
#include "intent_fixture.h"
#include "world/world.h"

namespace npc::test {

class TestInventories final : public InventoryModel {
 public:
  explicit TestInventories(const NameTable<ActionNameId>& action_names) : names_(action_names) {
    agents_.reserve(8);
  }

  World world;
  NameTable<ItemId> items;

  // Adds an entity to the world; an agent also gets an (empty) inventory.
  EntityHandle add(EntityId id, EntityKind kind, Vec3 position, std::string_view species = {}) {
    const EntityHandle h = world.entities().insert(id);
    Entity* e = world.entities().get(h);
    e->kind = kind;
    e->position = position;
    if (!species.empty()) e->species = world.species().intern(species);
    if (kind == EntityKind::kNpc) agents_.push_back({id, Inventory{}});
    return h;
  }
  int32_t count(EntityId agent, std::string_view item) {
    const Inventory* inv = inventoryOf(agent);
    const ItemId id = items.find(item);
    return inv && id != ItemId::kNone ? inv->count(id) : 0;
  }

  Inventory* inventoryOf(EntityId agent) override {
    for (auto& [id, inv] : agents_) {
      if (id == agent) return &inv;
    }
    return nullptr;
  }
  ItemId findItem(ActionNameId name) const override {
    return name == ActionNameId::kNone ? ItemId::kNone : items.find(names_.name(name));
  }
  ItemId internItem(ActionNameId name) override {
    return name == ActionNameId::kNone ? ItemId::kNone : items.intern(names_.name(name));
  }
  ItemId itemOf(const Entity& object) override {
    if (object.species == SpeciesId::kNone) return ItemId::kNone;
    return items.intern(world.species().name(object.species));
  }
  void removeFromWorld(EntityId object) override { world.entities().remove(object); }

 private:
  const NameTable<ActionNameId>& names_;
  std::vector<std::pair<EntityId, Inventory>> agents_;
};

// Raoul (agent 1) with Take, Drop and Give in his own list, in a TestInventories world.
struct InventoryFixture : IntentFixture {
  TestInventories model{names};
  ActionListId own = registry.createOwnList("Villager");
  ActionNameId take, drop, give;

  InventoryFixture() {
    registry.addTo(own, "Take", std::make_unique<TakeAction>(names));
    registry.addTo(own, "Drop", std::make_unique<DropAction>(names));
    registry.addTo(own, "Give", std::make_unique<GiveAction>(names));
    take = names.find("Take");
    drop = names.find("Drop");
    give = names.find("Give");
    scheduler.setEnv({&model.world, nullptr, &model});
    agent.access.setOwn(own);
    agent_id = EntityId{1};
    agent_entity = model.add(agent_id, EntityKind::kNpc, {0.f, 0.f, 0.f});
    quantum = 10.f;
  }

  // Programs `action` with `args` now and runs one turn; returns the events as lines.
  Lines run(ActionNameId action, std::vector<ActionArg> args) {
    REQUIRE(tree().program(now, action, args).ok());
    tick();
    return drain();
  }
  // The reason the last event carries ("out_of_reach"), "" for none.
  std::string detail() const { return seen.empty() ? "" : names.name(seen.back().detail); }
  ActionArg item(std::string_view name) { return ActionArg::ofMessage(names.intern(name)); }
};

}  // namespace npc::test
