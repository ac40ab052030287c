// The debug page's static files (server/debug/web/), built into the binary by CMake
// (embed_web_assets.cmake generates web_assets.cpp), so a deployment needs nothing beside
// the npcd executable.
#pragma once

#include <string_view>

namespace npc {

struct WebAsset {
  std::string_view path;          // "/index.html"
  std::string_view content_type;  // "text/html; charset=utf-8"
  std::string_view content;
};

// The file served at `path`, or nullptr.
const WebAsset* findWebAsset(std::string_view path);

}  // namespace npc
