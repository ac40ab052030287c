#include "base/definition_file_name.h"

#include <filesystem>

namespace npc {

namespace fs = std::filesystem;

std::string definitionFileName(const std::string& dir, const std::string& path) {
  const fs::path base = fs::path(dir).lexically_normal();
  // "trees/" keeps an empty last component: name the directory by the one before it.
  const fs::path named = base.has_filename() ? base : base.parent_path();
  const fs::path below = fs::path(path).lexically_relative(base);
  if (below.empty() || *below.begin() == "..") return fs::path(path).generic_string();
  return (named.filename() / below).generic_string();
}

}  // namespace npc
