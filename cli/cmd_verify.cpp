//===- cli/cmd_verify.cpp - `depreduce verify` -----------------------------===//
///
/// \file
/// Checks a graph against its nodes' accesses (SPEC §5): edge labels (walrus
/// verifyAntiDependence) and races (every conflicting pair completed-before).
//===----------------------------------------------------------------------===//
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "options.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/label_verification.hpp"
#include "depreduce/race_check.hpp"
#include "depreduce/reference/label_verification.hpp"
#include "depreduce/reference/race_check.hpp"

namespace depreduce::cli {

void add_verify_command(CLI::App& app) {
  struct Args {
    std::string file;
    InputOptions in;
    bool labels = false;
    bool races = false;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("verify", "Check edge labels and races against the nodes' reads=/writes=");
  cmd->add_option("FILE", args->file, "Input graph")->required();
  add_input_options(*cmd, args->in, kFormat | kCycles | kImpl);
  cmd->add_flag("--labels", args->labels,
                "Check that every labelled edge's FLOW/ANTI/OUTPUT equal the kinds computed from the accesses");
  cmd->add_flag("--races", args->races, "Check that every pair with a computed kind is completed-before ordered");
  add_json_flag(*cmd, args->json,
                "Print the findings as JSON: {\"labels\": [...], \"races\": [...]}, one line of the text form each "
                "(a check not run: null)");
  add_quiet_flag(*cmd);
  cmd->footer("Without --labels or --races, both checks run. Each finding is one line on stdout:\n"
              "  Inconsistent dependence labeling on: P -> C computed: KINDS labeled: KINDS\n"
              "  Race on: P -> C computed: KINDS bytes: space:[lo,hi),...\n"
              "Exit: 0 clean, 1 something found, 2 bad input.");
  cmd->callback([args] {
    const bool labels = args->labels || !args->races, races = args->races || !args->labels;
    std::vector<std::string> warnings;
    const bool ref = args->in.impl == "reference";
    if (ref && args->in.cycles == "condense")
      throw CLI::ValidationError("--cycles", "condense works with --impl optimized only: the oracles of verify put "
                                             "the input in their own program order, which a cycle does not have");
    // The reference pipeline checks the input as read (cgraph's reader, the
    // oracle's program order); g names the nodes by the ids it returns.
    // --cycles condense: the carrier reduce condenses (options.hpp).
    InputGraph input;
    const Graph g = read_carrier(args->file, args->in, warnings, &input);
    print_warnings(warnings);
    std::size_t found = 0;
    nlohmann::ordered_json j = {{"labels", nullptr}, {"races", nullptr}};
    if (labels) {
      std::vector<LabelMismatch> mismatches = ref ? reference::verify_labels(input) : verify_labels(g);
      j["labels"] = nlohmann::ordered_json::array();
      for (const LabelMismatch& m : mismatches) {
        if (args->json) j["labels"].push_back(format_label_mismatch(g, m));
        else fmt::print("{}\n", format_label_mismatch(g, m));
      }
      if (!quiet && !args->json) fmt::print(stderr, "labels: {} inconsistent edge(s)\n", mismatches.size());
      found += mismatches.size();
    }
    if (races) {
      std::vector<Race> found_races = ref ? reference::find_races(input) : find_races(g);
      j["races"] = nlohmann::ordered_json::array();
      for (const Race& r : found_races) {
        if (args->json) j["races"].push_back(format_race(g, r));
        else fmt::print("{}\n", format_race(g, r));
      }
      if (!quiet && !args->json) fmt::print(stderr, "races: {} racing pair(s)\n", found_races.size());
      found += found_races.size();
    }
    if (args->json) fmt::print("{}\n", j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace));
    exit_code = found ? kExitFindings : kExitOk;
  });
}

} // namespace depreduce::cli
