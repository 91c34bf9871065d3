//===- fuzz/online_reduction_diff.hpp - Online reducer vs its oracle -*- C++ -*-===//
///
/// \file
/// One driver, shared by fuzz_online_reduction_diff and props/online_reduction_props.cpp:
/// feeds a Graph node by node, in program order, to depreduce::OnlineReducer
/// and to its oracle depreduce::reference::OnlineReducer, and compares at
/// every prefix:
///  - implied(p, c) for random p < c, both relations, for the open node c
///    (before its edges) and for a random finished node (status and answer);
///  - implied(p, c) with each incoming edge's kinds, before the edges are added;
///  - add_edges(c): the parts of each merged edge (parts_to_write(), SPEC §2)
///    listed in a random order; both removed lists equal, and equal to what
///    reduce() of the whole graph removes with target c (src, kinds, flags,
///    demotion);
///  - the protocol errors (an edge from a retired node, the wrong open node,
///    unknown nodes, retiring twice): the same ErrorCode from both, and
///    nothing changed after an error.
/// Nodes are retired three ways, chosen per node: a declared successor count,
/// retire() after its last consumer, or never.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FUZZ_ONLINE_REDUCTION_DIFF_HPP
#define DEPREDUCE_FUZZ_ONLINE_REDUCTION_DIFF_HPP

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "depreduce/online_reduction.hpp"
#include "depreduce/reference/online_reduction.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce::fuzz {

/// A small deterministic generator (splitmix64).
struct OnlineRng {
  std::uint64_t s;
  std::uint64_t next() {
    std::uint64_t z = (s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
  }
  std::uint32_t below(std::uint32_t n) { return n == 0 ? 0 : static_cast<std::uint32_t>(next() % n); }
};

inline std::string online_show(const std::vector<RemovedEdge>& r) {
  std::string s = "{";
  for (const RemovedEdge& e : r)
    s += " " + std::to_string(e.src) + "->" + std::to_string(e.dst) + "[" + to_string(e.kinds) + "/" +
         to_string(e.flags) + (e.demoted_to_retain ? ",demoted" : "") + ",part " + std::to_string(e.edge) + "]";
  return s + " }";
}

/// Takes every node off its engine (num_engines = 0): the graph's explicit
/// edges alone order it, ORDERED-only edges included.
inline void strip_engines(Graph& g) {
  for (Node& v : g.nodes) {
    v.engine = kNoEngine;
    v.engine_position = 0;
  }
  g.num_engines = 0;
}

/// Runs \p g through both online reducers with \p filter; \p seed picks the
/// edge orders, the retirement policy and the queries. \returns "" if every
/// comparison held, else what differed first.
inline std::string online_difference(const Graph& g, const KindFilter& filter, std::uint64_t seed) {
  OnlineRng rng{seed};
  const std::uint32_t n = static_cast<std::uint32_t>(g.nodes.size());
  ReduceOptions ro;
  ro.filter = filter;
  const Reduction full = reduce(g, ro);
  std::vector<std::vector<std::tuple<NodeId, KindSet, FlagSet, bool>>> expect(n);
  for (const RemovedEdge& e : full.removed) expect[e.dst].emplace_back(e.src, e.kinds, e.flags, e.demoted_to_retain);
  std::vector<std::vector<const Edge*>> in(n);
  std::vector<std::uint32_t> consumers(n, 0), done(n, 0);
  for (const Edge& e : g.edges) {
    in[e.dst].push_back(&e);
    if (is_wait(e)) ++consumers[e.src];
  }
  // 0: declared successor count, 1: retire() after the last consumer, 2: never.
  std::vector<std::uint8_t> policy(n);
  for (auto& p : policy) p = static_cast<std::uint8_t>(rng.below(3));
  std::vector<bool> retired(n, false);

  OnlineReducer opt;
  reference::OnlineReducer ref;
  const OnlineOptions options{g.num_engines, filter};
  if (Status a = opt.reset(options), b = ref.reset(options); a.code() != b.code()) return "reset: codes differ";
  auto same = [](const Status& a, const Status& b) { return a.code() == b.code() && a.index() == b.index(); };
  auto codes = [](const Status& a, const Status& b) {
    return std::string(" (optimized: ") + error_code_name(a.code()) + " " + a.message() + "; reference: " +
           error_code_name(b.code()) + ")";
  };
  auto query = [&](NodeId p, NodeId c, Relation r) -> std::string {
    bool x = false, y = false;
    const Status a = opt.implied(p, c, r, &x), b = ref.implied(p, c, r, &y);
    if (!same(a, b)) return "implied status" + codes(a, b);
    if (a.ok() && x != y)
      return "implied(" + std::to_string(p) + ", " + std::to_string(c) + ", " +
             (r == Relation::IssuedBefore ? "S" : "C") + "): optimized " + std::to_string(x) + ", reference " +
             std::to_string(y);
    return "";
  };

  std::vector<OnlineEdge> edges;
  std::vector<RemovedEdge> ra, rb;
  for (NodeId c = 0; c < n; ++c) {
    const Node& node = g.nodes[c];
    OnlineNodeSpec spec{node.engine, node.async_window, node.barrier,
                        policy[c] == 0 ? consumers[c] : kUnknownSuccessors};
    NodeId ia = 0, ib = 0;
    if (Status a = opt.add_node(spec, &ia), b = ref.add_node(spec, &ib); !a.ok() || !b.ok() || ia != ib || ia != c)
      return "add_node(" + std::to_string(c) + ")" + codes(a, b);
    const std::string at = " at node " + std::to_string(c);
    // Random queries on the open node and on an earlier one.
    for (int q = 0; q < 4 && c > 0; ++q) {
      const Relation r = rng.below(2) ? Relation::IssuedBefore : Relation::CompletedBefore;
      if (std::string d = query(rng.below(c), c, r); !d.empty()) return d + at;
      const NodeId v = rng.below(c);
      if (v > 0)
        if (std::string d = query(rng.below(v), v, r); !d.empty()) return d + " (finished node)" + at;
    }
    // The edges' own questions, then the edges in a random order.
    edges.clear();
    for (const Edge* e : in[c]) {
      for (const EdgePart& part : parts_to_write(*e)) edges.push_back({e->src, part.kinds, part.flags});
      bool x = false, y = false;
      const Status a = opt.implied(e->src, c, wait_kinds(*e), &x), b = ref.implied(e->src, c, wait_kinds(*e), &y);
      if (!same(a, b) || x != y) return "implied with the edge's kinds" + codes(a, b) + at;
    }
    for (std::size_t i = edges.size(); i > 1; --i) std::swap(edges[i - 1], edges[rng.below(static_cast<std::uint32_t>(i))]);
    // Protocol errors: both refuse alike, and nothing changes.
    if (rng.below(4) == 0) {
      for (NodeId r = 0; r < c; ++r)
        if (retired[r]) {
          std::vector<OnlineEdge> bad = edges;
          bad.insert(bad.begin() + rng.below(static_cast<std::uint32_t>(bad.size() + 1)), OnlineEdge{r, {}, FlagSet::wait()});
          const Status a = opt.add_edges(c, bad, ra), b = ref.add_edges(c, bad, rb);
          if (a.ok() || !same(a, b)) return "edge from retired node " + std::to_string(r) + codes(a, b) + at;
          break;
        }
      const Status a = opt.add_edges(c + 1, edges, ra), b = ref.add_edges(c + 1, edges, rb);
      if (a.ok() || !same(a, b)) return "add_edges on a node not open" + codes(a, b) + at;
      const Status a2 = opt.implied(c, c, Relation::CompletedBefore, nullptr);
      if (a2.code() != ErrorCode::BadArgument) return "implied with a null output" + at;
      bool x = false, y = false;
      const Status a3 = opt.implied(c + 1, c + 1, Relation::CompletedBefore, &x),
                   b3 = ref.implied(c + 1, c + 1, Relation::CompletedBefore, &y);
      if (a3.ok() || !same(a3, b3)) return "implied on an unknown node" + codes(a3, b3) + at;
      const Status a4 = opt.retire(c), b4 = ref.retire(c);
      if (a4.ok() || !same(a4, b4)) return "retire of the open node" + codes(a4, b4) + at;
    }
    const Status a = opt.add_edges(c, edges, ra), b = ref.add_edges(c, edges, rb);
    if (!a.ok() || !b.ok()) return "add_edges refused" + codes(a, b) + at;
    if (!(ra == rb)) return "removed: optimized " + online_show(ra) + ", reference " + online_show(rb) + at;
    std::vector<std::tuple<NodeId, KindSet, FlagSet, bool>> got;
    for (const RemovedEdge& e : ra) got.emplace_back(e.src, e.kinds, e.flags, e.demoted_to_retain);
    if (got != expect[c]) return "removed " + online_show(ra) + " differs from reduce() on the whole graph" + at;
    for (const RemovedEdge& e : ra)
      if (e.dst != c || e.edge >= edges.size() || edges[e.edge].src != e.src) return "bad part index" + at;
    // Retirement.
    if (policy[c] == 0 && consumers[c] == 0) retired[c] = true;
    for (const Edge* e : in[c]) {
      if (!is_wait(*e)) continue;
      const NodeId s = e->src;
      if (++done[s] != consumers[s]) continue;
      if (policy[s] == 0) retired[s] = true;
      if (policy[s] != 1) continue;
      const Status a5 = opt.retire(s), b5 = ref.retire(s);
      if (!a5.ok() || !b5.ok()) return "retire(" + std::to_string(s) + ")" + codes(a5, b5) + at;
      retired[s] = true;
      const Status a6 = opt.retire(s), b6 = ref.retire(s);
      if (a6.ok() || !same(a6, b6)) return "retire twice" + codes(a6, b6) + at;
    }
  }
  return "";
}

} // namespace depreduce::fuzz

#endif // DEPREDUCE_FUZZ_ONLINE_REDUCTION_DIFF_HPP
