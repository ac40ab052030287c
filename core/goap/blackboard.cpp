#include "goap/blackboard.h"

namespace npc::goap {

const char* toString(BlackboardType type) {
  switch (type) {
    case BlackboardType::kBool: return "bool";
    case BlackboardType::kInt: return "int";
    case BlackboardType::kFloat: return "float";
    case BlackboardType::kEntity: return "entity";
    case BlackboardType::kVec3: return "vec3";
  }
  return "?";
}

std::optional<BlackboardType> parseBlackboardType(std::string_view text) {
  if (text == "bool") return BlackboardType::kBool;
  if (text == "int") return BlackboardType::kInt;
  if (text == "float") return BlackboardType::kFloat;
  if (text == "entity") return BlackboardType::kEntity;
  if (text == "vec3") return BlackboardType::kVec3;
  return std::nullopt;
}

BlackboardKeyId BlackboardSchema::declare(std::string_view name, BlackboardType type) {
  const BlackboardKeyId existing = find(name);
  if (existing != BlackboardKeyId::kNone)
    return types_[idx(existing)] == type ? existing : BlackboardKeyId::kNone;
  if (names_.size() >= static_cast<size_t>(kMaxBlackboardKeys)) return BlackboardKeyId::kNone;
  names_.emplace_back(name);
  types_.push_back(type);
  return static_cast<BlackboardKeyId>(names_.size() - 1);
}

BlackboardKeyId BlackboardSchema::find(std::string_view name) const {
  for (size_t i = 0; i < names_.size(); ++i)
    if (names_[i] == name) return static_cast<BlackboardKeyId>(i);
  return BlackboardKeyId::kNone;
}

void Blackboard::write(BlackboardKeyId id, BlackboardType type, const Slot& value) {
  const auto i = idx(id);
  if (i >= kMaxBlackboardKeys) return;
  if (has(id) && types_[i] == type && slots_[i] == value) return;
  slots_[i] = value;
  types_[i] = type;
  set_ |= 1u << i;
  ++version_;
}

void Blackboard::erase(BlackboardKeyId id) {
  if (!has(id)) return;
  set_ &= ~(1u << idx(id));
  ++version_;
}

void Blackboard::clear() {
  if (set_ == 0) return;
  set_ = 0;
  ++version_;
}

std::optional<float> Blackboard::number(BlackboardKeyId id) const {
  if (!has(id)) return std::nullopt;
  const Slot& s = slots_[idx(id)];
  switch (types_[idx(id)]) {
    case BlackboardType::kBool: {
      bool b;
      std::memcpy(&b, s.data(), sizeof b);
      return b ? 1.f : 0.f;
    }
    case BlackboardType::kInt: {
      int32_t v;
      std::memcpy(&v, s.data(), sizeof v);
      return static_cast<float>(v);
    }
    case BlackboardType::kFloat: {
      float v;
      std::memcpy(&v, s.data(), sizeof v);
      return v;
    }
    default: return std::nullopt;
  }
}

void Blackboard::setNumber(BlackboardKeyId id, BlackboardType type, float value) {
  switch (type) {
    case BlackboardType::kBool: set(BlackboardKey<bool>{id}, value != 0.f); break;
    case BlackboardType::kInt: set(BlackboardKey<int32_t>{id}, static_cast<int32_t>(value)); break;
    case BlackboardType::kFloat: set(BlackboardKey<float>{id}, value); break;
    default: break;
  }
}

}  // namespace npc::goap
