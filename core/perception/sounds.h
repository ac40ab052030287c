// Sound events: what a noise is, and how loud a moving body's footsteps are.
//
// A Sound is queued with PerceptionSystem::addSound() during ingest and delivered at the next
// perception phase to every listener within earshot (see perception_system.h for the
// hearing rule). Kind-specific lifetimes and threat weights live in PerceptionConfig.
//
// Footsteps (GameSDK Player.cpp defaults, see ../shared/PERCEPTION-REFERENCE.md §1.4):
//   radius = (4 m standing | 2 m crouched) + speed_mps × (2.5 standing | 2.0 crouched)
//   radius ×= (1 − noise_suppression)
// Clients that stream movement instead of footstep sounds can let npcd derive them with
// footstepFromMovement(): the stance comes from the eye height, the speed from the velocity.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

#include "world/entity.h"
#include "world/ids.h"
#include "world/vec3.h"

namespace npc {

// The kinds CryEngine distinguishes for listeners (PerceptionManager stimulus types).
enum class SoundKind : uint8_t {
  kGeneric,       // anything else
  kFootstep,      // movement
  kCollision,     // physics impacts, doors, breaking things
  kGunshot,       // weapon fire
  kExplosion,
  kBulletImpact,  // a bullet hitting near the listener (also raises OnBulletRain up close)
};
inline constexpr size_t kSoundKindCount = 6;

std::string_view toString(SoundKind kind);
// "generic", "footstep", "collision", "gunshot", "explosion", "bullet_impact".
std::optional<SoundKind> parseSoundKind(std::string_view text);

struct Sound {
  Vec3 position;
  float radius_m = 0.f;             // heard by a listener when distance / hearing_scale <= this
  SoundKind kind = SoundKind::kGeneric;
  EntityId source = EntityId::kNone;  // who made it; kNone for anonymous noises
  float threat = -1.f;              // 0..1; negative: the kind's default threat weight
};

enum class Stance : uint8_t { kStand, kCrouch };

struct FootstepConfig {
  float stand_base_m = 4.f;
  float crouch_base_m = 2.f;
  float stand_per_mps = 2.5f;      // extra metres of radius per m/s of speed
  float crouch_per_mps = 2.f;
  float crouch_eye_height_m = 1.2f;  // footstepFromMovement: eye lower than this = crouched
  float min_speed_mps = 0.1f;        // slower than this makes no footstep
};

// Radius of one footstep. [Limit: noise_suppression clamped to 0..1; speed < 0 counts as 0]
float footstepRadius(const FootstepConfig& config, Stance stance, float speed_mps,
                     float noise_suppression = 0.f);

// The footstep sound `mover` makes this tick, or nullopt when it moves slower than
// min_speed_mps (or is inactive). Speed is the horizontal length of its velocity.
std::optional<Sound> footstepFromMovement(const FootstepConfig& config, const Entity& mover,
                                          float noise_suppression = 0.f);

}  // namespace npc
