// Typed action arguments (seed 004, "The perform methods"): the invokers, receivers and
// parameters an intention carries to its action. The seed's perform(name, invokers,
// receivers, parameters) becomes one flat list where every argument has a role:
//   - the agent performing the intention is always the first invoker and is implicit;
//     further invokers (two people carrying a table) are arguments with role kInvoker;
//   - the entities acted upon are arguments with role kReceiver;
//   - everything else is a kParam.
// Parameter types, as the seed lists them: an entity id; a typed value with a unit (a time
// delay, a date, a distance, a weight); a position in a place; a type of entity (an
// influence, a product type); a message; a group of entities.
//
// An ActionArg is 24 bytes, trivially copyable and carries no pointers, so intentions can
// be copied, compared and written to hibernation snapshots as plain bytes. All names
// (argument name, unit, entity type, message) are ActionNameIds, indices in the NameTable
// that interns action names (Simulation::names()), which is also what ActionOut's params
// use; ActionNameId::kNone means "none" and reads back as an empty string.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

enum class ArgType : uint8_t {
  kEntity,      // entity              (an EntityId)
  kValue,       // value + unit        ("10" "min", "2.5" "kg")
  kPosition,    // position + place    (coordinates in metres, in `place`)
  kEntityType,  // text                (interned type name: "Bread", "spell:levitate")
  kMessage,     // text                (interned message: "breads_ready")
  kGroup,       // group               (a group id of the game's)
};
enum class ArgRole : uint8_t { kParam, kInvoker, kReceiver };

std::string_view toString(ArgType type);
std::string_view toString(ArgRole role);

struct ActionArg {
  ArgType type = ArgType::kEntity;
  ArgRole role = ArgRole::kParam;
  ActionNameId name = ActionNameId::kNone;  // optional argument name ("key", "target")
  ActionNameId unit = ActionNameId::kNone;  // kValue: unit ("s", "min", "m", "kg")
  PlaceIndex place = PlaceIndex::kNone;   // kPosition: the place the coordinates are in
  // `raw` zeroes the whole union (bytes a shorter member leaves alone included): intention
  // queues are kept in snapshots as their bytes. All zero is entity kNone.
  union {
    std::array<std::byte, 16> raw{};
    EntityId entity;                      // kEntity
    double value;                         // kValue
    struct { float x, y, z; } xyz;        // kPosition (see position())
    uint16_t text_index;                  // kEntityType, kMessage (see text())
    uint32_t group;                       // kGroup
  };

  Vec3 position() const { return {xyz.x, xyz.y, xyz.z}; }
  ActionNameId text() const { return ActionNameId{text_index}; }

  static ActionArg ofEntity(EntityId id, ArgRole role = ArgRole::kParam,
                            ActionNameId name = ActionNameId::kNone);
  static ActionArg ofValue(double value, ActionNameId unit,
                           ActionNameId name = ActionNameId::kNone);
  static ActionArg ofPosition(Vec3 position, PlaceIndex place,
                              ActionNameId name = ActionNameId::kNone);
  static ActionArg ofEntityType(ActionNameId type_name, ActionNameId name = ActionNameId::kNone);
  static ActionArg ofMessage(ActionNameId message, ActionNameId name = ActionNameId::kNone);
  static ActionArg ofGroup(uint32_t group, ArgRole role = ArgRole::kParam,
                           ActionNameId name = ActionNameId::kNone);

  // Compares type, role, name and the payload of the type (unit and place where they apply).
  friend bool operator==(const ActionArg& a, const ActionArg& b);
};
// 8 bytes of fields and the 16-byte union: no padding, so a copy is the same bytes.
static_assert(sizeof(ActionArg) == 24);

// Access helpers for actions. All return nullptr when there is no such argument.
// The n-th (0-based) argument with `role`, in argument order.
const ActionArg* nthArg(std::span<const ActionArg> args, ArgRole role, unsigned n = 0);
// The n-th argument of `type` with role kParam.
const ActionArg* nthParam(std::span<const ActionArg> args, ArgType type, unsigned n = 0);
// The first argument named `name`.
const ActionArg* namedArg(std::span<const ActionArg> args, ActionNameId name);
// How many arguments have `role`.
unsigned countArgs(std::span<const ActionArg> args, ArgRole role);

}  // namespace npc
