//===- reducer_props.cpp - Reducer and GraphBuilder against the oracle ----===//
///
/// The reusable Reducer equals the reference on graphs from
/// every generator of testing/ (random_dag, random_engine_graph,
/// random_input_graph, the three *_from_bytes decoders, part_combinations(),
/// generate_workload()), one Reducer object reused across all the graphs of a
/// property case *and* across cases (a stale row, mask or list left by an
/// earlier graph shows as a difference); GraphBuilder's Graph equals
/// make_program_order() of the same input; reduce_edges() gives the verdicts
/// the reference gives on the edges as listed (any id order, duplicates,
/// self-loops).
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "depreduce/graph_builder.hpp"
#include "depreduce/reducer.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/testing/generators.hpp"
#include "depreduce/testing/implementations.hpp"
#include "depreduce/testing/show.hpp"
#include "depreduce/workloads/workloads.hpp"

namespace depreduce {
namespace {

/// One Reducer for the whole run: every property case adds graphs it has not
/// seen, of other sizes and shapes, to the same scratch.
Reducer& shared_reducer() {
  static Reducer r;
  return r;
}

rc::Gen<KindFilter> gen_filter() {
  return rc::gen::element(KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence(),
                          KindFilter{KindSet(Kind::Ordered) | Kind::Flow, true},
                          KindFilter{KindSet(Kind::Ordered), false});
}

testing::EngineGraphParams params(std::uint32_t nodes, std::uint32_t engines, std::uint32_t degree,
                                  std::uint32_t span) {
  testing::EngineGraphParams p;
  p.nodes = nodes;
  p.engines = engines;
  p.out_degree = degree;
  p.span = span;
  return p;
}

/// A graph of every pair of parts of part_combinations() between node i and
/// i + 1 .. i + 3 of a chain on one engine: parts meeting paths of each kind.
Graph parts_graph(std::uint64_t seed, std::uint32_t engines) {
  const auto& combos = testing::part_combinations();
  std::mt19937_64 rng(seed);
  InputGraph in;
  in.num_engines = engines;
  const std::uint32_t n = 12;
  for (std::uint32_t v = 0; v < n; ++v) {
    Node& node = in.nodes.emplace_back();
    node.name = "n" + std::to_string(v);
    node.engine = engines ? static_cast<Engine>(rng() % (engines + 1)) : kNoEngine;
    if (node.engine == engines) node.engine = kNoEngine;
    node.async_window = static_cast<std::uint32_t>(rng() % 3);
    node.barrier = rng() % 7 == 0;
  }
  for (std::uint32_t k = 0; k < 24; ++k) {
    const NodeId a = static_cast<NodeId>(rng() % (n - 1));
    const NodeId b = a + 1 + static_cast<NodeId>(rng() % std::min<std::uint32_t>(3, n - 1 - a));
    for (const testing::PartSpec& part : combos[rng() % combos.size()]) {
      Edge& e = in.edges.emplace_back();
      e.src = a;
      e.dst = b;
      e.kinds = part.kinds;
      e.flags = part.flags;
    }
  }
  return make_program_order(std::move(in));
}

/// Graphs from every generator of testing/, sized by \p seed.
std::vector<Graph> graphs_from_every_generator(std::uint64_t seed, std::uint32_t size) {
  std::mt19937_64 rng(seed);
  std::vector<Graph> out;
  const std::uint32_t n = 1 + size % 90 + (rng() % 4 == 0 ? static_cast<std::uint32_t>(rng() % 300) : 0);
  out.push_back(testing::random_dag(n, 1 + static_cast<std::uint32_t>(rng() % 5), 1 + static_cast<std::uint32_t>(rng() % 30), rng()));
  out.push_back(testing::random_engine_graph(
      params(n, 1 + static_cast<std::uint32_t>(rng() % 8), static_cast<std::uint32_t>(rng() % 4),
             1 + static_cast<std::uint32_t>(rng() % 12)),
      rng()));
  out.push_back(make_program_order(testing::random_input_graph(
      params(1 + n % 40, 1 + static_cast<std::uint32_t>(rng() % 4), 2, 6), rng())));
  std::vector<std::uint8_t> bytes(16 + rng() % 300);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(rng());
  out.push_back(testing::dag_from_bytes(bytes.data(), bytes.size()));
  out.push_back(testing::engine_graph_from_bytes(bytes.data(), bytes.size()));
  out.push_back(make_program_order(testing::input_graph_from_bytes(bytes.data(), bytes.size())));
  out.push_back(parts_graph(rng(), static_cast<std::uint32_t>(rng() % 3)));
  const std::vector<std::string> names = workloads::workload_names();
  out.push_back(workloads::generate_workload(workloads::parse_workload(names[rng() % names.size()]), 20 + rng() % 150, rng()));
  return out;
}

/// The builder holding \p g's nodes and its merged edges spelled as parts,
/// every part of every pair in one shuffled list (so a pair's parts come in
/// any order, interleaved with other pairs').
void fill_builder(GraphBuilder& b, const Graph& g, std::uint64_t seed) {
  b.clear(g.num_engines);
  for (const Node& node : g.nodes) b.add_node({node.engine, node.async_window, node.barrier});
  std::vector<BuilderEdge> parts;
  for (const Edge& e : g.edges)
    for (const EdgePart& p : parts_to_write(e)) parts.push_back({e.src, e.dst, p.kinds, p.flags});
  std::shuffle(parts.begin(), parts.end(), std::mt19937_64(seed));
  for (const BuilderEdge& p : parts) b.add_edge(p.src, p.dst, p.kinds, p.flags);
}

RC_GTEST_PROP(Reducer, ReusedReducerEqualsReferenceOnEveryGenerator, (std::uint64_t seed)) {
  const auto size = *rc::gen::inRange<std::uint32_t>(0, 200);
  const KindFilter filter = *gen_filter();
  Reducer& r = shared_reducer();
  GraphBuilder b;
  Reduction red;
  for (const Graph& g : graphs_from_every_generator(seed, size)) {
    const ReduceOptions options{filter};
    const Reduction want = testing::reference_reduction().reduce(g, options, nullptr);
    RC_ASSERT(r.reduce(g, red, options).ok());
    RC_ASSERT(red == want);
    fill_builder(b, g, seed);
    RC_ASSERT(r.reduce(b, red, options).ok());
    RC_ASSERT(red == want);
  }
}

RC_GTEST_PROP(Reducer, ReusedReducerEqualsReduceAboveTheDenseThreshold, (std::uint64_t seed)) {
  // The sweep path, and the switch between the two paths on one object. The
  // oracle takes ~0.1 s on these sizes: one case in eight runs (the cases
  // are a deterministic function of RapidCheck's fixed seed).
  if (seed % 8 != 0) RC_SUCCEED("small run: skipped");
  Reducer& r = shared_reducer();
  Reduction red;
  const Graph g = testing::random_engine_graph(params(Reducer::kDenseMaxNodes + 1 + seed % 200, 4, 2, 30), seed);
  RC_ASSERT(r.reduce(g, red).ok());
  RC_ASSERT(red == testing::reference_reduction().reduce(g, {}, nullptr));
}

/// \p in without what GraphBuilder does not carry (attributes, accesses,
/// lines, subgraphs): the input a compiler would give by id.
InputGraph by_id(InputGraph in) {
  in.file.clear();
  in.name.clear();
  in.graph_attrs.clear();
  in.node_defaults.clear();
  in.edge_defaults.clear();
  in.subgraphs.clear();
  for (Node& node : in.nodes) node.attrs.clear(), node.reads.clear(), node.writes.clear(), node.line = 0;
  for (Edge& e : in.edges) e.attrs.clear(), e.line = 0;
  return in;
}

RC_GTEST_PROP(GraphBuilder, FinishEqualsMakeProgramOrder, (std::uint64_t seed)) {
  const auto n = *rc::gen::inRange<std::uint32_t>(1, 40);
  const bool named = *rc::gen::arbitrary<bool>();
  // Input order differs from program order: finish_renumbered(); the same
  // graph in program order: finish(), which must not renumber.
  const InputGraph in = by_id(testing::random_input_graph(params(n, 1 + static_cast<std::uint32_t>(seed % 5), 2, 6), seed));
  GraphBuilder b;
  b.clear(in.num_engines);
  for (const Node& node : in.nodes)
    if (named) b.add_node({node.engine, node.async_window, node.barrier}, node.name);
    else b.add_node({node.engine, node.async_window, node.barrier});
  for (const Edge& e : in.edges) b.add_edge(e.src, e.dst, e.kinds, e.flags);
  InputGraph same = in;
  if (!named)
    for (NodeId v = 0; v < same.nodes.size(); ++v) same.nodes[v].name = std::to_string(v);
  const Graph want = make_program_order(same);
  Graph got;
  std::vector<NodeId> order;
  RC_ASSERT(b.finish_renumbered(got, &order).ok());
  RC_ASSERT(got == want);
  for (NodeId v = 0; v < order.size(); ++v) RC_ASSERT(got.nodes[order[v]].input_index == v);

  // The program-order graph as a builder: finish() keeps ids.
  GraphBuilder again;
  again.clear(want.num_engines);
  for (const Node& node : want.nodes) again.add_node({node.engine, node.async_window, node.barrier});
  InputGraph as_read;
  as_read.num_engines = want.num_engines;
  for (NodeId v = 0; v < want.nodes.size(); ++v) {
    Node& node = as_read.nodes.emplace_back();
    node.name = std::to_string(v);
    node.engine = want.nodes[v].engine;
    node.async_window = want.nodes[v].async_window;
    node.barrier = want.nodes[v].barrier;
  }
  for (const Edge& e : in.edges) {
    again.add_edge(order[e.src], order[e.dst], e.kinds, e.flags);
    Edge& x = as_read.edges.emplace_back();
    x.src = order[e.src], x.dst = order[e.dst], x.kinds = e.kinds, x.flags = e.flags;
  }
  Graph kept;
  RC_ASSERT(again.finish(kept).ok());
  RC_ASSERT(kept == make_program_order(as_read));
}

RC_GTEST_PROP(Reducer, ReduceEdgesEqualsReferenceInAnyIdOrder, (std::uint64_t seed)) {
  const auto n = *rc::gen::inRange<std::uint32_t>(1, 300);
  std::mt19937_64 rng(seed);
  // A DAG over a random permutation of the ids (so edges go backward in id
  // order about half the time), with duplicates and self-loops.
  std::vector<NodeId> perm(n);
  for (NodeId v = 0; v < n; ++v) perm[v] = v;
  const bool shuffle = rng() % 2 == 0;
  if (shuffle) std::shuffle(perm.begin(), perm.end(), rng);
  const std::uint32_t m = static_cast<std::uint32_t>(rng() % (4 * n + 1));
  std::vector<std::uint32_t> src, dst;
  for (std::uint32_t k = 0; k < m; ++k) {
    std::uint32_t a = static_cast<std::uint32_t>(rng() % n);
    std::uint32_t b = std::min<std::uint32_t>(n - 1, a + static_cast<std::uint32_t>(rng() % 12));
    if (rng() % 20 == 0) b = a;
    src.push_back(perm[a]);
    dst.push_back(perm[b]);
    if (rng() % 10 == 0 && a != b) src.push_back(perm[a]), dst.push_back(perm[b]);
  }
  // The caller's grouping: as generated, by producer (forward dependence
  // lists) or by consumer (backward lists); stable, so duplicates keep
  // their order. Each takes its own path through reduce_edges().
  const auto grouping = rng() % 3;
  if (grouping != 0) {
    std::vector<std::size_t> idx(src.size());
    for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    const auto& key = grouping == 1 ? src : dst;
    std::stable_sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return key[a] < key[b]; });
    std::vector<std::uint32_t> s2, d2;
    for (std::size_t i : idx) s2.push_back(src[i]), d2.push_back(dst[i]);
    src = std::move(s2);
    dst = std::move(d2);
  }
  RC_TAG(grouping == 0 ? "as generated" : grouping == 1 ? "by producer" : "by consumer");
  std::vector<std::uint8_t> keep(src.size(), 9);
  RC_ASSERT(shared_reducer().reduce_edges(n, src, dst, keep).ok());

  InputGraph in;
  for (NodeId v = 0; v < n; ++v) in.nodes.emplace_back().name = std::to_string(v);
  for (std::size_t i = 0; i < src.size(); ++i) {
    Edge& e = in.edges.emplace_back();
    e.src = src[i], e.dst = dst[i];
  }
  const Reduction ref = reference::reduce(in);
  const std::vector<NodeId> order = reference::program_order(in); // position -> input index
  std::map<std::pair<NodeId, NodeId>, bool> removed;
  for (const RemovedEdge& e : ref.removed) removed[{order[e.src], order[e.dst]}] = true;
  std::map<std::pair<NodeId, NodeId>, bool> seen;
  for (std::size_t i = 0; i < src.size(); ++i) {
    std::uint8_t want = 1;
    if (src[i] != dst[i]) {
      const auto pair = std::make_pair(src[i], dst[i]);
      want = seen[pair] ? 0 : !removed[pair];
      seen[pair] = true;
    }
    RC_ASSERT(keep[i] == want);
  }
}

} // namespace
} // namespace depreduce
