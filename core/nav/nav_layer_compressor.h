// NavLayerCompressor: how tile-cache layers (NavTileCache) are kept: deflated with zlib at
// its fastest level. A layer holds a byte each of height, area and connections per cell of
// a tile, mostly runs of the same values (flat ground, open areas), so it shrinks about
// tenfold; each tile rebuild inflates its layers again (tens of microseconds, beside the
// rebuild's own hundred or so; core/nav/README.md "Dynamic obstacles").
#pragma once

#include <DetourStatus.h>
#include <DetourTileCacheBuilder.h>
#include <zlib.h>

namespace npc::nav {

struct NavLayerCompressor : dtTileCacheCompressor {
  int maxCompressedSize(const int size) override {
    return static_cast<int>(compressBound(static_cast<uLong>(size)));
  }
  dtStatus compress(const unsigned char* in, const int size, unsigned char* out, const int max_out,
                    int* out_size) override {
    uLongf n = static_cast<uLongf>(max_out);
    if (compress2(out, &n, in, static_cast<uLong>(size), Z_BEST_SPEED) != Z_OK)
      return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    *out_size = static_cast<int>(n);
    return DT_SUCCESS;
  }
  dtStatus decompress(const unsigned char* in, const int size, unsigned char* out, const int max_out,
                      int* out_size) override {
    uLongf n = static_cast<uLongf>(max_out);
    if (uncompress(out, &n, in, static_cast<uLong>(size)) != Z_OK) return DT_FAILURE;
    *out_size = static_cast<int>(n);
    return DT_SUCCESS;
  }
};

}  // namespace npc::nav
