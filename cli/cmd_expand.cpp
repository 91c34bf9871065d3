//===- cli/cmd_expand.cpp - `depreduce expand` -----------------------------===//
///
/// \file
/// Flattens scheduling units (DOT `subgraph cluster_<name>`, nestable) into
/// the parent graph: SPEC §8, walrus expand_scheduling_units.
//===----------------------------------------------------------------------===//
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "commands.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/scheduling_units.hpp"
#include "depreduce/scheduling_units.hpp"

namespace depreduce::cli {

void add_expand_command(CLI::App& app) {
  struct Args {
    std::string file;
    std::string format = "auto";
    std::string out = "-";
    std::string impl = "optimized";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("expand", "Splice the leaves of every scheduling unit (DOT cluster) into the parent "
                                           "graph, renamed unit/leaf, and write DOT");
  cmd->add_option("FILE", args->file, "Input graph (DOT: clusters are units)")->required();
  cmd->add_option("-o,--output", args->out, "Output file (written to a temporary, then renamed); - = stdout");
  cmd->add_option("--format", args->format, "Input format")->check(CLI::IsMember({"auto", "dot", "stg", "wfjson", "dax"}));
  cmd->add_option("--impl", args->impl, "Implementation")->check(CLI::IsMember({"optimized", "reference"}));
  cmd->footer("Leaves are written in depth-first order (a unit sits at its first leaf); no edge changes; layout\n"
              "subgraphs stay (docs/builder.md). Exit: 0 written, 2 bad input (e.g. a node in two units).");
  cmd->callback([args] {
    std::vector<std::string> warnings;
    const Graph g = read_model(args->file, args->format, args->impl == "reference", warnings);
    Graph out = args->impl == "reference" ? reference::expand_scheduling_units(g, &warnings)
                                          : expand_scheduling_units(g, &warnings);
    print_warnings(warnings);
    formats::write_file_atomically(args->out, formats::write_dot(out));
    exit_code = kExitOk;
  });
}

} // namespace depreduce::cli
