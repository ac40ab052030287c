// Definition directories: reading every definition file under a folder, and noticing that
// any of them changed (for reload-on-change). Shared by the selection tree and behavior
// tree libraries.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace npc {

// One definition file in memory; `name` is its path relative to the directory, as
// diagnostics show it ("Grunt.xml").
struct SourceFile {
  std::string name;
  std::string text;
};

struct SourceDirRead {
  std::vector<SourceFile> files;    // sorted by name, so loads are deterministic
  std::vector<std::string> errors;  // "dir: not a directory", "x.xml: cannot be read", ...
  size_t found = 0;                 // matching files found, read or not
};

// Trees may sit in sub-folders; GOAP domains are the top level only (their statistics
// files may live below).
enum class SourceDirDepth : bool { kRecursive, kTopLevel };

// Reads every regular file under `dir` whose extension equals `extension` (".xml",
// compared case-insensitively). Any error means the set is incomplete: callers must not
// replace a loaded set with a partial one.
SourceDirRead readSourceDir(const std::string& dir, std::string_view extension,
                            SourceDirDepth depth = SourceDirDepth::kRecursive);

// Names, sizes and modification times of the same files: equal fingerprints mean nothing
// changed. Cheap compared to reading, but walks the directory: poll it, do not call it
// every tick.
std::string sourceDirFingerprint(const std::string& dir, std::string_view extension,
                                 SourceDirDepth depth = SourceDirDepth::kRecursive);

// The same for one file (a definitions file that is not a directory: long actions,
// influences): its name, size and modification time; "missing" when it is not there.
std::string sourceFileFingerprint(const std::string& path);

}  // namespace npc
