// NavLayerCopyCompressor: the "compressor" of tile-cache layers (NavTileCache): layers are
// stored as built, so a rebuild's decompression is a copy. A village's layers are a few MB;
// a real compressor (zlib, LZ4) can replace this one where memory matters more.
#pragma once

#include <DetourStatus.h>
#include <DetourTileCacheBuilder.h>

#include <cstring>

namespace npc::nav {

struct NavLayerCopyCompressor : dtTileCacheCompressor {
  int maxCompressedSize(const int size) override { return size; }
  dtStatus compress(const unsigned char* in, const int size, unsigned char* out, const int max_out,
                    int* out_size) override {
    if (size > max_out) return DT_FAILURE | DT_BUFFER_TOO_SMALL;
    std::memcpy(out, in, static_cast<size_t>(size));
    *out_size = size;
    return DT_SUCCESS;
  }
  dtStatus decompress(const unsigned char* in, const int size, unsigned char* out, const int max_out,
                      int* out_size) override {
    return compress(in, size, out, max_out, out_size);
  }
};

}  // namespace npc::nav
