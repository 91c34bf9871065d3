//===- reference/src/dependence_builder.cpp - TEST ORACLE ------------------===//
//
// TEST ORACLE. NOT FOR PRODUCTION. SPEC §5 read literally: every pair, every
// piece of every space, every node in between.
//
//===----------------------------------------------------------------------===//
#include "depreduce/reference/dependence_builder.hpp"

#include <cstdint>
#include <map>
#include <set>
#include <string>

#include "pieces.hpp"

namespace depreduce::reference {

Pieces::Pieces(const Graph& g) {
  // Per space, every end of every non-empty range; consecutive ends make pieces.
  std::map<std::string, std::set<std::uint64_t>> ends;
  for (const Node& v : g.nodes) {
    for (const ByteRange& r : v.reads)
      if (r.lo < r.hi) { ends[r.space].insert(r.lo); ends[r.space].insert(r.hi); }
    for (const ByteRange& r : v.writes)
      if (r.lo < r.hi) { ends[r.space].insert(r.lo); ends[r.space].insert(r.hi); }
  }
  for (const auto& [space, points] : ends) {
    std::uint64_t previous = 0;
    bool first = true;
    for (std::uint64_t point : points) {
      if (!first) pieces.push_back({space, previous, point});
      previous = point;
      first = false;
    }
  }
  auto covers = [](const std::vector<ByteRange>& ranges, const ByteRange& x) {
    for (const ByteRange& r : ranges)
      if (r.space == x.space && r.lo <= x.lo && x.hi <= r.hi) return true;
    return false;
  };
  reads.assign(g.nodes.size(), std::vector<bool>(pieces.size(), false));
  writes.assign(g.nodes.size(), std::vector<bool>(pieces.size(), false));
  for (NodeId v = 0; v < g.nodes.size(); ++v)
    for (std::size_t x = 0; x < pieces.size(); ++x) {
      reads[v][x] = covers(g.nodes[v].reads, pieces[x]);
      writes[v][x] = covers(g.nodes[v].writes, pieces[x]);
    }
}

bool Pieces::written_between(NodeId p, NodeId c, std::size_t x) const {
  for (NodeId q = p + 1; q < c; ++q)
    if (writes[q][x]) return true;
  return false;
}

KindSet Pieces::kinds_on(NodeId p, NodeId c, std::size_t x) const {
  KindSet k;
  if (written_between(p, c, x)) return k;
  if (writes[p][x] && reads[c][x]) k |= Kind::Flow;
  if (writes[p][x] && writes[c][x]) k |= Kind::Output;
  if (reads[p][x] && writes[c][x]) k |= Kind::Anti;
  return k;
}

std::vector<ByteRange> Pieces::merged(const std::vector<std::size_t>& xs) const {
  // xs ascending; pieces are sorted by (space, lo), so neighbours merge in one pass.
  std::vector<ByteRange> out;
  for (std::size_t x : xs) {
    const ByteRange& piece = pieces[x];
    if (!out.empty() && out.back().space == piece.space && out.back().hi == piece.lo) out.back().hi = piece.hi;
    else out.push_back(piece);
  }
  return out;
}

std::vector<Dependence> computed_kinds(const Graph& g, const DependenceOptions& options) {
  const Pieces pieces(g);
  std::vector<Dependence> out;
  for (NodeId p = 0; p < g.nodes.size(); ++p)
    for (NodeId c = p + 1; c < g.nodes.size(); ++c) {
      Dependence d;
      d.src = p;
      d.dst = c;
      std::vector<std::size_t> where;
      for (std::size_t x = 0; x < pieces.pieces.size(); ++x) {
        KindSet k = pieces.kinds_on(p, c, x);
        if (k.empty()) continue;
        d.kinds |= k;
        where.push_back(x);
      }
      if (d.kinds.empty()) continue;
      if (options.bytes) d.bytes = pieces.merged(where);
      out.push_back(std::move(d));
    }
  return out;
}

Graph build_dependences(const Graph& g) {
  Graph out;
  static_cast<GraphHeader&>(out) = g;
  out.nodes = g.nodes;
  for (const Dependence& d : reference::computed_kinds(g)) {
    Edge e;
    e.src = d.src;
    e.dst = d.dst;
    e.kinds = d.kinds;
    e.input_index = static_cast<std::uint32_t>(out.edges.size());
    out.edges.push_back(e);
  }
  return out;
}

} // namespace depreduce::reference
