//===- reducer.cpp - Reusable exact reducer (dense path + SyncState sweep) -===//
///
/// \file
/// The dense path: closures as rows of a bit matrix indexed by node id, kept
/// in the Reducer's scratch. Per consumer c in program order (SPEC §3.3, §4):
///   A(c) = ∪ A(y) ∪ {y : y -> c is a C edge},  B(c) = ∪ B(y) ∪ {all y},
/// over the explicit WAIT edges and the implicit engine edges of SPEC §3.2
/// (previous instruction on c's engine: S, and C if synchronous; async
/// instructions whose slot c reuses: C; every earlier instruction on c's
/// engine if c is a barrier: C). First pass: via = the union over every
/// incoming edge; second pass: an admitted candidate y -> c is redundant iff
/// y is in via (bank A for a C edge, B for an S edge); then y joins. This is
/// depreduce::reduce()'s sweep with the lanes replaced by rows: the closures
/// of a region's few hundred nodes fit in a few kilobytes, so nothing is
/// released and every row is a few words.
///
/// Bank B is kept only when some WAIT edge is an S edge (ORDERED only): A is
/// computed from A alone, and only an S candidate reads B.
//===----------------------------------------------------------------------===//
#include "depreduce/reducer.hpp"

#include "order_internal.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace depreduce {

namespace {
constexpr NodeId kNone = ~NodeId{0};

/// A WAIT edge's parts as the sweep keeps them (transitive_reduction.cpp's
/// pack_parts): wait kinds in bits 0-3, some WAIT part unlabelled in bit 4,
/// the edge is a C edge in bit 5.
std::uint8_t pack(KindSet wait_kinds, bool unlabelled) {
  const bool completion = unlabelled || wait_kinds.intersects(KindSet::data());
  return static_cast<std::uint8_t>(wait_kinds.bits() | unlabelled << 4 | completion << 5);
}

/// One merged edge of a builder's graph: the record reduce() would see.
struct MergedEdge {
  NodeId src, dst;
  KindSet kinds;      ///< union of the parts' kinds
  FlagSet flags;      ///< union of the parts' flags
  KindSet wait_kinds; ///< union of the WAIT parts' kinds
  bool unlabelled;    ///< some WAIT part is unlabelled
};
} // namespace

struct Reducer::Scratch {
  // Node facts of the dense sweep.
  std::vector<NodeId> engine_prev;  // previous node on the engine, kNone
  std::vector<std::uint32_t> engine_count;
  std::vector<std::uint32_t> position; // engine position
  std::vector<NodeId> engine_list;  // nodes per engine (CSR by engine_begin)
  std::vector<std::uint32_t> engine_begin;
  // Explicit WAIT edges by consumer (CSR).
  std::vector<std::uint32_t> in_begin;
  std::vector<NodeId> in_src;
  std::vector<std::uint32_t> in_edge; // merged edge index
  std::vector<std::uint8_t> in_parts;
  // Closures: n rows of `words` words per bank; per-engine masks.
  std::vector<std::uint64_t> rows_a, rows_b, engine_mask;
  std::vector<std::uint8_t> redundant;
  // Builder path: pair sort and merged edges.
  std::vector<std::uint32_t> count, tmp, order;
  std::vector<MergedEdge> merged;
  std::vector<std::uint32_t> stamp, slot, per_src, by_rank;
  // Array path.
  std::vector<NodeId> rank, cycle, mapped_src, mapped_dst;
  // Large graphs: a Graph for reduce()'s sweep.
  Graph graph;
};

Reducer::Reducer() : scratch_(std::make_unique<Scratch>()) {}
Reducer::~Reducer() = default;
Reducer::Reducer(Reducer&&) noexcept = default;
Reducer& Reducer::operator=(Reducer&&) noexcept = default;
void Reducer::release_memory() noexcept { scratch_ = std::make_unique<Scratch>(); }

namespace {

inline bool test_bit(const std::uint64_t* row, NodeId y) { return (row[y >> 6] >> (y & 63)) & 1u; }
inline void set_bit(std::uint64_t* row, NodeId y) { row[y >> 6] |= std::uint64_t{1} << (y & 63); }
template <std::uint32_t kW>
inline void or_row(std::uint64_t* to, const std::uint64_t* from, std::uint32_t words) {
  if constexpr (kW != 0) {
    for (std::uint32_t w = 0; w < kW; ++w) to[w] |= from[w];
  } else {
    for (std::uint32_t w = 0; w < words; ++w) to[w] |= from[w];
  }
}

/// Node facts the dense sweep reads from a Node or a NodeSpec array.
template <class T>
struct NodeView {
  const T* nodes;
  Engine engine_of(NodeId v) const { return nodes[v].engine; }
  std::uint32_t window_of(NodeId v) const { return nodes[v].async_window; }
  bool barrier_of(NodeId v) const { return nodes[v].barrier; }
};

} // namespace

namespace {

/// The dense sweep over the CSR in \p s (in_begin/in_src/in_edge/in_parts),
/// marking s.redundant[merged edge]. \p num_engines: 0 = no implicit edge;
/// \p issue: keep bank B (some S edge). Rows of kW words (0 = run time).
template <std::uint32_t kW, class Nodes>
void dense_sweep(Reducer::Scratch& s, std::uint32_t n, std::uint32_t num_engines, const Nodes& nodes, bool issue,
                 const KindFilter& filter) {
  const std::uint32_t words = kW ? kW : (n + 63) / 64;
  s.rows_a.assign(std::size_t{n} * words, 0);
  if (issue) s.rows_b.assign(std::size_t{n} * words, 0);
  std::uint64_t* const rows_a = s.rows_a.data();
  std::uint64_t* const rows_b = issue ? s.rows_b.data() : nullptr;
  const std::uint32_t* const in_begin = s.in_begin.data();
  const NodeId* const in_src = s.in_src.data();
  const std::uint32_t* const in_edge = s.in_edge.data();
  const std::uint8_t* const in_parts = s.in_parts.data();
  std::uint8_t* const redundant = s.redundant.data();

  if (num_engines > 0) {
    // Engine order: previous node per engine, engine positions, and the
    // async completions landing on each node (set into its rows up front,
    // the rows being zero until the sweep reaches them).
    s.engine_prev.assign(n, kNone);
    s.engine_count.assign(num_engines, 0);
    s.engine_begin.assign(std::size_t{num_engines} + 1, 0);
    s.position.resize(n);
    s.engine_mask.assign(std::size_t{num_engines} * words, 0);
    std::vector<NodeId>& last = s.cycle; // reused: last node seen per engine
    last.assign(num_engines, kNone);
    for (NodeId v = 0; v < n; ++v) {
      const Engine e = nodes.engine_of(v);
      if (e == kNoEngine) continue;
      s.engine_prev[v] = last[e];
      last[e] = v;
      s.position[v] = s.engine_count[e]++;
      ++s.engine_begin[e + 1];
    }
    for (std::uint32_t e = 0; e < num_engines; ++e) s.engine_begin[e + 1] += s.engine_begin[e];
    s.engine_list.resize(s.engine_begin[num_engines]);
    for (NodeId v = 0; v < n; ++v) {
      const Engine e = nodes.engine_of(v);
      if (e != kNoEngine) s.engine_list[s.engine_begin[e] + s.position[v]] = v;
    }
    for (NodeId a = 0; a < n; ++a) {
      const Engine e = nodes.engine_of(a);
      const std::uint32_t w = nodes.window_of(a);
      if (e == kNoEngine || w == 0 || w == kAsyncInfinite) continue;
      if (std::uint64_t{s.position[a]} + w >= s.engine_count[e]) continue;
      const NodeId t = s.engine_list[s.engine_begin[e] + s.position[a] + w]; // a C t: slot reused
      set_bit(rows_a + std::size_t{t} * words, a);
      if (issue) set_bit(rows_b + std::size_t{t} * words, a);
    }
  }

  for (NodeId c = 0; c < n; ++c) {
    std::uint64_t* const a = rows_a + std::size_t{c} * words;
    std::uint64_t* const b = issue ? rows_b + std::size_t{c} * words : nullptr;
    Engine e = kNoEngine;
    if (num_engines > 0 && (e = nodes.engine_of(c)) != kNoEngine) {
      if (const NodeId prev = s.engine_prev[c]; prev != kNone) {
        or_row<kW>(a, rows_a + std::size_t{prev} * words, words);
        if (nodes.window_of(prev) == 0) set_bit(a, prev);
        if (issue) {
          or_row<kW>(b, rows_b + std::size_t{prev} * words, words);
          set_bit(b, prev);
        }
      }
      if (nodes.barrier_of(c)) {
        const std::uint64_t* mask = s.engine_mask.data() + std::size_t{e} * words;
        or_row<kW>(a, mask, words);
        if (issue) or_row<kW>(b, mask, words);
      }
    }
    const std::uint32_t begin = in_begin[c], end = in_begin[c + 1];
    // Pass 1: via = union of every explicit predecessor's closure.
    for (std::uint32_t k = begin; k < end; ++k) {
      const NodeId y = in_src[k];
      or_row<kW>(a, rows_a + std::size_t{y} * words, words);
      if (issue) or_row<kW>(b, rows_b + std::size_t{y} * words, words);
    }
    // Pass 2: test each admitted candidate against via; then it joins.
    // (Pairs are merged, so sources are distinct and adding y never changes
    // another candidate's test.)
    for (std::uint32_t k = begin; k < end; ++k) {
      const NodeId y = in_src[k];
      const std::uint8_t parts = in_parts[k];
      const bool completion = (parts & 0x20u) != 0;
      if (filter.admits(KindSet::from_bits(parts), (parts & 0x10u) != 0))
        redundant[in_edge[k]] = completion || !issue ? test_bit(a, y) : test_bit(b, y);
      if (completion) set_bit(a, y);
      if (issue) set_bit(b, y);
    }
    if (e != kNoEngine) set_bit(s.engine_mask.data() + std::size_t{e} * words, c);
  }
}

template <class Nodes>
void run_dense(Reducer::Scratch& s, std::uint32_t n, std::uint32_t num_engines, const Nodes& nodes, bool issue,
               const KindFilter& filter) {
  if (n <= 64) dense_sweep<1>(s, n, num_engines, nodes, issue, filter);
  else if (n <= 128) dense_sweep<2>(s, n, num_engines, nodes, issue, filter);
  else if (n <= 256) dense_sweep<4>(s, n, num_engines, nodes, issue, filter);
  else dense_sweep<0>(s, n, num_engines, nodes, issue, filter);
}

/// CSR by consumer over the WAIT edges among \p m edges sorted by (src,
/// dst); returns true if some WAIT edge is an S edge.
template <class Get>
bool build_in_lists(Reducer::Scratch& s, std::uint32_t n, std::uint32_t m, Get get) {
  s.in_begin.assign(std::size_t{n} + 1, 0);
  bool issue = false;
  std::uint32_t waits = 0;
  for (std::uint32_t i = 0; i < m; ++i) {
    const auto [src, dst, wait, parts] = get(i);
    (void)src;
    if (!wait) continue;
    ++s.in_begin[dst + 1];
    ++waits;
    issue |= (parts & 0x20u) == 0;
  }
  for (std::uint32_t v = 0; v < n; ++v) s.in_begin[v + 1] += s.in_begin[v];
  s.in_src.resize(waits);
  s.in_edge.resize(waits);
  s.in_parts.resize(waits);
  std::vector<std::uint32_t>& fill = s.tmp;
  fill.assign(s.in_begin.begin(), s.in_begin.end() - 1);
  for (std::uint32_t i = 0; i < m; ++i) {
    const auto [src, dst, wait, parts] = get(i);
    if (!wait) continue;
    const std::uint32_t k = fill[dst]++;
    s.in_src[k] = src;
    s.in_edge[k] = i;
    s.in_parts[k] = parts;
  }
  return issue;
}

struct EdgeFacts {
  NodeId src, dst;
  bool wait;
  std::uint8_t parts;
};

std::string edge_text(std::uint32_t i, NodeId s, NodeId d) {
  return "edge " + std::to_string(i) + ": " + std::to_string(s) + " -> " + std::to_string(d);
}

} // namespace

Status Reducer::reduce(const Graph& g, Reduction& out, const ReduceOptions& options) {
  out.removed.clear();
  const auto n = static_cast<std::uint32_t>(g.nodes.size());
  const auto m = static_cast<std::uint32_t>(g.edges.size());
  if (g.num_engines > kMaxEngines)
    return Status(ErrorCode::BadArgument, 0, "engine count " + std::to_string(g.num_engines) + " exceeds " +
                                                 std::to_string(kMaxEngines));
  for (NodeId v = 0; v < n; ++v)
    if (g.nodes[v].engine != kNoEngine && g.nodes[v].engine >= g.num_engines)
      return Status(ErrorCode::BadArgument, v, "node " + std::to_string(v) + ": engine out of range");
  for (std::uint32_t i = 0; i < m; ++i) {
    const Edge& e = g.edges[i];
    if (e.src >= e.dst || e.dst >= n)
      return Status(ErrorCode::BadArgument, i, edge_text(i, e.src, e.dst) + " is out of range or not src < dst");
  }
  if (n > kDenseMaxNodes || options.mode != ReductionMode::Exact) {
    out = depreduce::reduce(g, options);
    return Status::success();
  }
  Scratch& s = *scratch_;
  const bool issue = build_in_lists(s, n, m, [&](std::uint32_t i) {
    const Edge& e = g.edges[i];
    return EdgeFacts{e.src, e.dst, is_wait(e), pack(wait_kinds(e), has_unlabelled_wait_part(e))};
  });
  s.redundant.assign(m, 0);
  if (n > 0) {
    run_dense(s, n, g.num_engines, NodeView<Node>{g.nodes.data()}, issue, options.filter);
  }
  for (std::uint32_t i = 0; i < m; ++i)
    if (s.redundant[i]) {
      const Edge& e = g.edges[i];
      out.removed.push_back({e.src, e.dst, e.kinds, e.flags, e.flags.has(Flag::Retain), i});
    }
  return Status::success();
}

Status Reducer::reduce(const GraphBuilder& b, Reduction& out, const ReduceOptions& options) {
  out.removed.clear();
  if (Status st = b.validate(); !st.ok()) return st;
  const std::uint32_t n = b.num_nodes();
  const std::uint32_t m = b.num_edges();
  Scratch& s = *scratch_;
  if (n > kDenseMaxNodes || options.mode != ReductionMode::Exact) {
    detail::build_graph_in_order(b, s.graph, s.count, s.tmp, s.order, /*with_names=*/false);
    out = depreduce::reduce(s.graph, options);
    return Status::success();
  }
  // One pass of a counting sort by consumer (parts in call order), then
  // per consumer the parts of each producer merged into one pair (SPEC §2;
  // a stamp per node finds the pair already opened for this consumer); the
  // pairs come out by consumer, and a pair's index in (src, dst) order is
  // its producer's offset plus the pairs of that producer seen so far
  // (consumers ascend), so no second sort is needed.
  const BuilderEdge* const edges = b.edges().data();
  std::vector<std::uint32_t>& count = s.count;
  count.assign(std::size_t{n} + 1, 0);
  std::uint32_t links = 0;
  for (std::uint32_t i = 0; i < m; ++i)
    if (edges[i].src != edges[i].dst) ++count[edges[i].dst + 1], ++links;
  for (std::uint32_t v = 0; v < n; ++v) count[v + 1] += count[v];
  s.tmp.resize(links);
  for (std::uint32_t i = 0; i < m; ++i)
    if (edges[i].src != edges[i].dst) s.tmp[count[edges[i].dst]++] = i; // count[v] ends at v's end
  s.stamp.assign(n, 0);
  s.slot.resize(n);
  s.per_src.assign(std::size_t{n} + 1, 0);
  s.merged.clear();
  for (NodeId c = 0, k = 0; c < n; ++c) {
    for (; k < count[c]; ++k) {
      const BuilderEdge& p = edges[s.tmp[k]];
      const bool wait = p.flags.has(Flag::Wait);
      if (s.stamp[p.src] != c + 1) {
        s.stamp[p.src] = c + 1;
        s.slot[p.src] = static_cast<std::uint32_t>(s.merged.size());
        ++s.per_src[p.src + 1];
        s.merged.push_back({p.src, c, p.kinds, p.flags, wait ? p.kinds : KindSet(), wait && p.kinds.empty()});
        continue;
      }
      MergedEdge& e = s.merged[s.slot[p.src]];
      e.kinds |= p.kinds;
      e.flags |= p.flags;
      if (wait) {
        e.wait_kinds |= p.kinds;
        e.unlabelled = e.unlabelled || p.kinds.empty();
      }
    }
  }
  for (std::uint32_t v = 0; v < n; ++v) s.per_src[v + 1] += s.per_src[v];
  // Ranks, the rank -> pair map, and the sweep's in-lists (WAIT pairs).
  const auto mm = static_cast<std::uint32_t>(s.merged.size());
  s.by_rank.resize(mm);
  s.in_begin.assign(std::size_t{n} + 1, 0);
  s.in_src.clear();
  s.in_edge.clear();
  s.in_parts.clear();
  bool issue = false;
  for (std::uint32_t q = 0; q < mm; ++q) {
    const MergedEdge& e = s.merged[q];
    const std::uint32_t rank = s.per_src[e.src]++;
    s.by_rank[rank] = q;
    if (!e.flags.has(Flag::Wait)) continue;
    const std::uint8_t parts = pack(e.wait_kinds, e.unlabelled);
    issue |= (parts & 0x20u) == 0;
    ++s.in_begin[e.dst + 1];
    s.in_src.push_back(e.src);
    s.in_edge.push_back(rank);
    s.in_parts.push_back(parts);
  }
  for (std::uint32_t v = 0; v < n; ++v) s.in_begin[v + 1] += s.in_begin[v];
  s.redundant.assign(mm, 0);
  if (n > 0) run_dense(s, n, b.num_engines(), NodeView<NodeSpec>{b.nodes().data()}, issue, options.filter);
  for (std::uint32_t r = 0; r < mm; ++r)
    if (s.redundant[r]) {
      const MergedEdge& e = s.merged[s.by_rank[r]];
      out.removed.push_back({e.src, e.dst, e.kinds, e.flags, e.flags.has(Flag::Retain), r});
    }
  return Status::success();
}

namespace {

/// The array entry's dense sweep: plain WAIT edges, one bank, no engines.
/// Rows of kW words (0 = \p words at run time). \p src / \p dst are the
/// edges in program-order ids; self-loops are skipped (keep stays 1).
/// \p by_dst: edges already grouped by non-decreasing dst, so each
/// consumer's edges are a contiguous run and no CSR is built; \p by_src:
/// the same by source (forward dependence lists).
template <std::uint32_t kW>
void plain_sweep(Reducer::Scratch& s, std::uint32_t n, std::uint32_t m, const std::uint32_t* src,
                 const std::uint32_t* dst, std::uint8_t* keep, bool by_dst, bool by_src) {
  const std::uint32_t words = kW ? kW : (n + 63) / 64;
  s.rows_a.assign(std::size_t{n} * words, 0);
  std::uint64_t* const rows = s.rows_a.data();
  // One node c and the edges idx(k), k in [begin, end), between c and its
  // neighbours `other` (its predecessors, for rows of ancestors; or its
  // successors, for rows of descendants): the same two passes either way.
  auto consume = [&](NodeId c, std::uint32_t begin, std::uint32_t end, auto idx, const std::uint32_t* other) {
    std::uint64_t* const row = rows + std::size_t{c} * words;
    if constexpr (kW == 1) {
      std::uint64_t via = 0;
      for (std::uint32_t k = begin; k < end; ++k) {
        const std::uint32_t i = idx(k);
        if (other[i] != c) via |= rows[other[i]];
      }
      for (std::uint32_t k = begin; k < end; ++k) {
        const std::uint32_t i = idx(k);
        const NodeId y = other[i];
        if (y == c) continue;
        keep[i] = static_cast<std::uint8_t>(~via >> y & 1u);
        via |= std::uint64_t{1} << y; // a later duplicate of y finds it: removed
      }
      *row = via;
    } else {
      for (std::uint32_t k = begin; k < end; ++k) {
        const std::uint32_t i = idx(k);
        if (other[i] != c) or_row<kW>(row, rows + std::size_t{other[i]} * words, words);
      }
      for (std::uint32_t k = begin; k < end; ++k) {
        const std::uint32_t i = idx(k);
        const NodeId y = other[i];
        if (y == c) continue;
        keep[i] = static_cast<std::uint8_t>(!test_bit(row, y));
        set_bit(row, y);
      }
    }
  };
  const auto same = [](std::uint32_t j) { return j; };
  if (by_src && !by_dst) {
    // Edges grouped by producer, as GCC's and LLVM's forward dependence
    // lists are: rows of descendants, producers in descending order (an edge
    // u -> v is redundant iff v is a descendant of another successor of u,
    // the mirror image of the ancestor test). No CSR is built.
    std::uint32_t end = m;
    while (end > 0) {
      const NodeId u = src[end - 1];
      std::uint32_t begin = end - 1;
      while (begin > 0 && src[begin - 1] == u) --begin;
      consume(u, begin, end, same, dst);
      end = begin;
    }
    return;
  }
  if (by_dst) {
    std::uint32_t k = 0;
    while (k < m) {
      const NodeId c = dst[k];
      std::uint32_t end = k + 1;
      while (end < m && dst[end] == c) ++end;
      consume(c, k, end, same, src);
      k = end;
    }
    return;
  }
  s.in_begin.assign(std::size_t{n} + 1, 0);
  for (std::uint32_t i = 0; i < m; ++i) ++s.in_begin[dst[i] + 1];
  for (std::uint32_t v = 0; v < n; ++v) s.in_begin[v + 1] += s.in_begin[v];
  s.in_edge.resize(m);
  std::vector<std::uint32_t>& fill = s.tmp;
  fill.assign(s.in_begin.begin(), s.in_begin.end() - 1);
  for (std::uint32_t i = 0; i < m; ++i) s.in_edge[fill[dst[i]]++] = i;
  const std::uint32_t* const list = s.in_edge.data();
  for (NodeId c = 0; c < n; ++c)
    consume(c, s.in_begin[c], s.in_begin[c + 1], [list](std::uint32_t j) { return list[j]; }, src);
}

} // namespace

Status Reducer::reduce_edges(std::uint32_t n, std::span<const std::uint32_t> src, std::span<const std::uint32_t> dst,
                             std::span<std::uint8_t> keep) {
  if (src.size() != dst.size() || src.size() != keep.size())
    return Status(ErrorCode::BadArgument, 0,
                  "src, dst and keep differ in length (" + std::to_string(src.size()) + ", " +
                      std::to_string(dst.size()) + ", " + std::to_string(keep.size()) + ")");
  if (src.size() >= std::uint64_t{1} << 32)
    return Status(ErrorCode::BadArgument, 0, "more than 2^32 - 1 edges");
  const auto m = static_cast<std::uint32_t>(src.size());
  bool forward = true, by_dst = true, by_src = true;
  std::uint32_t last_dst = 0, last_src = 0;
  for (std::uint32_t i = 0; i < m; ++i) {
    const std::uint32_t s = src[i], d = dst[i];
    if (s >= n || d >= n)
      return Status(ErrorCode::NodeOutOfRange, i,
                    edge_text(i, s, d) + " names node " + std::to_string(s >= n ? s : d) + " but the graph has " +
                        std::to_string(n) + " nodes");
    forward &= s <= d;
    by_dst &= d >= last_dst;
    by_src &= s >= last_src;
    last_dst = d;
    last_src = s;
    keep[i] = 1;
  }
  Scratch& sc = *scratch_;
  const std::uint32_t* ps = src.data();
  const std::uint32_t* pd = dst.data();
  if (!forward) {
    std::uint32_t cycle_edge = 0;
    if (!detail::stable_topological_rank(
            n, m, [&](std::uint32_t i) { return src[i]; }, [&](std::uint32_t i) { return dst[i]; }, sc.rank, sc.cycle,
            cycle_edge)) {
      std::string text;
      for (NodeId v : sc.cycle) text += std::to_string(v) + " -> ";
      text += std::to_string(sc.cycle.front());
      return Status(ErrorCode::Cycle, cycle_edge, "cycle: " + text);
    }
    sc.mapped_src.resize(m);
    sc.mapped_dst.resize(m);
    for (std::uint32_t i = 0; i < m; ++i) {
      sc.mapped_src[i] = sc.rank[src[i]];
      sc.mapped_dst[i] = sc.rank[dst[i]];
    }
    ps = sc.mapped_src.data();
    pd = sc.mapped_dst.data();
    by_dst = by_src = false;
  }
  if (n <= kDenseMaxNodes) {
    if (n <= 64) plain_sweep<1>(sc, n, m, ps, pd, keep.data(), by_dst, by_src);
    else if (n <= 128) plain_sweep<2>(sc, n, m, ps, pd, keep.data(), by_dst, by_src);
    else if (n <= 256) plain_sweep<4>(sc, n, m, ps, pd, keep.data(), by_dst, by_src);
    else plain_sweep<0>(sc, n, m, ps, pd, keep.data(), by_dst, by_src);
    return Status::success();
  }
  // Large: reduce()'s SyncState sweep on the Graph of the program-order ids.
  detail::build_plain_graph(n, m, ps, pd, sc.graph, sc.count, sc.tmp, sc.order);
  const Reduction r = depreduce::reduce(sc.graph);
  // A pair's first occurrence carries the verdict; later ones are removed.
  for (std::uint32_t i = 0; i < m; ++i)
    if (ps[i] != pd[i]) keep[i] = 0;
  for (const Edge& e : sc.graph.edges) keep[e.input_index] = 1;
  for (const RemovedEdge& e : r.removed) keep[sc.graph.edges[e.edge].input_index] = 0;
  return Status::success();
}

} // namespace depreduce
