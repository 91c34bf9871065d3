//===- fuzz/fuzz_scheduling_units_diff.cpp - Scheduling-unit expansion, twins -------------===//
///
/// bytes -> graph with nested clusters (testing::unit_graph_from_bytes) ->
/// every registered expand_scheduling_units (testing::builder_impls) ->
/// compare results and warnings with the reference's, or that both reject the
/// input with the same InputError. Also checks that the
/// expansion kept every edge (by node identity), left no cluster and gave
/// unique names. Aborts with the graph printed on any difference.
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>

#include "depreduce/error.hpp"
#include "depreduce/scheduling_units.hpp"
#include "depreduce/testing/access_programs.hpp"

namespace {

using namespace depreduce;

struct Outcome {
  std::optional<Graph> graph;
  std::vector<std::string> warnings;
  std::string error;
};

Outcome run(const testing::BuilderImpl& impl, const Graph& g) {
  Outcome o;
  try {
    o.graph = impl.expand_scheduling_units(g, &o.warnings);
  } catch (const InputError& e) {
    o.error = e.what();
  }
  return o;
}

[[noreturn]] void fail(const char* what, const Graph& g, const Outcome& a, const Outcome& b) {
  std::fprintf(stderr, "MISMATCH: %s\n%s", what, testing::describe(g).c_str());
  for (const Outcome* o : {&a, &b}) {
    if (o->graph) std::fprintf(stderr, "---\n%s", testing::describe(*o->graph).c_str());
    else std::fprintf(stderr, "--- error: %s\n", o->error.c_str());
  }
  std::abort();
}

bool has_cluster(const std::vector<Subgraph>& list) {
  for (const Subgraph& s : list)
    if (is_scheduling_unit(s) || has_cluster(s.children)) return true;
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Graph g = testing::unit_graph_from_bytes(data, size);
  for (NodeId v = 0; v < g.nodes.size(); ++v) set_attr(g.nodes[v].attrs, "fuzz_id", std::to_string(v));
  // Every registered expansion (optimized first, then any third party's)
  // against the reference.
  const Outcome ref = run(testing::reference_builder(), g);
  for (const testing::BuilderImpl& impl : testing::builder_impls()) {
    if (&impl == &testing::reference_builder() || !impl.expand_scheduling_units) continue;
    const Outcome a = run(impl, g);
    if (a.graph.has_value() != ref.graph.has_value() || a.error != ref.error)
      fail((impl.name + ": only one rejected the input").c_str(), g, a, ref);
    if (a.graph && (*a.graph != *ref.graph || a.warnings != ref.warnings))
      fail((impl.name + ": expansions differ").c_str(), g, a, ref);
  }
  if (!ref.graph) return 0;

  const Graph& out = *ref.graph;
  std::vector<NodeId> origin;
  std::set<std::string> names;
  for (const Node& v : out.nodes) {
    origin.push_back(static_cast<NodeId>(std::stoul(*find_attr(v.attrs, "fuzz_id"))));
    names.insert(v.name);
  }
  if (names.size() != out.nodes.size()) fail("names not unique", g, ref, ref);
  if (has_cluster(out.subgraphs)) fail("a cluster survived", g, ref, ref);
  std::multiset<std::pair<NodeId, NodeId>> before, after;
  for (const Edge& e : g.edges) before.emplace(e.src, e.dst);
  for (const Edge& e : out.edges) after.emplace(origin[e.src], origin[e.dst]);
  if (before != after) fail("edges changed", g, ref, ref);
  return 0;
}
