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
#include "options.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/reference/scheduling_units.hpp"
#include "depreduce/scheduling_units.hpp"

namespace depreduce::cli {

void add_expand_command(CLI::App& app) {
  struct Args {
    std::string file;
    InputOptions in;
    std::string out = "-";
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("expand", "Splice the leaves of every scheduling unit (DOT cluster) into the parent "
                                           "graph, renamed unit/leaf, and write DOT");
  cmd->add_option("FILE", args->file, "Input graph (DOT: clusters are units)")->required();
  add_output_option(*cmd, args->out);
  add_input_options(*cmd, args->in, kFormat | kImpl);
  add_quiet_flag(*cmd);
  cmd->footer("Leaves are written in depth-first order (a unit sits at its first leaf); no edge changes; layout\n"
              "subgraphs stay (docs/builder.md). Exit: 0 written, 2 bad input (e.g. a node in two units).");
  cmd->callback([args] {
    check_output(args->out, "dot", input_format_name(args->file, args->in.format));
    std::vector<std::string> warnings;
    const Graph g = read_model(args->file, args->in.format, args->in.impl == "reference", warnings);
    Graph out = args->in.impl == "reference" ? reference::expand_scheduling_units(g, &warnings)
                                          : expand_scheduling_units(g, &warnings);
    print_warnings(warnings);
    formats::write_file_atomically(args->out, formats::write_dot(out));
    exit_code = kExitOk;
  });
}

} // namespace depreduce::cli
