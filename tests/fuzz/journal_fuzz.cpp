// The input journal (state/journal_file.h readJournalFile, then state/journal_codec.h
// decodeCommand for every command of every record), as `npcd replay` and a restart read it.
//
// Random bytes rarely carry a right CRC-32, so the input is not the file: the file is built
// from it, every record with its true checksum, and the fuzzer's mutations reach the
// protobuf parser and the command decoder behind the check. Input layout:
//   byte 0        flags: bit 0 — the first chunk is the header's bytes (else a valid
//                 version-1 header); bit 1 — the last record's checksum is made wrong
//   then chunks   2-byte little-endian length, then that many bytes: the header (when
//                 flag bit 0), then one JournalTick record each
//   the rest      bytes shorter than their chunk's length are appended raw: a torn tail
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>
#include <string_view>
#include <unistd.h>

#include "crc32.h"
#include "journal_codec.h"
#include "journal_file.h"

namespace {

void putU32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

std::string buildFile(std::string_view in) {
  std::string file = "NPCJRNL\n";
  if (in.empty()) return file;
  const uint8_t flags = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  bool header_given = (flags & 1) != 0;
  if (!header_given) {
    npc::pb::JournalHeader header;
    header.set_format_version(npc::kJournalFormatVersion);
    header.set_after_tick(100);
    const std::string bytes = header.SerializeAsString();
    putU32(file, static_cast<uint32_t>(bytes.size()));
    file += bytes;
  }
  size_t last_crc_at = 0;
  while (in.size() >= 2) {
    const size_t size = static_cast<uint8_t>(in[0]) | static_cast<size_t>(static_cast<uint8_t>(in[1])) << 8;
    if (in.size() - 2 < size) break;
    const std::string_view chunk = in.substr(2, size);
    in.remove_prefix(2 + size);
    putU32(file, static_cast<uint32_t>(chunk.size()));
    if (header_given) {
      header_given = false;
    } else {
      last_crc_at = file.size();
      putU32(file, npc::crc32(chunk));
    }
    file += chunk;
  }
  if ((flags & 2) != 0 && last_crc_at != 0) file[last_crc_at] = static_cast<char>(file[last_crc_at] ^ 1);
  file += in;  // a torn tail
  return file;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const std::string path = "/tmp/npcd-journal-fuzz-" + std::to_string(getpid()) + ".npcjournal";
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    const std::string file = buildFile({reinterpret_cast<const char*>(data), size});
    out.write(file.data(), static_cast<std::streamsize>(file.size()));
  }
  npc::JournalContents contents;
  if (!npc::readJournalFile(path, contents).isOk()) return 0;
  npc::Command command;
  std::string error;
  for (const npc::pb::JournalTick& tick : contents.ticks) {
    for (const npc::pb::JournalCommand& c : tick.commands()) {
      error.clear();
      npc::decodeCommand(c, command, error);
    }
  }
  return 0;
}
