#include "nav/nav_tile_data.h"

#include <DetourNavMesh.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <vector>

namespace npc::nav {
namespace {

size_t align4(size_t n) { return (n + 3) & ~size_t{3}; }

std::string at(size_t offset, const std::string& message) {
  return "byte " + std::to_string(offset) + ": " + message;
}

bool finite(const float* v, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (!std::isfinite(v[i])) return false;
  return true;
}

// Copies the array at `offset` out of the (possibly unaligned) file buffer.
template <class T>
std::vector<T> read(const uint8_t* data, size_t offset, int count) {
  std::vector<T> out(static_cast<size_t>(count));
  if (count > 0) std::memcpy(out.data(), data + offset, sizeof(T) * static_cast<size_t>(count));
  return out;
}

// Detour's walks across polygons (raycast follows the edge the ray leaves by, with no step
// limit) assume what Recast builds: convex polygons (on the ground plane), and neighbours that
// share the edge and name each other back. A mesh without it can loop forever.
std::string checkShape(const dtPoly& p, int index, const std::vector<dtPoly>& polys,
                       const std::vector<float>& verts) {
  const int n = p.vertCount;
  float turn = 0.f;  // the sign every corner must share
  for (int j = 0; j < n; ++j) {
    const float* a = &verts[size_t{p.verts[j]} * 3];
    const float* b = &verts[size_t{p.verts[(j + 1) % n]} * 3];
    const float* c = &verts[size_t{p.verts[(j + 2) % n]} * 3];
    const float cross = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
    if (cross * turn < 0.f) return "not convex";
    if (cross != 0.f) turn = cross;
    const unsigned nei = p.neis[j];
    if (nei == 0 || (nei & DT_EXT_LINK)) continue;
    if (static_cast<int>(nei) - 1 == index) return "edge " + std::to_string(j) + " is its own neighbour";
    const dtPoly& q = polys[nei - 1];
    const int qn = std::min<int>(q.vertCount, DT_VERTS_PER_POLYGON);  // q is checked in its turn
    bool back = false;
    for (int k = 0; k < qn && !back; ++k)
      back = q.neis[k] == index + 1 && q.verts[k] == p.verts[(j + 1) % n] &&
             q.verts[(k + 1) % qn] == p.verts[j];
    if (!back)
      return "neighbour " + std::to_string(nei - 1) + " does not share edge " + std::to_string(j) +
             " back";
  }
  if (turn == 0.f) return "no area";
  return "";
}

}  // namespace

std::string validateTileData(const uint8_t* data, size_t size, const dtNavMeshParams& mesh) {
  const int max_polys = mesh.maxPolys;
  dtMeshHeader h;
  if (size < sizeof(h)) {
    return at(size, "tile data of " + std::to_string(size) + " bytes is shorter than its " +
                        std::to_string(sizeof(h)) + "-byte header");
  }
  std::memcpy(&h, data, sizeof(h));
  if (h.magic != DT_NAVMESH_MAGIC) return at(0, "tile magic is not DNAV");
  if (h.version != DT_NAVMESH_VERSION)
    return at(offsetof(dtMeshHeader, version), "tile version " + std::to_string(h.version) + ", expected " +
                     std::to_string(DT_NAVMESH_VERSION));
  const struct {
    const char* name;
    int count;
    size_t element;
    size_t field;  // offset of the count in the header
  } arrays[] = {
      {"vertCount", h.vertCount, sizeof(float) * 3, offsetof(dtMeshHeader, vertCount)},
      {"polyCount", h.polyCount, sizeof(dtPoly), offsetof(dtMeshHeader, polyCount)},
      {"maxLinkCount", h.maxLinkCount, sizeof(dtLink), offsetof(dtMeshHeader, maxLinkCount)},
      {"detailMeshCount", h.detailMeshCount, sizeof(dtPolyDetail),
       offsetof(dtMeshHeader, detailMeshCount)},
      {"detailVertCount", h.detailVertCount, sizeof(float) * 3,
       offsetof(dtMeshHeader, detailVertCount)},
      {"detailTriCount", h.detailTriCount, 4, offsetof(dtMeshHeader, detailTriCount)},
      {"bvNodeCount", h.bvNodeCount, sizeof(dtBVNode), offsetof(dtMeshHeader, bvNodeCount)},
      {"offMeshConCount", h.offMeshConCount, sizeof(dtOffMeshConnection),
       offsetof(dtMeshHeader, offMeshConCount)},
  };
  size_t offsets[8];
  size_t end = align4(sizeof(h));
  for (int i = 0; i < 8; ++i) {
    if (arrays[i].count < 0 || arrays[i].count > (1 << 24))
      return at(arrays[i].field, std::string(arrays[i].name) + " " +
                                                     std::to_string(arrays[i].count) + " out of range");
    offsets[i] = end;
    end += align4(arrays[i].element * static_cast<size_t>(arrays[i].count));
  }
  if (end != size)
    return at(0, "the header's counts make " + std::to_string(end) + " bytes, the tile has " +
                     std::to_string(size));
  if (h.polyCount > max_polys)
    return at(offsetof(dtMeshHeader, polyCount), "polyCount " + std::to_string(h.polyCount) + " exceeds the mesh's maxPolys " +
                      std::to_string(max_polys));
  if (h.maxLinkCount < 1) return at(offsetof(dtMeshHeader, maxLinkCount), "maxLinkCount must be at least 1");
  if (h.offMeshConCount > h.polyCount || h.offMeshBase < 0 ||
      h.offMeshBase + h.offMeshConCount > h.polyCount)
    return at(offsetof(dtMeshHeader, offMeshBase), "off-mesh polygons (base " + std::to_string(h.offMeshBase) + ", count " +
                      std::to_string(h.offMeshConCount) + ") outside polyCount " +
                      std::to_string(h.polyCount));
  if (!finite(&h.walkableHeight, 3) || !finite(h.bmin, 3) || !finite(h.bmax, 3) ||
      !std::isfinite(h.bvQuantFactor))
    return at(offsetof(dtMeshHeader, walkableHeight), "header has a non-finite number");
  if (!(h.bvQuantFactor > 0 && h.bvQuantFactor <= 1000))
    return at(offsetof(dtMeshHeader, bvQuantFactor), "bvQuantFactor must be in (0, 1000]");
  for (int k = 0; k < 3; ++k) {
    if (!(std::abs(h.bmin[k]) <= kMaxNavCoordM && std::abs(h.bmax[k]) <= kMaxNavCoordM &&
          h.bmin[k] <= h.bmax[k]))
      return at(offsetof(dtMeshHeader, bmin), "tile bounds out of range or inverted");
  }
  // The tile must lie in its grid cell, or Detour's queries look for it in the wrong place.
  if (std::abs(h.x) > (1 << 20) || std::abs(h.y) > (1 << 20))
    return at(offsetof(dtMeshHeader, x), "tile position out of range");
  const float cell_x = mesh.orig[0] + static_cast<float>(h.x) * mesh.tileWidth;
  const float cell_z = mesh.orig[2] + static_cast<float>(h.y) * mesh.tileHeight;
  if (h.bmin[0] < cell_x - 0.5f * mesh.tileWidth || h.bmax[0] > cell_x + 1.5f * mesh.tileWidth ||
      h.bmin[2] < cell_z - 0.5f * mesh.tileHeight || h.bmax[2] > cell_z + 1.5f * mesh.tileHeight)
    return at(offsetof(dtMeshHeader, bmin), "tile (" + std::to_string(h.x) + ", " +
                                                 std::to_string(h.y) +
                                                 ") has bounds outside its cell of the mesh grid");

  auto inBounds = [&](const std::vector<float>& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      const int k = static_cast<int>(i % 3);
      if (!(v[i] >= h.bmin[k] - 1.f && v[i] <= h.bmax[k] + 1.f)) return false;  // NaN fails too
    }
    return true;
  };
  const std::vector<float> verts = read<float>(data, offsets[0], h.vertCount * 3);
  if (!finite(verts.data(), verts.size())) return at(offsets[0], "a vertex is not finite");
  if (!inBounds(verts)) return at(offsets[0], "a vertex lies outside the tile's bounds");
  const std::vector<dtPoly> polys = read<dtPoly>(data, offsets[1], h.polyCount);
  const std::vector<dtPolyDetail> details = read<dtPolyDetail>(data, offsets[3], h.detailMeshCount);
  const std::vector<float> dverts = read<float>(data, offsets[4], h.detailVertCount * 3);
  if (!finite(dverts.data(), dverts.size())) return at(offsets[4], "a detail vertex is not finite");
  if (!inBounds(dverts)) return at(offsets[4], "a detail vertex lies outside the tile's bounds");
  const std::vector<uint8_t> dtris = read<uint8_t>(data, offsets[5], h.detailTriCount * 4);
  for (int i = 0; i < h.polyCount; ++i) {
    const dtPoly& p = polys[static_cast<size_t>(i)];
    const size_t off = offsets[1] + sizeof(dtPoly) * static_cast<size_t>(i);
    const std::string name = "polygon " + std::to_string(i) + ": ";
    const bool off_mesh = p.getType() == DT_POLYTYPE_OFFMESH_CONNECTION;
    if (p.getType() != DT_POLYTYPE_GROUND && !off_mesh)
      return at(off, name + "type " + std::to_string(p.getType()) + " is neither ground nor off-mesh");
    if (off_mesh != (i >= h.offMeshBase && i < h.offMeshBase + h.offMeshConCount))
      return at(off, name + "off-mesh type outside the off-mesh range, or the reverse");
    const int min_verts = off_mesh ? 2 : 3;
    if (p.vertCount < min_verts || p.vertCount > DT_VERTS_PER_POLYGON)
      return at(off, name + std::to_string(p.vertCount) + " vertices");
    for (int j = 0; j < p.vertCount; ++j) {
      if (p.verts[j] >= h.vertCount)
        return at(off, name + "vertex " + std::to_string(p.verts[j]) + " >= vertCount " +
                           std::to_string(h.vertCount));
      const unsigned nei = p.neis[j];
      if (nei != 0 && !(nei & DT_EXT_LINK) && static_cast<int>(nei) - 1 >= h.polyCount)
        return at(off, name + "neighbour " + std::to_string(nei - 1) + " >= polyCount " +
                           std::to_string(h.polyCount));
    }
    if (off_mesh) continue;
    if (std::string e = checkShape(p, i, polys, verts); !e.empty()) return at(off, name + e);
    if (i >= h.detailMeshCount)
      return at(offsets[3], name + "no detail mesh (detailMeshCount " +
                                std::to_string(h.detailMeshCount) + ")");
    const dtPolyDetail& d = details[static_cast<size_t>(i)];
    const size_t doff = offsets[3] + sizeof(dtPolyDetail) * static_cast<size_t>(i);
    if (size_t{d.vertBase} + d.vertCount > static_cast<size_t>(h.detailVertCount) ||
        size_t{d.triBase} + d.triCount > static_cast<size_t>(h.detailTriCount) || d.triCount == 0)
      return at(doff, "detail mesh " + std::to_string(i) + " outside the detail arrays");
    // Detour's closest point on a polygon follows its boundary edges and dereferences the
    // one it found: a detail mesh must mark at least one.
    constexpr uint8_t kAnyBoundary =
        DT_DETAIL_EDGE_BOUNDARY | DT_DETAIL_EDGE_BOUNDARY << 2 | DT_DETAIL_EDGE_BOUNDARY << 4;
    bool boundary = false;
    for (unsigned t = 0; t < d.triCount; ++t) {
      const uint8_t* tri = &dtris[(size_t{d.triBase} + t) * 4];
      boundary = boundary || (tri[3] & kAnyBoundary) != 0;
      for (int k = 0; k < 3; ++k)
        if (tri[k] >= p.vertCount + d.vertCount)
          return at(offsets[5] + (size_t{d.triBase} + t) * 4,
                    "detail triangle of polygon " + std::to_string(i) + ": corner " +
                        std::to_string(tri[k]) + " out of range");
    }
    if (!boundary) return at(doff, "detail mesh " + std::to_string(i) + " marks no boundary edge");
  }
  const std::vector<dtBVNode> nodes = read<dtBVNode>(data, offsets[6], h.bvNodeCount);
  for (int i = 0; i < h.bvNodeCount; ++i) {
    const int v = nodes[static_cast<size_t>(i)].i;
    const bool ok = v >= 0 ? v < h.polyCount : (v > -(1 << 24) && i - v <= h.bvNodeCount);
    if (!ok)
      return at(offsets[6] + sizeof(dtBVNode) * static_cast<size_t>(i),
                "BV node " + std::to_string(i) + ": index " + std::to_string(v) + " out of range");
  }
  const std::vector<dtOffMeshConnection> cons = read<dtOffMeshConnection>(data, offsets[7], h.offMeshConCount);
  for (int i = 0; i < h.offMeshConCount; ++i) {
    const dtOffMeshConnection& c = cons[static_cast<size_t>(i)];
    if (c.poly < h.offMeshBase || c.poly >= h.offMeshBase + h.offMeshConCount ||
        !finite(c.pos, 6) || !std::isfinite(c.rad))
      return at(offsets[7] + sizeof(dtOffMeshConnection) * static_cast<size_t>(i),
                "off-mesh connection " + std::to_string(i) + " is not on an off-mesh polygon");
  }
  return "";
}

}  // namespace npc::nav
