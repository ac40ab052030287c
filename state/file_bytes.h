// Byte-level helpers the state files share (snapshot_file, journal_file): little-endian
// 32-bit fields, writing a whole buffer to a descriptor, errors that name the file.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace npc {

void putU32(std::string& out, uint32_t value);
uint32_t getU32(std::string_view in, size_t at);  // [Limit: at + 4 <= in.size()]
// "<path>: <why>" as a kFailedPrecondition status.
Status fileError(const std::string& path, const std::string& why);
// write(2) until every byte is written (retrying EINTR); an error names the file.
Status writeAll(int fd, std::string_view bytes, const std::string& path);

}  // namespace npc
