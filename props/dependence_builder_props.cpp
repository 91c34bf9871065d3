//===- dependence_builder_props.cpp - Properties of SPEC §5 and §8 --------===//
///
/// Every registered builder, verifier, race check and unit expansion
/// (testing::builder_impls) == the reference; a built graph verifies clean and is
/// race-free; reducing a race-free graph keeps it race-free under every kinds
/// filter; any one mutated label is reported, exactly; the race verdict
/// equals the all-conflicting-pairs verdict; expansion agrees with the
/// recursive flatten, keeps every edge and the leaf order.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "depreduce/reference/race_check.hpp"
#include "depreduce/reference/transitive_reduction.hpp"
#include "depreduce/scheduling_units.hpp"
#include "depreduce/testing/access_programs.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce {
namespace {

using testing::builder_impls;

/// A random access program: 1..30 nodes, 1..3 spaces, up to 3 ranges per
/// direction, 1..8 grid tiles (small = many conflicts), 0..4 engines, and
/// \p max_edges random input edges.
rc::Gen<Graph> gen_program(std::uint32_t max_edges, std::uint32_t min_nodes = 1, std::uint32_t min_accesses = 0) {
  return rc::gen::apply(
      [](std::uint32_t nodes, std::uint32_t spaces, std::uint32_t accesses, std::uint32_t tiles,
         std::uint32_t engines, std::uint32_t edges, std::uint64_t seed) {
        testing::AccessProgramParams p;
        p.nodes = nodes;
        p.spaces = spaces;
        p.max_accesses = accesses;
        p.extent_tiles = tiles;
        p.engines = engines;
        p.edges = edges;
        return testing::random_access_program(p, seed);
      },
      // Only the node count grows with RapidCheck's size; the rest is drawn
      // from its whole range from the first test on.
      rc::gen::inRange<std::uint32_t>(min_nodes, 31), rc::gen::resize(100, rc::gen::inRange<std::uint32_t>(1, 4)),
      rc::gen::resize(100, rc::gen::inRange<std::uint32_t>(min_accesses, 4)),
      rc::gen::resize(100, rc::gen::inRange<std::uint32_t>(1, 9)), rc::gen::resize(100, rc::gen::inRange<std::uint32_t>(0, 5)),
      rc::gen::resize(100, rc::gen::inRange<std::uint32_t>(0, max_edges + 1)),
      rc::gen::arbitrary<std::uint64_t>());
}

rc::Gen<KindFilter> gen_filter() {
  return rc::gen::element(KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence());
}

RC_GTEST_PROP(DependenceBuilder, OptimizedEqualsReference, ()) {
  const Graph g = *gen_program(40);
  RC_CLASSIFY(computed_kinds(g).size() >= 10, "10+ dependences");
  // Every registered implementation (testing::register_builder_impl) against
  // the reference; a third party's null functions are contracts it lacks.
  const testing::BuilderImpl& ref = testing::reference_builder();
  for (const auto& impl : builder_impls()) {
    if (&impl == &ref) continue;
    RC_LOG() << impl.name << "\n";
    if (impl.computed_kinds) {
      RC_ASSERT(impl.computed_kinds(g, {true}) == ref.computed_kinds(g, {true}));
      RC_ASSERT(impl.computed_kinds(g, {false}) == ref.computed_kinds(g, {false}));
    }
    if (impl.build_dependences) RC_ASSERT(impl.build_dependences(g) == ref.build_dependences(g));
    if (impl.verify_labels) RC_ASSERT(impl.verify_labels(g) == ref.verify_labels(g));
    if (impl.find_races) RC_ASSERT(impl.find_races(g) == ref.find_races(g));
  }
}

RC_GTEST_PROP(DependenceBuilder, BytesAndKindsAgree, ()) {
  // With and without bytes, the same pairs and kinds; every pair has bytes.
  const Graph g = *gen_program(0);
  const auto with = computed_kinds(g, {true}), without = computed_kinds(g, {false});
  RC_ASSERT(with.size() == without.size());
  for (std::size_t i = 0; i < with.size(); ++i) {
    RC_ASSERT(std::tie(with[i].src, with[i].dst, with[i].kinds) == std::tie(without[i].src, without[i].dst, without[i].kinds));
    RC_ASSERT(!with[i].bytes.empty());
    RC_ASSERT(with[i].bytes == canonical_ranges(with[i].bytes));
  }
}

RC_GTEST_PROP(DependenceBuilder, BuiltGraphVerifiesCleanAndIsRaceFree, ()) {
  const Graph g = *gen_program(20);
  for (const auto& impl : builder_impls()) {
    const Graph built = (impl.build_dependences ? impl : testing::reference_builder()).build_dependences(g);
    for (const auto& check : builder_impls()) {
      if (check.verify_labels) RC_ASSERT(check.verify_labels(built).empty());
      if (check.find_races) RC_ASSERT(check.find_races(built).empty());
    }
  }
}

RC_GTEST_PROP(DependenceBuilder, ReductionOfARaceFreeGraphIsRaceFree, ()) {
  // A built graph (race-free) plus random unlabelled edges (still race-free),
  // reduced by both reduction twins with any kinds filter.
  const Graph program = *gen_program(15);
  Graph g = build_dependences(program);
  for (const Edge& e : program.edges) { // extra ordering never hurts
    Edge extra = e;
    extra.kinds = KindSet{};
    extra.flags = FlagSet::wait();
    auto at = std::lower_bound(g.edges.begin(), g.edges.end(), extra, [](const Edge& a, const Edge& b) {
      return std::tie(a.src, a.dst) < std::tie(b.src, b.dst);
    });
    if (at == g.edges.end() || at->src != extra.src || at->dst != extra.dst) g.edges.insert(at, extra);
  }
  RC_PRE(find_races(g).empty());
  const KindFilter filter = *gen_filter();
  for (auto* reducer : {&depreduce::reduce, &depreduce::reference::reduce}) {
    const Graph reduced = apply(g, reducer(g, {filter}, nullptr));
    for (const auto& impl : builder_impls())
      if (impl.find_races) RC_ASSERT(impl.find_races(reduced).empty());
  }
}

RC_GTEST_PROP(DependenceBuilder, MutatingOneLabelIsReported, ()) {
  const Graph built = build_dependences(*gen_program(0, 2, 1));
  RC_PRE(!built.edges.empty());
  const std::size_t i = *rc::gen::inRange<std::size_t>(0, built.edges.size());
  const KindSet computed = built.edges[i].kinds;
  // Any non-empty label (ORDERED allowed) whose data kinds differ.
  std::vector<std::uint8_t> labels;
  for (std::uint8_t bits = 1; bits < 16; ++bits)
    if ((KindSet::from_bits(bits) & KindSet::data()) != computed) labels.push_back(bits);
  const KindSet label = KindSet::from_bits(*rc::gen::elementOf(labels));
  Graph mutated = built;
  mutated.edges[i].kinds = label;
  const std::vector<LabelMismatch> expected = {
      {built.edges[i].src, built.edges[i].dst, computed, label & KindSet::data()}};
  for (const auto& impl : builder_impls())
    if (impl.verify_labels) RC_ASSERT(impl.verify_labels(mutated) == expected);
}

RC_GTEST_PROP(DependenceBuilder, RaceVerdictEqualsAllConflictingPairsVerdict, ()) {
  // SPEC §5: checking the computed pairs gives the verdict of checking every
  // pair touching a common byte with a write. Built graphs with a random
  // subset of their edges deleted, on random engines: both verdicts occur.
  const Graph built = build_dependences(*gen_program(0));
  Graph g = built;
  const auto keep = *rc::gen::container<std::vector<bool>>(built.edges.size(), rc::gen::arbitrary<bool>());
  g.edges.clear();
  for (std::size_t i = 0; i < built.edges.size(); ++i)
    if (keep[i]) g.edges.push_back(built.edges[i]);
  const bool race_free = find_races(g).empty();
  RC_CLASSIFY(race_free);
  RC_ASSERT(race_free == reference::race_free_by_all_conflicts(g));
}

// ---- scheduling units

rc::Gen<Graph> gen_unit_graph(bool contiguous) {
  return rc::gen::apply(
      [contiguous](std::uint32_t nodes, std::uint32_t depth, std::uint32_t edges, std::uint64_t seed) {
        testing::UnitGraphParams p;
        p.nodes = nodes;
        p.max_depth = depth;
        p.contiguous = contiguous;
        p.edges = edges;
        Graph g = testing::random_unit_graph(p, seed);
        for (NodeId v = 0; v < g.nodes.size(); ++v) set_attr(g.nodes[v].attrs, "prop_id", std::to_string(v));
        return g;
      },
      rc::gen::inRange<std::uint32_t>(1, 41), rc::gen::inRange<std::uint32_t>(0, 6),
      rc::gen::inRange<std::uint32_t>(0, 60), rc::gen::arbitrary<std::uint64_t>());
}

/// Input id of each output node (from the marker attribute).
std::vector<NodeId> origin(const Graph& out) {
  std::vector<NodeId> id;
  for (const Node& v : out.nodes) id.push_back(static_cast<NodeId>(std::stoul(*find_attr(v.attrs, "prop_id"))));
  return id;
}

/// Every edge (and self-loop), endpoints as input ids, all other fields as is.
std::multiset<std::tuple<NodeId, NodeId, std::uint8_t, std::uint8_t, AttrList, std::uint32_t, std::uint32_t>>
edge_set(const Graph& g, const std::vector<NodeId>& id) {
  std::multiset<std::tuple<NodeId, NodeId, std::uint8_t, std::uint8_t, AttrList, std::uint32_t, std::uint32_t>> out;
  for (const auto* list : {&g.edges, &g.self_loops})
    for (const Edge& e : *list)
      out.emplace(id[e.src], id[e.dst], e.kinds.bits(), e.flags.bits(), e.attrs, e.line, e.input_index);
  return out;
}

/// Innermost unit (a path of subgraph pointers) of each input node.
void units_of(const std::vector<Subgraph>& list, std::vector<const Subgraph*> path,
              std::vector<std::vector<const Subgraph*>>& out) {
  for (const Subgraph& s : list) {
    auto here = path;
    if (is_scheduling_unit(s)) here.push_back(&s);
    for (NodeId v : s.nodes)
      if (here.size() > out[v].size()) out[v] = here;
    units_of(s.children, here, out);
  }
}

bool has_cluster(const std::vector<Subgraph>& list) {
  for (const Subgraph& s : list)
    if (is_scheduling_unit(s) || has_cluster(s.children)) return true;
  return false;
}

void check_expansion(const Graph& g) {
  std::vector<std::string> w0;
  const Graph out = testing::reference_builder().expand_scheduling_units(g, &w0);
  for (const auto& impl : builder_impls()) {
    if (&impl == &testing::reference_builder() || !impl.expand_scheduling_units) continue;
    std::vector<std::string> w1;
    RC_LOG() << impl.name << "\n";
    RC_ASSERT(impl.expand_scheduling_units(g, &w1) == out);
    RC_ASSERT(w1 == w0);
  }
  const std::vector<NodeId> id = origin(out);
  std::vector<NodeId> identity(g.nodes.size());
  for (NodeId v = 0; v < identity.size(); ++v) identity[v] = v;

  // Same nodes, no edge changed, a valid program order, unique names, no wrappers.
  RC_ASSERT(std::set<NodeId>(id.begin(), id.end()).size() == g.nodes.size());
  RC_ASSERT(edge_set(out, id) == edge_set(g, identity));
  for (const Edge& e : out.edges) RC_ASSERT(e.src < e.dst);
  std::set<std::string> names;
  for (const Node& v : out.nodes) names.insert(v.name);
  RC_ASSERT(names.size() == out.nodes.size());
  RC_ASSERT(!has_cluster(out.subgraphs));

  // Leaf order: in depth-first order (input_index), within every body (the
  // top level or a unit) each item - a direct leaf or a child unit's leaves -
  // is one consecutive block, and the blocks follow their first leaf in
  // program order; a block's first leaf is its smallest id.
  std::vector<std::vector<const Subgraph*>> unit(g.nodes.size());
  units_of(g.subgraphs, {}, unit);
  std::vector<NodeId> dfs(out.nodes.size()); // input ids in depth-first order
  for (NodeId v = 0; v < out.nodes.size(); ++v) dfs[out.nodes[v].input_index] = id[v];
  std::set<std::vector<const Subgraph*>> bodies = {{}};
  for (const auto& chain : unit)
    for (std::size_t k = 1; k <= chain.size(); ++k) bodies.emplace(chain.begin(), chain.begin() + k);
  for (const auto& body : bodies) {
    std::vector<std::pair<const void*, NodeId>> blocks; // (item, first leaf) in depth-first order
    std::set<const void*> closed;
    for (NodeId v : dfs) {
      const auto& chain = unit[v];
      if (chain.size() < body.size() || !std::equal(body.begin(), body.end(), chain.begin())) continue;
      const void* item = chain.size() == body.size() ? static_cast<const void*>(&g.nodes[v]) : chain[body.size()];
      if (!blocks.empty() && blocks.back().first == item) {
        RC_ASSERT(blocks.back().second < v);
        continue;
      }
      RC_ASSERT(closed.insert(item).second); // one block per item
      blocks.emplace_back(item, v);
    }
    for (std::size_t k = 1; k < blocks.size(); ++k) RC_ASSERT(blocks[k - 1].second < blocks[k].second);
  }
  // Where the depth-first order respects the edges, it is the program order.
  if (w0.empty())
    for (NodeId v = 0; v < out.nodes.size(); ++v) RC_ASSERT(out.nodes[v].input_index == v);
}

RC_GTEST_PROP(SchedulingUnits, ContiguousUnitsKeepProgramOrderExactly, ()) {
  const Graph g = *gen_unit_graph(true);
  check_expansion(g);
  // Contiguous units: expansion renames and unwraps, it does not reorder.
  const Graph out = expand_scheduling_units(g);
  RC_ASSERT(origin(out) == [&] {
    std::vector<NodeId> ids(g.nodes.size());
    for (NodeId v = 0; v < ids.size(); ++v) ids[v] = v;
    return ids;
  }());
}

RC_GTEST_PROP(SchedulingUnits, InterleavedUnitsAgreeAndKeepEdges, ()) { check_expansion(*gen_unit_graph(false)); }

} // namespace
} // namespace depreduce
