#include "perception/sounds.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "world/limits.h"

namespace npc {

namespace {

constexpr std::array<std::string_view, kSoundKindCount> kSoundKindNames = {
    "generic", "footstep", "collision", "gunshot", "explosion", "bullet_impact"};

}  // namespace

std::string_view toString(SoundKind kind) {
  const auto i = static_cast<size_t>(kind);
  return i < kSoundKindNames.size() ? kSoundKindNames[i] : std::string_view("unknown");
}

std::optional<SoundKind> parseSoundKind(std::string_view text) {
  for (size_t i = 0; i < kSoundKindNames.size(); ++i) {
    if (kSoundKindNames[i] == text) return static_cast<SoundKind>(i);
  }
  return std::nullopt;
}

float footstepRadius(const FootstepConfig& config, Stance stance, float speed_mps,
                     float noise_suppression) {
  const bool crouched = stance == Stance::kCrouch;
  const float speed = std::max(0.f, speed_mps);
  const float base = crouched ? config.crouch_base_m : config.stand_base_m;
  const float per = crouched ? config.crouch_per_mps : config.stand_per_mps;
  const float radius = (base + speed * per) * (1.f - std::clamp(noise_suppression, 0.f, 1.f));
  // A client's velocity is bounded per axis; the footstep it implies is bounded like a sound.
  return std::min(radius, static_cast<float>(kMaxSoundRadiusM));
}

std::optional<Sound> footstepFromMovement(const FootstepConfig& config, const Entity& mover,
                                          float noise_suppression) {
  if (!mover.active) return std::nullopt;
  // Vertical speed (falling, lifts) makes no footsteps.
  const float speed = std::sqrt(mover.velocity.x * mover.velocity.x +
                                mover.velocity.y * mover.velocity.y);
  if (!(speed >= config.min_speed_mps)) return std::nullopt;
  const Stance stance =
      mover.eye_height_m < config.crouch_eye_height_m ? Stance::kCrouch : Stance::kStand;
  Sound sound;
  sound.position = mover.position;
  sound.radius_m = footstepRadius(config, stance, speed, noise_suppression);
  sound.kind = SoundKind::kFootstep;
  sound.source = mover.id;
  return sound;
}

}  // namespace npc
