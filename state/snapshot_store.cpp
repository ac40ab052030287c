#include "snapshot_store.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "journal_file.h"

namespace npc {

namespace {

constexpr std::string_view kPrefix = "snapshot-";
constexpr std::string_view kSuffix = ".npcsnap";

bool isSnapshotName(const std::string& name) {
  return name.size() > kPrefix.size() + kSuffix.size() && name.starts_with(kPrefix) &&
         name.ends_with(kSuffix);
}

}  // namespace

std::string SnapshotStore::pathFor(uint64_t tick) const {
  char name[64];
  std::snprintf(name, sizeof name, "snapshot-%012llu.npcsnap", static_cast<unsigned long long>(tick));
  return (std::filesystem::path(dir_) / name).string();
}

std::string SnapshotStore::journalPathFor(uint64_t tick) const {
  return (std::filesystem::path(dir_) / journalFileName(tick)).string();
}

void SnapshotStore::removeStaleJournals() const {
  const std::vector<std::string> kept = list();
  if (kept.empty()) return;
  const std::string oldest = std::filesystem::path(kept.back()).filename().string();
  const std::string first_needed =
      journalFileName(std::strtoull(oldest.c_str() + kPrefix.size(), nullptr, 10));
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    const std::string name = entry.path().filename().string();
    // Same width of digits: name order is tick order.
    if (name.starts_with("journal-") && name.ends_with(".npcjournal") && name < first_needed) {
      std::filesystem::remove(entry.path(), ec);
    }
  }
}

std::vector<std::string> SnapshotStore::list() const {
  std::vector<std::string> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir_, ec)) {
    if (entry.is_regular_file(ec) && isSnapshotName(entry.path().filename().string())) {
      files.push_back(entry.path().string());
    }
  }
  std::sort(files.begin(), files.end(), std::greater<>());
  return files;
}

Status SnapshotStore::write(uint64_t tick, const std::string& bytes, std::string& path) const {
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) return {StatusCode::kFailedPrecondition, dir_ + ": cannot create: " + ec.message()};
  path = pathFor(tick);
  if (Status s = writeFileAtomically(path, bytes); !s.isOk()) return s;
  const std::vector<std::string> files = list();
  for (size_t i = std::max<size_t>(keep_, 1); i < files.size(); ++i) {
    std::filesystem::remove(files[i], ec);
  }
  removeStaleJournals();
  return {};
}

SnapshotStore::Restored SnapshotStore::latest(const std::string& definitions_hash,
                                              pb::SnapshotHeader& header, pb::SimState& state,
                                              std::string& error) const {
  Restored r;
  const std::vector<std::string> files = list();
  if (files.empty()) {
    error = dir_ + ": no snapshot to restore";
    return r;
  }
  for (const std::string& file : files) {
    const Status s = readSnapshotFile(file, definitions_hash, header, state);
    if (s.isOk()) {
      r.path = file;
      return r;
    }
    r.skipped.push_back(s.message());
  }
  error = dir_ + ": no usable snapshot (" + std::to_string(files.size()) + " refused; newest: " +
          r.skipped.front() + ")";
  return r;
}

}  // namespace npc
