// The world's entity table: a DenseTable of Entity rows keyed by client-given EntityId.
#pragma once

#include "base/dense_table.h"
#include "world/entity.h"

namespace npc {

using EntityTable = DenseTable<Entity, EntityId>;

}  // namespace npc
