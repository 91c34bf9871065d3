//===- cli/commands.hpp - Sub-command registration ---------------------===//
///
/// \file
/// Each sub-command lives in its own cli/cmd_<name>.cpp and registers itself
/// on the CLI11 app through one function declared here. A command's callback
/// returns the process exit code through `exit_code`.
///
/// Exit codes (docs/cli.md): 0 success; 1 a check found problems (verify);
/// 2 bad input (file:line: problem, cycles included); 64 usage error.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_CLI_COMMANDS_HPP
#define DEPREDUCE_CLI_COMMANDS_HPP

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "depreduce/graph.hpp"

namespace depreduce::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitUsage = 64;

/// Where a command stores its exit code (main returns it).
extern int exit_code;

/// Holds \p p until the process exits, never freed (main.cpp): clang's
/// -disable-free and llvm::BuryPointer. The slots are static storage, so
/// LeakSanitizer counts what they hold as reachable; once they are full,
/// false (the caller then frees as usual).
bool bury(void* p) noexcept;

/// Moves \p value into the heap and keeps it there until the process exits:
/// a run that has written its output need not walk a graph of 10^6 nodes
/// and its strings to free them (the kernel takes the pages back at once).
/// Call it last, when nothing reads \p value again; a moved-from value is
/// left. Complexity: O(1) (a move).
template <typename T>
void keep_until_exit(T& value) {
  T* held = new T(std::move(value));
  if (!bury(held)) delete held;
}

/// \p text made one line of a diagnostic: control bytes are written as C
/// escapes (newline `\n`, tab `\t`, carriage return `\r`, any other byte
/// below 0x20 and 0x7f as `\xNN`), every other byte (UTF-8 too) as it is.
/// Node names come from the input: one holding a newline must not split or
/// forge a line of `depreduce: error: file:line: problem`. Cost: O(|text|).
std::string one_line(std::string_view text);

/// Prints each of \p warnings on stderr as `depreduce: <warning>`, one line
/// each (one_line()); nothing under `-q` (cli::quiet, options.hpp).
void print_warnings(const std::vector<std::string>& warnings);

/// The merged graph the oracle builds from \p input by itself: its own
/// program order and merge (reference::apply(input, Reduction{})), nodes
/// in reference::program_order(input), so that ids are the ones the
/// oracle's InputGraph functions return. Appends make_program_order's
/// self-loop warning, worded the same, to \p warnings.
/// Cost: reference::program_order(), O(n * (n + m)).
/// \throws InputError as reference::program_order().
Graph oracle_graph(const InputGraph& input, std::vector<std::string>& warnings);

/// What a command reads from \p file in \p format ("auto", "dot", "stg",
/// "wfjson", "dax"), the front of the pipeline --impl names. Default
/// (\p reference false): formats::read_graph (the one-pass DOT reader) and
/// make_program_order. \p reference: the whole reference pipeline's front,
/// formats::reference::read_graph (cgraph for DOT) and oracle_graph();
/// \p as_read, if given, then gets the input as read, for the oracle's
/// InputGraph functions.
/// \throws InputError (file, line, problem) from either reader or either
/// program order, and for an unknown format (formats::parse_format()).
Graph read_model(const std::string& file, const std::string& format, bool reference,
                 std::vector<std::string>& warnings, InputGraph* as_read = nullptr);

void add_reduce_commands(CLI::App& app); // reduce, convert, explain (cmd_reduce.cpp)
void add_generate_command(CLI::App& app); // generate (cmd_generate.cpp)
void add_fence_command(CLI::App& app); // fence (cmd_fence.cpp)
void add_window_report_command(CLI::App& app); // window-report (cmd_window_report.cpp)
void add_build_command(CLI::App& app); // build (cmd_build.cpp)
void add_verify_command(CLI::App& app); // verify (cmd_verify.cpp)
void add_expand_command(CLI::App& app); // expand (cmd_expand.cpp)
void add_equiv_command(CLI::App& app); // equiv (cmd_equiv.cpp)

} // namespace depreduce::cli

#endif
