//===- cli/read_input.cpp - What a command reads, per --impl -------------===//
///
/// \file
/// The front of both pipelines (SPEC §1, docs/cli.md "--impl"): the default
/// one reads with the one-pass reader and builds the model with
/// make_program_order; the reference one reads with the DOT reader's twin
/// (cgraph) and lets the oracle put the input in its own program order and
/// merge its parallel edges (reference::apply). Nothing of the optimized
/// side decides what a reference run's input means.
//===----------------------------------------------------------------------===//
#include <string>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/reference/transitive_reduction.hpp"

namespace depreduce::cli {

Graph oracle_graph(const InputGraph& input, std::vector<std::string>& warnings) {
  Graph g = reference::apply(input, Reduction{});
  if (!g.self_loops.empty())
    warnings.push_back(g.file + ": warning: " + std::to_string(g.self_loops.size()) +
                       " self-loop(s) kept in the output and ignored for reachability (first: '" +
                       g.nodes[g.self_loops.front().src].name + "')");
  return g;
}

Graph read_model(const std::string& file, const std::string& format, bool reference,
                 std::vector<std::string>& warnings, InputGraph* as_read) {
  const formats::Format f = formats::parse_format(format);
  if (!reference) return make_program_order(formats::read_graph(file, f), &warnings);
  InputGraph input = formats::reference::read_graph(file, f);
  Graph g = oracle_graph(input, warnings);
  if (as_read) *as_read = std::move(input);
  return g;
}

} // namespace depreduce::cli
