# Generates a C++ source holding the files of WEB_DIR as byte arrays, with the table that
# findWebAsset() (web_assets.h) searches. Run as: cmake -DWEB_DIR=... -DOUT=... -P this file.
file(GLOB files RELATIVE ${WEB_DIR} ${WEB_DIR}/*)
list(SORT files)
set(arrays "")
set(table "")
set(n 0)
foreach(name ${files})
  file(READ ${WEB_DIR}/${name} hex HEX)
  string(REGEX REPLACE "([0-9a-f][0-9a-f])" "'\\\\x\\1'," bytes "${hex}")
  string(LENGTH "${hex}" hex_length)
  math(EXPR size "${hex_length} / 2")
  if(name MATCHES "\\.html$")
    set(type "text/html; charset=utf-8")
  elseif(name MATCHES "\\.js$")
    set(type "text/javascript; charset=utf-8")
  elseif(name MATCHES "\\.css$")
    set(type "text/css; charset=utf-8")
  elseif(name MATCHES "\\.svg$")
    set(type "image/svg+xml")
  else()
    set(type "application/octet-stream")
  endif()
  string(APPEND arrays "const char kFile${n}[] = {${bytes}'\\0'};\n")
  string(APPEND table "    {\"/${name}\", \"${type}\", {kFile${n}, ${size}}},\n")
  math(EXPR n "${n} + 1")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from server/debug/web/ by embed_web_assets.cmake: do not edit.
#include \"debug/web_assets.h\"

#include <array>

namespace npc {
namespace {
${arrays}
const std::array<WebAsset, ${n}> kAssets = {{
${table}}};
}  // namespace

const WebAsset* findWebAsset(std::string_view path) {
  for (const WebAsset& asset : kAssets) {
    if (asset.path == path) return &asset;
  }
  return nullptr;
}

}  // namespace npc
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
