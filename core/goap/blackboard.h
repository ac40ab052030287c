// Blackboard: typed scratch memory that planners and behaviors share.
//
// A BlackboardSchema (one per GoapLibrary) interns key names with a type at load; domains,
// behaviors and the wiring code all ask it for typed handles (BlackboardKey<T>), so a key is
// read and written as one type everywhere and the runtime never compares strings.
// A Blackboard is the per-agent (or per-group) storage: a fixed inline array of
// kMaxBlackboardKeys 12-byte slots, no heap, trivially copyable (≈400 bytes).
//
// Coordination: two planners on one agent (e.g. movement and attack) read the same agent
// blackboard; conditions {"blackboard": key} see its values, and actions' "on_success" writes
// are applied by PlanRunner when a step succeeds. A group blackboard (squad) is a second
// Blackboard the caller owns per group and passes alongside.
//
// Thread: owned by the tick thread.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "goap/goap_types.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc::goap {

enum class BlackboardType : uint8_t { kBool, kInt, kFloat, kEntity, kVec3 };
const char* toString(BlackboardType type);
std::optional<BlackboardType> parseBlackboardType(std::string_view text);

template <class T>
struct BlackboardTypeOf;
template <>
struct BlackboardTypeOf<bool> { static constexpr BlackboardType value = BlackboardType::kBool; };
template <>
struct BlackboardTypeOf<int32_t> { static constexpr BlackboardType value = BlackboardType::kInt; };
template <>
struct BlackboardTypeOf<float> { static constexpr BlackboardType value = BlackboardType::kFloat; };
template <>
struct BlackboardTypeOf<EntityId> {
  static constexpr BlackboardType value = BlackboardType::kEntity;
};
template <>
struct BlackboardTypeOf<Vec3> { static constexpr BlackboardType value = BlackboardType::kVec3; };

// A key whose value type is known at compile time. Default-constructed = invalid.
template <class T>
struct BlackboardKey {
  BlackboardKeyId id = BlackboardKeyId::kNone;
  bool valid() const { return id != BlackboardKeyId::kNone; }
};

class BlackboardSchema {
 public:
  // Declares `name` as `type`. Returns the key; the existing key when already declared with
  // the same type; kNone when declared before with another type or the schema is full
  // (kMaxBlackboardKeys). Loaders report kNone as a located error.
  BlackboardKeyId declare(std::string_view name, BlackboardType type);
  BlackboardKeyId find(std::string_view name) const;
  // Typed handle; invalid when the key is unknown or has another type.
  template <class T>
  BlackboardKey<T> key(std::string_view name) const {
    const BlackboardKeyId id = find(name);
    if (id == BlackboardKeyId::kNone || type(id) != BlackboardTypeOf<T>::value) return {};
    return {id};
  }
  BlackboardType type(BlackboardKeyId id) const { return types_[idx(id)]; }
  const std::string& name(BlackboardKeyId id) const { return names_[idx(id)]; }
  size_t size() const { return names_.size(); }

 private:
  std::vector<std::string> names_;
  std::vector<BlackboardType> types_;
};

class Blackboard {
 public:
  template <class T>
  void set(BlackboardKey<T> key, const T& value) {
    if (!key.valid()) return;
    Slot s{};
    static_assert(sizeof(T) <= sizeof(Slot));
    std::memcpy(s.data(), &value, sizeof(T));
    write(key.id, BlackboardTypeOf<T>::value, s);
  }
  template <class T>
  std::optional<T> get(BlackboardKey<T> key) const {
    if (!key.valid() || !has(key.id) || types_[idx(key.id)] != BlackboardTypeOf<T>::value)
      return std::nullopt;
    T out{};
    std::memcpy(static_cast<void*>(&out), slots_[idx(key.id)].data(), sizeof(T));
    return out;
  }
  template <class T>
  T getOr(BlackboardKey<T> key, T fallback) const {
    auto v = get(key);
    return v ? *v : fallback;
  }

  bool has(BlackboardKeyId id) const {
    return id != BlackboardKeyId::kNone && (set_ >> idx(id)) & 1u;
  }
  void erase(BlackboardKeyId id);
  void clear();

  // Numeric view used by planner conditions: bool → 0/1, int, float; nullopt for unset
  // keys and for entity / vec3 values.
  std::optional<float> number(BlackboardKeyId id) const;
  // Writes a bool/int/float key from a number (the domain's "on_success" writes).
  void setNumber(BlackboardKeyId id, BlackboardType type, float value);

  // Bumps whenever a value changes (not when the same value is written again).
  uint32_t version() const { return version_; }

  // Raw access for snapshots (state/goap_codec): a key's type and its three value words,
  // written back unchanged by restoreRaw. Meaningful only under the same domain schema.
  using Slot = std::array<uint32_t, 3>;
  BlackboardType rawType(BlackboardKeyId id) const { return types_[idx(id)]; }
  const Slot& rawSlot(BlackboardKeyId id) const { return slots_[idx(id)]; }
  void restoreRaw(BlackboardKeyId id, BlackboardType type, const Slot& value) {
    write(id, type, value);
  }

 private:
  void write(BlackboardKeyId id, BlackboardType type, const Slot& value);

  std::array<Slot, kMaxBlackboardKeys> slots_{};
  std::array<BlackboardType, kMaxBlackboardKeys> types_{};
  uint32_t set_ = 0;  // bit per key
  uint32_t version_ = 0;
};

static_assert(kMaxBlackboardKeys <= 32, "Blackboard::set_ is one 32-bit mask");

}  // namespace npc::goap
