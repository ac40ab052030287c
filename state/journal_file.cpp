#include "journal_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "crc32.h"
#include "file_bytes.h"

namespace npc {

namespace {

constexpr char kMagic[8] = {'N', 'P', 'C', 'J', 'R', 'N', 'L', '\n'};
constexpr uint32_t kMaxRecordBytes = 256u << 20;  // a tick's inputs are bounded far below

Status failed(const std::string& path, const std::string& why) { return fileError(path, why); }

std::string errnoText() { return std::strerror(errno); }

}  // namespace

std::string journalFileName(uint64_t after_tick) {
  char name[48];
  std::snprintf(name, sizeof name, "journal-%012llu.npcjournal",
                static_cast<unsigned long long>(after_tick));
  return name;
}

JournalWriter::JournalWriter(std::string path, int fd, uint64_t bytes)
    : path_(std::move(path)), fd_(fd), bytes_(bytes) {}

JournalWriter::~JournalWriter() {
  if (fd_ >= 0) ::close(fd_);
}

std::unique_ptr<JournalWriter> JournalWriter::create(const std::string& path,
                                                     const pb::JournalHeader& header,
                                                     Status& status) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    status = failed(path, "cannot create: " + errnoText());
    return nullptr;
  }
  std::unique_ptr<JournalWriter> writer(new JournalWriter(path, fd, 0));
  std::string head(kMagic, sizeof kMagic);
  const std::string encoded = header.SerializeAsString();
  putU32(head, static_cast<uint32_t>(encoded.size()));
  head += encoded;
  status = writer->writeAll(head);
  if (status.isOk()) status = writer->sync();
  return status.isOk() ? std::move(writer) : nullptr;
}

std::unique_ptr<JournalWriter> JournalWriter::resume(const std::string& path, uint64_t valid_bytes,
                                                     Status& status) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    status = failed(path, "cannot open: " + errnoText());
    return nullptr;
  }
  if (::ftruncate(fd, static_cast<off_t>(valid_bytes)) != 0 ||
      ::lseek(fd, static_cast<off_t>(valid_bytes), SEEK_SET) < 0) {
    status = failed(path, "cannot cut off the torn tail: " + errnoText());
    ::close(fd);
    return nullptr;
  }
  status = Status::ok();
  return std::unique_ptr<JournalWriter>(new JournalWriter(path, fd, valid_bytes));
}

Status JournalWriter::append(const pb::JournalTick& tick) {
  const size_t size = tick.ByteSizeLong();
  record_.clear();
  putU32(record_, static_cast<uint32_t>(size));
  putU32(record_, 0);  // the checksum, once the bytes are there
  record_.resize(8 + size);
  tick.SerializeWithCachedSizesToArray(reinterpret_cast<uint8_t*>(record_.data() + 8));
  const uint32_t crc = crc32(std::string_view(record_).substr(8));
  for (int i = 0; i < 4; ++i) record_[4 + i] = static_cast<char>((crc >> (8 * i)) & 0xff);
  return writeAll(record_);
}

Status JournalWriter::sync() {
  if (::fdatasync(fd_) != 0) return failed(path_, "cannot sync: " + errnoText());
  return Status::ok();
}

Status JournalWriter::writeAll(const std::string& bytes) {
  Status status = npc::writeAll(fd_, bytes, path_);
  if (status.isOk()) bytes_ += bytes.size();
  return status;
}

Status readJournalFile(const std::string& path, JournalContents& out) {
  out = JournalContents{};
  std::ifstream in(path, std::ios::binary);
  if (!in) return failed(path, "cannot open: " + errnoText());
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (bytes.size() < sizeof kMagic + 4 || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0) {
    return failed(path, "not an npcd journal (no NPCJRNL header)");
  }
  const uint32_t header_bytes = getU32(bytes, sizeof kMagic);
  size_t at = sizeof kMagic + 4;
  if (header_bytes > bytes.size() - at ||
      !out.header.ParseFromArray(bytes.data() + at, static_cast<int>(header_bytes))) {
    return failed(path, "its header is damaged");
  }
  if (out.header.format_version() != kJournalFormatVersion) {
    return failed(path, "journal format version " + std::to_string(out.header.format_version()) +
                            ", this npcd reads version " + std::to_string(kJournalFormatVersion));
  }
  at += header_bytes;
  out.valid_bytes = at;
  while (at < bytes.size()) {
    const std::string where = "byte " + std::to_string(at) + ": ";
    if (bytes.size() - at < 8) {
      out.stopped = where + "a torn record (its length is cut off)";
      break;
    }
    const uint32_t size = getU32(bytes, at);
    const uint32_t crc = getU32(bytes, at + 4);
    if (size > kMaxRecordBytes || size > bytes.size() - at - 8) {
      out.stopped = where + "a torn record (" + std::to_string(size) + " bytes announced)";
      break;
    }
    const std::string_view body(bytes.data() + at + 8, size);
    pb::JournalTick tick;
    if (crc32(body) != crc || !tick.ParseFromArray(body.data(), static_cast<int>(size))) {
      out.stopped = where + "a record that fails its checksum";
      break;
    }
    out.ticks.push_back(std::move(tick));
    at += 8 + size;
    out.valid_bytes = at;
  }
  return Status::ok();
}

}  // namespace npc
