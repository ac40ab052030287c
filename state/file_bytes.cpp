#include "file_bytes.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace npc {

void putU32(std::string& out, uint32_t value) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((value >> (8 * i)) & 0xFFu));
}

uint32_t getU32(std::string_view in, size_t at) {
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= static_cast<uint32_t>(static_cast<uint8_t>(in[at + i])) << (8 * i);
  return v;
}

Status fileError(const std::string& path, const std::string& why) {
  return {StatusCode::kFailedPrecondition, path + ": " + why};
}

Status writeAll(int fd, std::string_view bytes, const std::string& path) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fileError(path, std::string("cannot write: ") + std::strerror(errno));
    }
    done += static_cast<size_t>(n);
  }
  return {};
}

}  // namespace npc
