//===- cli_options_props.cpp - equiv and reduce agree under --cycles condense -===//
///
/// `equiv G R --cycles condense --kinds K` says equivalent when R is
/// `reduce G --cycles condense --kinds K`, on random cyclic inputs, through the
/// functions the CLI calls (cli/options.hpp): R is written as DOT and read
/// back, as `equiv` reads it; both carriers have the same components; their
/// condensations are equivalent for the optimized form and the oracle.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <string>
#include <vector>

#include "depreduce/condense.hpp"
#include "depreduce/equivalence.hpp"
#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/equivalence.hpp"
#include "depreduce/testing/graph_pairs.hpp"
#include "depreduce/transitive_reduction.hpp"
#include "options.hpp"

namespace depreduce {
namespace {

RC_GTEST_PROP(CliOptions, EquivCondenseOfAGraphAndItsCondensedReductionIsEquivalent, (std::uint64_t seed)) {
  testing::EngineGraphParams p;
  p.nodes = *rc::gen::inRange<std::uint32_t>(2, 30);
  p.engines = 0; // a component with an engine node is an error of reduce --cycles condense
  p.out_degree = *rc::gen::inRange<std::uint32_t>(0, 4);
  p.span = *rc::gen::inRange<std::uint32_t>(1, 10);
  InputGraph g = testing::random_cyclic_input(p, seed);
  g.file = "G";
  ReduceOptions o;
  o.cycles = CycleMode::Condense;
  o.filter = *rc::gen::element(KindFilter{}, KindFilter::reorder(), KindFilter::anti_dependence(),
                               KindFilter{KindSet(Kind::Ordered) | Kind::Flow, true});
  InputReduction ir = reduce_input(g, o);
  RC_TAG(ir.cyclic_components > 0 ? "cyclic" : "acyclic");
  const Graph reduced = apply(std::move(ir.graph), ir.reduction);
  InputGraph r = formats::read_graph_text(formats::write_dot(reduced), "R", formats::Format::Dot);

  std::vector<std::string> warnings;
  std::vector<std::uint32_t> comp_g, comp_r;
  const Graph carrier_g = cli::condensed_carrier(g, warnings, comp_g);
  const Graph carrier_r = cli::condensed_carrier(r, warnings, comp_r);
  const InputGraph cond_g = cli::condensation(g, carrier_g, comp_g);
  const InputGraph cond_r = cli::condensation(r, carrier_r, comp_r);
  const std::vector<std::string> differ = cli::differing_components(carrier_g, comp_g, cond_g, carrier_r, comp_r, cond_r);
  RC_ASSERT(differ.empty());
  const EquivalenceOptions eo{o.filter};
  RC_ASSERT(equivalent(make_program_order(cond_g), make_program_order(cond_r), eo).equivalent);
  RC_ASSERT(reference::equivalent(cond_g, cond_r, eo).equivalent);
}

} // namespace
} // namespace depreduce
