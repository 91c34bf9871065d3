//===- condense_props.cpp - Properties of reduce --cycles condense -------===//
///
/// reduce_input() in Condense mode == reference::reduce_condensed on cyclic
/// inputs; edges inside a component kept; at most one WAIT edge the filter
/// admits kept between two components; output ⊆ input with the same
/// reachability over WAIT edges; independent of edge order (and of node order
/// without engines); on acyclic input the plain reduction; a cycle through
/// an engine node is an error. The implementation is named in every failure.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>

#include "depreduce/condense.hpp"
#include "depreduce/error.hpp"
#include "depreduce/reference/condense.hpp"
#include "depreduce/testing/graph_pairs.hpp"
#include "depreduce/testing/show.hpp"

namespace depreduce {
namespace {

using Named = std::tuple<std::string, std::string, std::uint8_t, std::uint8_t, bool>;

testing::EngineGraphParams gen_params() {
  testing::EngineGraphParams p;
  p.nodes = *rc::gen::inRange<std::uint32_t>(2, 30);
  p.engines = *rc::gen::inRange<std::uint32_t>(0, 4);
  p.out_degree = *rc::gen::inRange<std::uint32_t>(0, 4);
  p.span = *rc::gen::inRange<std::uint32_t>(1, 10);
  return p;
}

ReduceOptions gen_condense_options() {
  ReduceOptions o;
  o.filter = *rc::gen::element(KindFilter{}, KindFilter::reorder(), KindFilter{KindSet(Kind::Ordered) | Kind::Flow, true});
  o.cycles = CycleMode::Condense;
  return o;
}

std::set<Named> named(const InputReduction& r) {
  std::set<Named> out;
  for (const RemovedEdge& x : r.reduction.removed)
    out.emplace(r.graph.nodes[x.src].name, r.graph.nodes[x.dst].name, x.kinds.bits(), x.flags.bits(),
                x.demoted_to_retain);
  return out;
}

/// Node reachability over WAIT edges, by name (for every node, those it reaches).
std::map<std::string, std::set<std::string>> reach(const std::vector<std::string>& names,
                                                   const std::vector<std::pair<NodeId, NodeId>>& wait_edges) {
  std::vector<std::vector<NodeId>> succ(names.size());
  for (auto [s, d] : wait_edges)
    if (s != d) succ[s].push_back(d);
  std::map<std::string, std::set<std::string>> out;
  for (NodeId u = 0; u < names.size(); ++u) {
    std::vector<bool> seen(names.size(), false);
    std::vector<NodeId> todo{u};
    while (!todo.empty()) {
      NodeId x = todo.back();
      todo.pop_back();
      for (NodeId y : succ[x])
        if (!seen[y]) { seen[y] = true; todo.push_back(y); }
    }
    for (NodeId v = 0; v < names.size(); ++v)
      if (seen[v]) out[names[u]].insert(names[v]);
  }
  return out;
}

RC_GTEST_PROP(Condense, OptimizedEqualsReferenceOnCyclicInputs, (std::uint64_t seed)) {
  const InputGraph in = testing::random_cyclic_input(gen_params(), seed);
  const ReduceOptions o = gen_condense_options();
  RC_LOG() << "implementation: optimized (reduce_input) against reference::reduce_condensed\n" << rc::toString(o) << "\n"
           << rc::toString(in);
  const InputReduction opt = reduce_input(in, o);
  RC_TAG(opt.cyclic_components > 0 ? "cyclic" : "acyclic");
  RC_LOG() << rc::toString(opt);
  std::set<Named> ref;
  for (const RemovedEdge& x : reference::reduce_condensed(in, o))
    ref.emplace(in.nodes[x.src].name, in.nodes[x.dst].name, x.kinds.bits(), x.flags.bits(), x.demoted_to_retain);
  RC_ASSERT(named(opt) == ref);
}

RC_GTEST_PROP(Condense, LawsOfTheCondensedReduction, (std::uint64_t seed)) {
  const InputGraph in = testing::random_cyclic_input(gen_params(), seed);
  const ReduceOptions o = gen_condense_options();
  RC_LOG() << "implementation: optimized (reduce_input)\n" << rc::toString(o) << "\n";
  const InputReduction r = reduce_input(in, o);
  RC_LOG() << rc::toString(r);
  const Graph& g = r.graph;
  // Every edge inside a component kept.
  for (const RemovedEdge& x : r.reduction.removed) RC_ASSERT(r.component[x.src] != r.component[x.dst]);
  // At most one admitted WAIT edge kept between two components (the filter's
  // other edges are kept as they are).
  const std::vector<Edge> kept = kept_edges(g, r.reduction);
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> admitted_kept;
  for (const Edge& e : kept)
    if (is_wait(e) && r.component[e.src] != r.component[e.dst] && o.filter.admits(e))
      ++admitted_kept[{r.component[e.src], r.component[e.dst]}];
  for (const auto& [pair, count] : admitted_kept) RC_ASSERT(count <= 1);
  // Output ⊆ input, same reachability over WAIT edges.
  std::vector<std::string> names;
  for (const Node& v : in.nodes) names.push_back(v.name);
  std::set<std::pair<std::string, std::string>> input_pairs;
  std::vector<std::pair<NodeId, NodeId>> in_wait, out_wait;
  for (const Edge& e : in.edges) {
    input_pairs.emplace(in.nodes[e.src].name, in.nodes[e.dst].name);
    if (is_wait(e)) in_wait.emplace_back(e.src, e.dst);
  }
  for (const Edge& e : kept) {
    RC_ASSERT(input_pairs.count({g.nodes[e.src].name, g.nodes[e.dst].name}) == 1u);
    if (is_wait(e)) out_wait.emplace_back(g.nodes[e.src].input_index, g.nodes[e.dst].input_index);
  }
  // Implicit engine order is a path too (engine nodes are never in a cycle).
  std::vector<NodeId> last_on(g.num_engines, kNoEngine);
  for (NodeId v = 0; v < g.nodes.size(); ++v) {
    const Engine e = g.nodes[v].engine;
    if (e == kNoEngine) continue;
    if (last_on[e] != kNoEngine) {
      in_wait.emplace_back(g.nodes[last_on[e]].input_index, g.nodes[v].input_index);
      out_wait.emplace_back(g.nodes[last_on[e]].input_index, g.nodes[v].input_index);
    }
    last_on[e] = v;
  }
  RC_ASSERT(reach(names, out_wait) == reach(names, in_wait));
  // Independent of edge order; without engines, of node order too.
  InputGraph mixed = testing::mutated(in, testing::Mutation::Shuffled, seed);
  RC_ASSERT(named(reduce_input(mixed, o)) == named(r));
  if (in.num_engines == 0) {
    mixed = testing::mutated(in, testing::Mutation::NodesShuffled, seed);
    RC_ASSERT(named(reduce_input(mixed, o)) == named(r));
  }
}

RC_GTEST_PROP(Condense, OnAcyclicInputIsThePlainReduction, (std::uint64_t seed)) {
  const InputGraph in = testing::random_input_graph(gen_params(), seed);
  ReduceOptions o = gen_condense_options();
  RC_LOG() << "implementation: optimized (reduce_input)\n" << rc::toString(o) << "\n";
  const InputReduction r = reduce_input(in, o);
  const Graph g = make_program_order(in);
  RC_ASSERT(r.graph == g);
  o.cycles = CycleMode::Error;
  RC_ASSERT(r.reduction == reduce(g, o));
}

RC_GTEST_PROP(Condense, CycleThroughAnEngineNodeIsAnError, (std::uint64_t seed)) {
  const InputGraph in = testing::random_cyclic_input(gen_params(), seed, /*engine_cycle=*/true);
  ReduceOptions o;
  o.cycles = CycleMode::Condense;
  try {
    (void)reduce_input(in, o);
    RC_FAIL("optimized reduce_input accepted a cycle through an engine node");
  } catch (const InputError& e) {
    RC_ASSERT(std::string(e.problem()).find("cycle among engine nodes") == 0);
  }
  try {
    (void)reference::reduce_condensed(in, o);
    RC_FAIL("reference::reduce_condensed accepted a cycle through an engine node");
  } catch (const InputError&) {
  }
  o.cycles = CycleMode::Error; // and the default mode still rejects every cycle
  RC_ASSERT_THROWS_AS(reduce_input(in, o), InputError);
}

TEST(Condense, TredExample) {
  // a <-> b, c <-> d, a -> c, b -> c, a -> d, x -> a, x -> b: one edge per component pair.
  InputGraph in;
  in.file = "cyc";
  for (const char* n : {"a", "b", "c", "d", "x"}) {
    Node v;
    v.name = n;
    in.nodes.push_back(v);
  }
  auto edge = [&](NodeId s, NodeId d) { Edge e; e.src = s; e.dst = d; in.edges.push_back(e); };
  edge(0, 1); edge(1, 0); edge(0, 2); edge(1, 2); edge(2, 3); edge(3, 2); edge(0, 3); edge(4, 0); edge(4, 1);
  ReduceOptions o;
  o.cycles = CycleMode::Condense;
  const InputReduction r = reduce_input(in, o);
  EXPECT_EQ(r.cyclic_components, 2u);
  std::set<std::pair<std::string, std::string>> removed;
  for (const RemovedEdge& x : r.reduction.removed) removed.emplace(r.graph.nodes[x.src].name, r.graph.nodes[x.dst].name);
  EXPECT_EQ(removed, (std::set<std::pair<std::string, std::string>>{{"a", "d"}, {"b", "c"}, {"x", "b"}}));
}

} // namespace
} // namespace depreduce
