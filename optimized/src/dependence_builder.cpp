//===- dependence_builder.cpp - walrus dep_opt constructBIRGraph -----------===//
//
// One sweep in program order over one Boost.ICL split_interval_map per byte
// space. A segment holds the state of every byte in it: the last writer and
// the readers since that write (sorted, since nodes arrive in program order).
//
//===----------------------------------------------------------------------===//
#include "depreduce/dependence_builder.hpp"
#include "builder_internal.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <boost/icl/split_interval_map.hpp> // first: it includes what right_open_interval.hpp needs
#include <boost/icl/right_open_interval.hpp>

namespace depreduce {
namespace {

constexpr NodeId kNoWriter = std::numeric_limits<NodeId>::max();

/// State of the bytes of one segment.
struct ByteState {
  /// Readers since the last write, ascending; most bytes have a few.
  using Readers = std::vector<NodeId>;
  NodeId writer = kNoWriter; ///< Last writer, or kNoWriter.
  Readers readers;

  /// ICL's aggregate-on-overlap (`map += segment`): used only to add readers;
  /// the writer of an existing segment stays.
  ByteState& operator+=(const ByteState& other) {
    if (other.readers.size() == 1 && (readers.empty() || readers.back() < other.readers.front())) {
      readers.push_back(other.readers.front()); // the common case: one new reader, in order
      return *this;
    }
    Readers merged;
    merged.reserve(readers.size() + other.readers.size());
    std::set_union(readers.begin(), readers.end(), other.readers.begin(), other.readers.end(),
                   std::back_inserter(merged));
    readers = std::move(merged);
    return *this;
  }
  friend bool operator==(const ByteState&, const ByteState&) = default;
};

using Interval = boost::icl::right_open_interval<std::uint64_t>;
/// split_interval_map: segment borders are kept (no joining of equal
/// neighbours, which would compare reader lists); partial_enricher: no value
/// is absorbed as "identity".
using SpaceMap = boost::icl::split_interval_map<std::uint64_t, ByteState, boost::icl::partial_enricher,
                                                std::less, boost::icl::inplace_plus,
                                                boost::icl::inter_section, Interval>;

/// One reason for an edge p -> c, with the bytes it covers.
struct Hit {
  NodeId src;
  KindSet kind;
  std::uint32_t space;
  std::uint64_t lo, hi;
};

/// The sweep. \p want_bytes(p, c) says whether the bytes of pair (p, c) are
/// recorded; nullptr = never.
std::vector<Dependence> sweep(const Graph& g, const std::function<bool(NodeId, NodeId)>* want_bytes) {
  // Spaces by name -> index, in first-seen order; the index of every range,
  // flat: node v's reads then writes start at first_range[v].
  std::unordered_map<std::string_view, std::uint32_t> space_index;
  std::vector<std::string_view> space_names;
  std::vector<std::uint32_t> range_space;
  std::vector<std::size_t> first_range(g.nodes.size() + 1, 0);
  std::uint32_t last = 0; // consecutive ranges mostly name the same space
  auto index_of = [&](const std::string& s) {
    if (!space_names.empty() && space_names[last] == s) return last;
    auto [it, fresh] = space_index.emplace(s, static_cast<std::uint32_t>(space_names.size()));
    if (fresh) space_names.push_back(s);
    return last = it->second;
  };
  for (NodeId v = 0; v < g.nodes.size(); ++v) {
    first_range[v] = range_space.size();
    for (const ByteRange& r : g.nodes[v].reads) range_space.push_back(index_of(r.space));
    for (const ByteRange& r : g.nodes[v].writes) range_space.push_back(index_of(r.space));
  }
  first_range[g.nodes.size()] = range_space.size();
  std::vector<SpaceMap> maps(space_names.size());

  std::vector<Dependence> out;
  std::vector<Hit> hits;
  for (NodeId c = 0; c < g.nodes.size(); ++c) {
    const Node& node = g.nodes[c];
    const std::uint32_t* read_space = range_space.data() + first_range[c];
    const std::uint32_t* write_space = read_space + node.reads.size();
    hits.clear();
    // 1. Edges into c, from the state before c.
    for (std::size_t k = 0; k < node.reads.size(); ++k) {
      const ByteRange& r = node.reads[k];
      if (r.lo >= r.hi) continue;
      const std::uint32_t s = read_space[k];
      auto [first, last] = maps[s].equal_range(Interval(r.lo, r.hi));
      for (auto it = first; it != last; ++it)
        if (it->second.writer != kNoWriter)
          hits.push_back({it->second.writer, Kind::Flow, s, std::max(r.lo, it->first.lower()),
                          std::min(r.hi, it->first.upper())});
    }
    for (std::size_t k = 0; k < node.writes.size(); ++k) {
      const ByteRange& w = node.writes[k];
      if (w.lo >= w.hi) continue;
      const std::uint32_t s = write_space[k];
      auto [first, last] = maps[s].equal_range(Interval(w.lo, w.hi));
      for (auto it = first; it != last; ++it) {
        const std::uint64_t lo = std::max(w.lo, it->first.lower()), hi = std::min(w.hi, it->first.upper());
        if (it->second.writer != kNoWriter) hits.push_back({it->second.writer, Kind::Output, s, lo, hi});
        for (NodeId reader : it->second.readers) hits.push_back({reader, Kind::Anti, s, lo, hi});
      }
    }
    // 2. c's own effect: writes first (c becomes the last writer, no readers
    // since), then reads (so a read-modify-write leaves c among the readers).
    for (std::size_t k = 0; k < node.writes.size(); ++k)
      if (node.writes[k].lo < node.writes[k].hi)
        maps[write_space[k]].set(std::make_pair(Interval(node.writes[k].lo, node.writes[k].hi), ByteState{c, {}}));
    const ByteState reader{kNoWriter, {c}};
    for (std::size_t k = 0; k < node.reads.size(); ++k)
      if (node.reads[k].lo < node.reads[k].hi)
        maps[read_space[k]] += std::make_pair(Interval(node.reads[k].lo, node.reads[k].hi), reader);

    // 3. One Dependence per source, kinds OR-ed.
    std::sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) { return a.src < b.src; });
    for (std::size_t i = 0; i < hits.size();) {
      std::size_t j = i;
      Dependence d;
      d.src = hits[i].src;
      d.dst = c;
      const bool bytes = want_bytes && (*want_bytes)(d.src, c);
      for (; j < hits.size() && hits[j].src == d.src; ++j) {
        d.kinds |= hits[j].kind;
        if (bytes) d.bytes.push_back({std::string(space_names[hits[j].space]), hits[j].lo, hits[j].hi});
      }
      if (bytes) d.bytes = canonical_ranges(std::move(d.bytes));
      out.push_back(std::move(d));
      i = j;
    }
  }
  // Produced by ascending dst; a stable bucket pass by src gives (src, dst) order in O(d).
  std::vector<std::size_t> start(g.nodes.size() + 1, 0);
  for (const Dependence& d : out) ++start[d.src + 1];
  for (std::size_t v = 0; v < g.nodes.size(); ++v) start[v + 1] += start[v];
  std::vector<Dependence> sorted(out.size());
  for (Dependence& d : out) sorted[start[d.src]++] = std::move(d);
  return sorted;
}

} // namespace

std::vector<Dependence> computed_kinds(const Graph& g, const DependenceOptions& options) {
  if (!options.bytes) return sweep(g, nullptr);
  const std::function<bool(NodeId, NodeId)> all = [](NodeId, NodeId) { return true; };
  return sweep(g, &all);
}

namespace detail {
std::vector<Dependence> computed_kinds_with_bytes_of(const Graph& g,
                                                     const std::function<bool(NodeId, NodeId)>& want) {
  return sweep(g, &want);
}
} // namespace detail

Graph build_dependences(const Graph& g) {
  Graph out;
  static_cast<GraphHeader&>(out) = g;
  out.nodes = g.nodes;
  std::vector<Dependence> deps = computed_kinds(g);
  out.edges.reserve(deps.size());
  for (std::size_t i = 0; i < deps.size(); ++i) {
    Edge e;
    e.src = deps[i].src;
    e.dst = deps[i].dst;
    e.kinds = deps[i].kinds;
    e.flags = FlagSet::wait();
    e.input_index = static_cast<std::uint32_t>(i);
    out.edges.push_back(std::move(e));
  }
  return out;
}

std::string to_string(const std::vector<ByteRange>& ranges) {
  std::string out;
  for (const ByteRange& r : ranges) {
    if (!out.empty()) out += ',';
    out += r.space + ":[" + std::to_string(r.lo) + "," + std::to_string(r.hi) + ")";
  }
  return out;
}

std::vector<ByteRange> canonical_ranges(std::vector<ByteRange> ranges) {
  std::erase_if(ranges, [](const ByteRange& r) { return r.lo >= r.hi; });
  std::sort(ranges.begin(), ranges.end(),
            [](const ByteRange& a, const ByteRange& b) { return std::tie(a.space, a.lo, a.hi) < std::tie(b.space, b.lo, b.hi); });
  std::vector<ByteRange> out;
  for (ByteRange& r : ranges) {
    if (!out.empty() && out.back().space == r.space && r.lo <= out.back().hi) {
      out.back().hi = std::max(out.back().hi, r.hi);
      continue;
    }
    out.push_back(std::move(r));
  }
  return out;
}

} // namespace depreduce
