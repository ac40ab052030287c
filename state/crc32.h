// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320): the snapshot body's checksum.
#pragma once

#include <cstdint>
#include <string_view>

namespace npc {

// crc32("123456789") == 0xCBF43926.
uint32_t crc32(std::string_view bytes);

}  // namespace npc
