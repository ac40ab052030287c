// Which npcd this is: the release version and the source revision it was built from, for
// `npcd --version`, the start-up log line and the `npcd_build_info` metric.
#pragma once

#include <string>
#include <string_view>

namespace npc {

// Semantic version from CMake's project(VERSION), e.g. "0.1.0". While the major version is
// 0 the API may still change between minor versions (CHANGELOG.md says how).
std::string_view buildVersion();

// Git revision of the sources at build time: a 12-digit abbreviated commit hash, with
// "-dirty" when tracked files differed from that commit, or "unknown" when the sources
// were not a git checkout (a tarball, a container build without .git). The CMake cache
// variable NPCD_REVISION overrides it (packagers).
std::string_view buildRevision();

// "npcd 0.1.0 (revision 0123456789ab)": what `npcd --version` prints.
std::string versionLine();

}  // namespace npc
