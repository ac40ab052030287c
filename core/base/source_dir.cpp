#include "base/source_dir.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/definition_file_name.h"

namespace npc {

namespace fs = std::filesystem;

namespace {

bool hasExtension(const fs::path& path, std::string_view extension) {
  const std::string ext = path.extension().string();
  return ext.size() == extension.size() &&
         std::equal(ext.begin(), ext.end(), extension.begin(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) ==
                  std::tolower(static_cast<unsigned char>(b));
         });
}

// The files under `dir` with `extension`, in directory order.
std::vector<fs::path> matchingFiles(const std::string& dir, std::string_view extension,
                                    SourceDirDepth depth, std::error_code& ec) {
  std::vector<fs::path> paths;
  auto keep = [&](const fs::directory_entry& entry) {
    if (entry.is_regular_file(ec) && hasExtension(entry.path(), extension)) {
      paths.push_back(entry.path());
    }
  };
  if (depth == SourceDirDepth::kTopLevel) {
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::end(it); it.increment(ec)) {
      keep(*it);
    }
  } else {
    for (auto it = fs::recursive_directory_iterator(dir, ec); !ec && it != fs::end(it);
         it.increment(ec)) {
      keep(*it);
    }
  }
  return paths;
}

}  // namespace

SourceDirRead readSourceDir(const std::string& dir, std::string_view extension,
                            SourceDirDepth depth) {
  SourceDirRead out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    out.errors.push_back(dir + ": not a directory");
    return out;
  }
  const std::vector<fs::path> paths = matchingFiles(dir, extension, depth, ec);
  out.found = paths.size();
  for (const fs::path& path : paths) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    const std::string name = definitionFileName(dir, path.string());
    if (!in) {
      out.errors.push_back(name + ": cannot be read");
      continue;
    }
    out.files.push_back({name, text.str()});
  }
  std::sort(out.files.begin(), out.files.end(),
            [](const SourceFile& a, const SourceFile& b) { return a.name < b.name; });
  if (ec) out.errors.push_back(dir + ": " + ec.message());
  return out;
}

std::string sourceDirFingerprint(const std::string& dir, std::string_view extension,
                                 SourceDirDepth depth) {
  std::error_code ec;
  std::vector<std::string> entries;
  for (const fs::path& path : matchingFiles(dir, extension, depth, ec)) {
    const auto size = fs::file_size(path, ec);
    const auto time = fs::last_write_time(path, ec).time_since_epoch().count();
    entries.push_back(path.generic_string() + "|" + std::to_string(size) + "|" +
                      std::to_string(time));
  }
  std::sort(entries.begin(), entries.end());
  std::string fingerprint = ec ? "error" : "";
  for (const auto& e : entries) fingerprint += e + "\n";
  return fingerprint;
}

std::string sourceFileFingerprint(const std::string& path) {
  std::error_code ec;
  const auto size = fs::file_size(path, ec);
  if (ec) return "missing";
  const auto time = fs::last_write_time(path, ec).time_since_epoch().count();
  return path + "|" + std::to_string(size) + "|" + std::to_string(time);
}

}  // namespace npc
