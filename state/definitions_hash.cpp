#include "definitions_hash.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace npc {

namespace {

struct Fnv1a {
  uint64_t h = 0xcbf29ce484222325ull;
  void add(std::string_view bytes) {
    for (const char c : bytes) {
      h ^= static_cast<uint8_t>(c);
      h *= 0x100000001b3ull;
    }
    h ^= 0xff;  // separates one piece from the next
    h *= 0x100000001b3ull;
  }
};

void addFile(Fnv1a& fnv, const std::filesystem::path& file, const std::string& name) {
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  fnv.add(name);
  fnv.add(text);
}

}  // namespace

std::string definitionsHash(const std::vector<std::string>& paths) {
  namespace fs = std::filesystem;
  Fnv1a fnv;
  for (const std::string& path : paths) {
    if (path.empty()) continue;
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> files;
      for (const auto& entry : fs::recursive_directory_iterator(path, ec)) {
        if (entry.is_regular_file(ec)) files.push_back(fs::relative(entry.path(), path, ec).string());
      }
      std::sort(files.begin(), files.end());
      fnv.add(fs::path(path).filename().string());
      for (const std::string& f : files) addFile(fnv, fs::path(path) / f, f);
    } else if (fs::is_regular_file(path, ec)) {
      addFile(fnv, path, fs::path(path).filename().string());
    } else {
      fnv.add(path);
    }
  }
  char hex[20];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(fnv.h));
  return hex;
}

}  // namespace npc
