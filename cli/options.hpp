//===- cli/options.hpp - The options every sub-command shares -----------===//
///
/// \file
/// One vocabulary for every sub-command (docs/cli.md, "Options"): the input
/// options `--format`, `--cycles`, `--kinds`, `--impl`, the output option
/// `-o`, `--json` and `-q` are registered here, with one help text and one
/// meaning each, by every command that offers them; docs/cli.md's table of
/// options by command is checked against the `--help` this produces
/// (tests/cli_options_test.cpp).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_CLI_OPTIONS_HPP
#define DEPREDUCE_CLI_OPTIONS_HPP

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "depreduce/condense.hpp"
#include "depreduce/graph.hpp"
#include "depreduce/paths.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace depreduce::cli {

/// `-q`/`--quiet` was given: print_warnings() and the progress bars print
/// nothing (errors still print).
extern bool quiet;

/// The input options a command reads a graph with; which ones it offers is
/// the command's choice (add_input_options()).
struct InputOptions {
  std::string format = "auto";    ///< --format: auto, dot, stg, wfjson, dax.
  std::string cycles = "error";   ///< --cycles: error or condense.
  std::string kinds = "all";      ///< --kinds: all or a list of kinds.
  std::string impl = "optimized"; ///< --impl: optimized or reference.
};

/// Which of InputOptions' options add_input_options() registers.
enum InputOption : unsigned { kFormat = 1, kCycles = 2, kKinds = 4, kImpl = 8, kEveryInputOption = 15 };

/// Registers on \p cmd the input options \p which names, bound to \p in,
/// each with its one help text and check.
void add_input_options(CLI::App& cmd, InputOptions& in, unsigned which);

/// Registers `-o,--output` bound to \p out (default "-", standard output).
/// The command calls check_output() before it reads anything.
void add_output_option(CLI::App& cmd, std::string& out);

/// Registers `--json` bound to \p json; \p what says what it prints.
void add_json_flag(CLI::App& cmd, bool& json, const std::string& what);

/// Registers `-q,--quiet`, bound to cli::quiet.
void add_quiet_flag(CLI::App& cmd);

/// Makes every single-valued option of every sub-command of \p app refuse a
/// second value: `--format dot --format stg` is a usage error (exit 64)
/// naming both values ("--format: given twice, 'dot' and 'stg'; it takes one
/// value"). Call after every command is registered, before parsing.
void refuse_repeated_options(CLI::App& app);

/// --kinds \p text as a filter. \throws CLI::ValidationError (a usage error)
/// for anything but "all" or a list of kinds.
KindFilter parse_filter(const std::string& text);

/// reduce()'s options as \p in gives them (--kinds, --cycles).
ReduceOptions reduce_options(const InputOptions& in);

/// The format a file extension names for an output ("dot", "json", "stg",
/// "dax"), or "" for any other extension, none, "-" or a device path.
std::string format_of_extension(const std::string& path);

/// The input format name of \p file as read with \p format ("auto" decides
/// by extension, as read_graph does; "" when the content must decide).
std::string input_format_name(const std::string& file, const std::string& format);

/// The rules of `-o` (SPEC §9, docs/cli.md "Output format"), checked before
/// anything is read: an extension naming another format than \p written
/// ("dot", "json" for a JSON document, "edges"; "" for output of no graph
/// format, which any extension but a graph format's may hold) is a usage
/// error naming one that fits (a .tsv file is an edge list's); then
/// formats::check_output_path(). \p input_format names the input's format in
/// the message; \p offers_to: the command has `--to`, which the message then
/// suggests. Why:
/// `reduce wf.json -o wf.red.json` would otherwise fill a .json file with
/// DOT (the only graph writer), which `equiv wf.json wf.red.json` then reads
/// as broken JSON.
void check_output(const std::string& path, const std::string& written, const std::string& input_format,
                  bool offers_to = false);

/// What a command that does not reduce reads from \p file under \p in
/// (--format, --impl, --cycles): the merged graph (read_model()), or with
/// `--cycles condense` the input merged as reduce_input() merges it before it
/// removes anything (nodes in the condensation's program order; edges inside
/// a component may go backwards). \p as_read as for read_model() (reference,
/// --cycles error only). \p component, if given, gets each node's component
/// (InputReduction::component; every node its own on the --cycles error path).
/// With `--cycles condense`, \p as_read gets the input as read whatever --impl.
/// \throws InputError as read_model() and reduce_input().
Graph read_carrier(const std::string& file, const InputOptions& in, std::vector<std::string>& warnings,
                   InputGraph* as_read = nullptr, std::vector<std::uint32_t>* component = nullptr);

/// The carrier of read_carrier() with `--cycles condense`, from \p input as
/// read: reduce_input() in Condense mode with a filter that admits nothing.
/// \p component gets each node's component. Self-loop warnings go to
/// \p warnings. \throws InputError as reduce_input().
Graph condensed_carrier(InputGraph input, std::vector<std::string>& warnings, std::vector<std::uint32_t>& component);

/// `equiv --cycles condense`'s first question: do \p a and \p b (carriers,
/// with their components and condensation()s) put their nodes in the same
/// strongly connected components? One line per node name both have whose
/// component differs and is not a single node in both ("'a' is in {a,b} in
/// A, in a in B"), in name order; empty iff they agree (then the
/// condensations name the same nodes). Cost: O(n log n).
std::vector<std::string> differing_components(const Graph& a, const std::vector<std::uint32_t>& comp_a,
                                              const InputGraph& cond_a, const Graph& b,
                                              const std::vector<std::uint32_t>& comp_b, const InputGraph& cond_b);

/// What the reference pipeline (SPEC §1, `--impl reference`) decides for
/// \p input as read under \p options: without cycles, the oracle's merged
/// graph (oracle_graph()) and reference::reduce() on the input, ids the
/// oracle's; with `CycleMode::Condense`, reference::reduce_condensed() decides
/// and its removed edges are mapped onto reduce_input()'s carrier (the
/// merged graph it is applied to), sorted by edge. \p input is left as read
/// without cycles (the caller may apply the reduction to it), moved from
/// with them. \p stats as reference::reduce() (the acyclic case only).
/// \throws InputError as reference::reduce() and reduce_input().
InputReduction oracle_reduce_input(InputGraph& input, const ReduceOptions& options, ReduceStats* stats,
                                   std::vector<std::string>& warnings);

/// The condensation of \p input (as read; \p carrier and \p component from
/// read_carrier() with `--cycles condense`): one node per component in
/// program order, a component of one node that
/// node as it is, a component of two or more nodes one synchronous node
/// without engine named by its members' names sorted and joined by ',' in
/// braces ("{a,b}"); every edge of the input between two components kept
/// (mapped to them, then merged as make_program_order() merges), the edges
/// inside a component dropped; node attributes other than engine and
/// async window are left out. Acyclic: make_program_order() keeps its order,
/// and equivalent() takes the result. Cost: O(n log n + m).
InputGraph condensation(const InputGraph& input, const Graph& carrier, const std::vector<std::uint32_t>& component);

/// How a witness hop orders its two nodes, as `explain` and `equiv` print
/// it ("edge, completed-before", "engine order, issued-before", ...).
const char* hop_text(HopKind k);

} // namespace depreduce::cli

#endif
