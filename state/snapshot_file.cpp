#include "snapshot_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include <fcntl.h>
#include <unistd.h>

#include "crc32.h"
#include "file_bytes.h"

namespace npc {

namespace {

constexpr char kMagic[8] = {'N', 'P', 'C', 'S', 'N', 'A', 'P', '\n'};
constexpr size_t kPrefix = sizeof(kMagic) + 4;

Status failed(const std::string& name, const std::string& why) { return fileError(name, why); }

std::string hex32(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

std::string directoryOf(const std::string& path) {
  const auto slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

std::string encodeSnapshot(const pb::SimState& state, const SnapshotInfo& info) {
  const std::string body = state.SerializeAsString();
  pb::SnapshotHeader header;
  header.set_format_version(kSnapshotFormatVersion);
  header.set_definitions_hash(info.definitions_hash);
  header.set_tick(state.tick());
  header.set_sim_time_s(info.sim_time_s);
  header.set_world_seed(info.world_seed);
  header.set_body_crc32(crc32(body));
  header.set_body_bytes(body.size());
  header.set_agents(static_cast<uint32_t>(state.agents_size() + state.hibernation().dormant_size()));
  const std::string head = header.SerializeAsString();
  std::string out;
  out.reserve(kPrefix + head.size() + body.size());
  out.append(kMagic, sizeof kMagic);
  const auto n = static_cast<uint32_t>(head.size());
  putU32(out, n);
  out += head;
  out += body;
  return out;
}

Status writeFileAtomically(const std::string& path, const std::string& bytes) {
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return failed(temp, std::string("cannot create: ") + std::strerror(errno));
  Status written = writeAll(fd, bytes, temp);
  if (written.isOk() && ::fsync(fd) != 0) {
    written = failed(temp, std::string("cannot fsync: ") + std::strerror(errno));
  }
  ::close(fd);
  if (!written.isOk()) {
    ::unlink(temp.c_str());
    return written;
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(temp.c_str());
    return failed(path, "cannot rename the temporary file into place: " + why);
  }
  // The rename itself is durable only once the directory is.
  const int dir = ::open(directoryOf(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return {};
}

Status decodeSnapshot(const std::string& name, const std::string& bytes,
                      const std::string& definitions_hash, pb::SnapshotHeader& header,
                      pb::SimState& state) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return failed(name, "not an npcd snapshot (no NPCSNAP header)");
  }
  if (bytes.size() < kPrefix) {
    return failed(name, "truncated: " + std::to_string(bytes.size()) + " bytes, the header is missing");
  }
  const uint32_t head_bytes = getU32(bytes, sizeof kMagic);
  if (bytes.size() - kPrefix < head_bytes) {
    return failed(name, "truncated: the header needs " + std::to_string(head_bytes) +
                            " bytes, " + std::to_string(bytes.size() - kPrefix) + " are left");
  }
  if (!header.ParseFromArray(bytes.data() + kPrefix, static_cast<int>(head_bytes))) {
    return failed(name, "the header does not parse: the file is corrupt");
  }
  if (header.format_version() != kSnapshotFormatVersion) {
    // Versions are not translated: an npcd reads the format it writes.
    const bool older = header.format_version() < kSnapshotFormatVersion;
    return failed(name, "format version " + std::to_string(header.format_version()) +
                            ", this npcd reads version " + std::to_string(kSnapshotFormatVersion) +
                            (older ? " (an older npcd wrote it)" : " (a newer npcd wrote it)"));
  }
  const size_t body_at = kPrefix + head_bytes;
  const size_t body_bytes = bytes.size() - body_at;
  if (body_bytes != header.body_bytes()) {
    return failed(name, "truncated: the body has " + std::to_string(body_bytes) +
                            " bytes, the header says " + std::to_string(header.body_bytes()));
  }
  const std::string_view body(bytes.data() + body_at, body_bytes);
  const uint32_t crc = crc32(body);
  if (crc != header.body_crc32()) {
    return failed(name, "checksum mismatch (body crc32 " + hex32(crc) + ", header says " +
                            hex32(header.body_crc32()) + "): the file is corrupt");
  }
  if (!definitions_hash.empty() && header.definitions_hash() != definitions_hash) {
    return failed(name, "taken with other definitions (hash " + header.definitions_hash() +
                            ", loaded " + definitions_hash +
                            "): restore it with the definitions it was taken with");
  }
  if (!state.ParseFromArray(body.data(), static_cast<int>(body.size()))) {
    return failed(name, "the body does not parse: the file is corrupt");
  }
  return {};
}

Status readSnapshotFile(const std::string& path, const std::string& definitions_hash,
                        pb::SnapshotHeader& header, pb::SimState& state) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return failed(path, std::string("cannot read: ") + std::strerror(errno));
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  return decodeSnapshot(path, bytes, definitions_hash, header, state);
}

}  // namespace npc
