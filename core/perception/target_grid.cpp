#include "perception/target_grid.h"

#include "world/lowest_indices.h"

namespace npc {

TargetGrid::TargetGrid(float cell_size_m)
    : cell_size_m_(cell_size_m), group_of_species_(size_t{0xffff} + 1, kNoGroup) {}

void TargetGrid::clear() {
  for (size_t g = 0; g < used_; ++g) {
    Group& group = groups_[g];
    if (group.key < kSeenByAll) group_of_species_[group.key] = kNoGroup;
    group.eyes.clear();
    group.targets.clear();
  }
  used_ = 0;
  seen_by_all_ = shared_ = kNoGroup;
  species_groups_ = 0;
}

TargetGrid::Group& TargetGrid::groupFor(uint32_t key) {
  if (used_ == groups_.size()) groups_.push_back({key, {}, {}, SpatialGrid(cell_size_m_, 4096)});
  Group& group = groups_[used_++];
  group.key = key;
  return group;
}

void TargetGrid::add(uint32_t index, Vec3 eye, std::optional<SpeciesId> hidden_from) {
  uint8_t* slot = &shared_;
  uint32_t key = kShared;
  if (!hidden_from) {
    slot = &seen_by_all_;
    key = kSeenByAll;
  } else if (group_of_species_[raw(*hidden_from)] != kNoGroup ||
             species_groups_ < kMaxSpeciesGroups) {
    slot = &group_of_species_[raw(*hidden_from)];
    key = raw(*hidden_from);
  }
  if (*slot == kNoGroup) {
    *slot = static_cast<uint8_t>(used_);
    if (key < kSeenByAll) ++species_groups_;
    groupFor(key);
  }
  Group& group = groups_[*slot];
  group.eyes.push_back(eye);
  group.targets.push_back(index);
}

void TargetGrid::build() {
  for (size_t g = 0; g < used_; ++g) groups_[g].grid.rebuild(groups_[g].eyes, groups_[g].targets);
}

uint32_t TargetGrid::query(Vec3 eye, float radius_m, SpeciesId viewer, std::span<uint32_t> out,
                           bool* truncated) const {
  LowestIndices kept(out);
  for (size_t g = 0; g < used_; ++g) {
    const Group& group = groups_[g];
    if (group.key == raw(viewer)) continue;
    group.grid.forEachInRadius(eye, radius_m, [&](uint32_t target) { kept.add(target); });
  }
  if (truncated) *truncated = kept.truncated();
  return kept.finish();
}

}  // namespace npc
