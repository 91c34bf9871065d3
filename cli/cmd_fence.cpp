//===- cli/cmd_fence.cpp - `depreduce fence FILE` -------------------------===//
///
/// \file
/// Runs the phase fence pass (ExpandManualPhaseFence, SPEC §7) on an
/// orchestration program (docs/orchestration-ir.md) and prints the rewritten
/// program and a summary: the barriers inserted (N, M), the submits kept and
/// why, and the dynamic edge counts before and after for the given trip counts
/// (from the reference interpreter, which also re-checks happens-before);
/// `--json` prints the same summary as JSON (docs/cli.md).
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "options.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/phase_fence.hpp"

namespace depreduce::cli {

namespace {

/// Programs up to this many dynamic tasks get their happens-before re-checked
/// by the oracle (O(T * (T + E))); larger ones only get edge counts.
constexpr std::size_t kCheckTaskLimit = 4000;

reference::TripCounts parse_trips(const std::vector<std::string>& specs, const orch::Program& p) {
  std::set<std::string> params;
  for (const orch::Function& f : p.functions) params.insert(f.params.begin(), f.params.end());
  reference::TripCounts trips;
  for (const std::string& spec : specs) {
    auto eq = spec.find('=');
    std::int64_t value = 0;
    std::size_t used = 0;
    try {
      if (eq == std::string::npos || eq == 0) throw std::invalid_argument("no name");
      value = std::stoll(spec.substr(eq + 1), &used);
    } catch (const std::exception&) {
      throw CLI::ValidationError("--trip", "expects NAME=VALUE with an integer VALUE, got '" + spec + "'");
    }
    if (used != spec.size() - eq - 1 || value < 0)
      throw CLI::ValidationError("--trip", "expects NAME=VALUE with an integer VALUE >= 0, got '" + spec + "'");
    std::string name = spec.substr(0, eq);
    if (!params.count(name))
      throw CLI::ValidationError("--trip", "the program has no trip-count parameter '" + name + "'");
    if (auto seen = trips.find(name); seen != trips.end())
      throw CLI::ValidationError("--trip", "'" + name + "' given twice, " + name + "=" + std::to_string(seen->second) +
                                               " and " + spec + "; give each trip count once");
    trips[name] = value;
  }
  return trips;
}

/// What the summary reports, computed once for the text and the JSON form.
struct FenceReport {
  std::vector<std::string> missing;  ///< parameters without a --trip value (then no edge counts)
  std::string values;                ///< " n=3 m=2" (in program order)
  bool counted = false;              ///< edge counts computed
  std::size_t edges_before = 0, edges_after = 0, dummies_before = 0, dummies_after = 0, real_tasks = 0;
  enum class Check { NotChecked, Unchanged, Changed } check = Check::NotChecked;
  std::string mismatch;
};

FenceReport make_report(const orch::Program& before, const orch::Program& after, const reference::TripCounts& trips) {
  FenceReport r;
  for (const orch::Function& f : before.functions)
    for (const std::string& p : f.params) {
      auto it = trips.find(p);
      if (it == trips.end()) {
        if (std::find(r.missing.begin(), r.missing.end(), p) == r.missing.end()) r.missing.push_back(p);
      } else if (r.values.find(" " + p + "=") == std::string::npos) {
        r.values += " " + p + "=" + std::to_string(it->second);
      }
    }
  if (!r.missing.empty()) return r;
  reference::DynamicGraph a = reference::interpret(before, trips);
  reference::DynamicGraph b = reference::interpret(after, trips);
  r.counted = true;
  r.edges_before = a.edge_count();
  r.edges_after = b.edge_count();
  r.dummies_before = a.tasks.size() - a.real_task_count();
  r.dummies_after = b.tasks.size() - b.real_task_count();
  r.real_tasks = a.real_task_count();
  if (a.tasks.size() <= kCheckTaskLimit && b.tasks.size() <= kCheckTaskLimit) {
    reference::FenceComparison cmp = reference::compare_fence(before, after, trips);
    r.check = cmp.equivalent ? FenceReport::Check::Unchanged : FenceReport::Check::Changed;
    r.mismatch = cmp.mismatch;
  }
  if (r.check == FenceReport::Check::Changed) exit_code = kExitFindings;
  return r;
}

std::string summary_text(const PhaseFenceSummary& s, const FenceReport& r) {
  std::string out = fmt::format("phase fence: {} barrier(s) inserted\n", s.barriers.size());
  for (const FenceBarrier& b : s.barriers)
    out += fmt::format("  {} in {}, before loop '{}': depends on {} (N={}), serves {} submit(s) (M={}), "
                       "saves {} edge(s) per run\n",
                       b.name, b.function, b.loop_var, b.array, b.n, b.sites, b.m, b.saved());
  out += fmt::format("kept direct deps: {} submit(s)\n", s.kept.size());
  for (const FenceKept& k : s.kept)
    out += fmt::format("  {}/{}: {}\n", k.function, k.submit, fence_fallback_name(k.reason));
  if (!r.counted) {
    std::string names;
    for (const std::string& m : r.missing) names += (names.empty() ? "" : ", ") + m;
    return out + "dynamic edges: not computed; give --trip NAME=VALUE for: " + names + "\n";
  }
  out += fmt::format("dynamic edges{}: {} before, {} after ({} dummy task(s) before, {} after)\n",
                     r.values.empty() ? "" : " (" + r.values.substr(1) + ")", r.edges_before, r.edges_after,
                     r.dummies_before, r.dummies_after);
  switch (r.check) {
  case FenceReport::Check::NotChecked:
    out += fmt::format("happens-before: not re-checked (more than {} tasks)\n", kCheckTaskLimit);
    break;
  case FenceReport::Check::Changed:
    out += "happens-before: CHANGED (a bug in the pass, please report): " + r.mismatch + "\n";
    break;
  case FenceReport::Check::Unchanged:
    out += fmt::format("happens-before among {} real task(s): unchanged (reference interpreter)\n", r.real_tasks);
    break;
  }
  return out;
}

/// 1-based line of \p barrier's statement in the printed program \p text.
std::size_t line_of_barrier(const std::string& text, const std::string& barrier) {
  const std::string needle = barrier + " = system.task_dummy()";
  std::size_t line = 1;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) eol = text.size();
    std::size_t first = text.find_first_not_of(' ', pos);
    if (first < eol && text.compare(first, needle.size(), needle) == 0) return line;
    pos = eol + 1;
    ++line;
  }
  return 0;
}

/// The JSON summary (schema in docs/cli.md, "fence --json").
std::string summary_json(const PhaseFenceSummary& s, const FenceReport& r, const std::string& printed_after,
                         const reference::TripCounts& trips) {
  nlohmann::ordered_json j;
  j["barriers"] = nlohmann::ordered_json::array();
  for (const FenceBarrier& b : s.barriers) {
    nlohmann::ordered_json e;
    e["function"] = b.function;
    e["name"] = b.name;
    e["location"] = {{"before_loop", b.loop_var},
                     {"loop_statement", b.loop_stmt},
                     {"output_line", line_of_barrier(printed_after, b.name)}};
    e["array"] = b.array;
    e["N"] = b.n;
    e["M"] = b.m;
    e["sites"] = b.sites;
    e["saved_per_run"] = b.saved();
    j["barriers"].push_back(std::move(e));
  }
  j["kept"] = nlohmann::ordered_json::array();
  for (const FenceKept& k : s.kept)
    j["kept"].push_back(
        {{"function", k.function}, {"submit", k.submit}, {"statement", k.stmt}, {"reason", fence_fallback_name(k.reason)}});
  j["trips"] = nlohmann::ordered_json::object();
  for (const auto& [name, value] : trips) j["trips"][name] = value;
  j["missing_trips"] = r.missing;
  if (r.counted) {
    j["edges_before"] = r.edges_before;
    j["edges_after"] = r.edges_after;
    j["dummies_before"] = r.dummies_before;
    j["dummies_after"] = r.dummies_after;
  } else {
    j["edges_before"] = nullptr;
    j["edges_after"] = nullptr;
    j["dummies_before"] = nullptr;
    j["dummies_after"] = nullptr;
  }
  const char* check = r.check == FenceReport::Check::Unchanged ? "unchanged"
                      : r.check == FenceReport::Check::Changed ? "changed"
                                                               : "not-checked";
  j["happens_before"] = check;
  if (r.check == FenceReport::Check::Changed) j["mismatch"] = r.mismatch;
  return j.dump(2) + "\n";
}

} // namespace

void add_fence_command(CLI::App& app) {
  struct Args {
    std::string input;
    std::string out = "-";
    std::vector<std::string> trips;
    bool json = false;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "fence", "Phase fence (ExpandManualPhaseFence): turn N*M fanouts on a stable task-id array into N+M "
               "through one dummy barrier task (docs/phase-fence.md)");
  cmd->add_option("FILE", args->input, "Orchestration program (docs/orchestration-ir.md)")->required();
  cmd->add_option("-o,--output", args->out,
                  "Write the rewritten program here (atomically) and the summary to stdout; "
                  "default '-': program to stdout, summary to stderr");
  cmd->add_option("--trip", args->trips, "NAME=VALUE: value of a dynamic trip count, for the dynamic edge counts (repeat for several)")
      ->allow_extra_args(false)
      ->type_name("NAME=VALUE");
  add_json_flag(*cmd, args->json,
                "Print the summary as JSON on stdout (schema in docs/cli.md); the program is written only with -o FILE");
  add_quiet_flag(*cmd);
  cmd->callback([args] {
    exit_code = kExitOk;
    check_output(args->out, "", "");
    orch::Program before = formats::read_orchestration(args->input);
    reference::TripCounts trips = parse_trips(args->trips, before);
    PhaseFenceSummary summary;
    orch::Program after = expand_manual_phase_fence(before, &summary);
    // The interpreter's errors (an index out of range for the given trip
    // counts, too many dynamic tasks) come from running the program, not from
    // a line of it: name the file and say so.
    FenceReport report;
    try {
      report = make_report(before, after, trips);
    } catch (const InputError& e) {
      throw InputError(args->input, e.line(), "while running the program" +
                                                  std::string(trips.empty() ? "" : " with the given --trip values") +
                                                  ": " + e.problem());
    }
    const std::string printed = orch::print(after);
    if (args->json) {
      if (args->out != "-") formats::write_file_atomically(args->out, printed);
      formats::write_file_atomically("-", summary_json(summary, report, printed, trips));
      return;
    }
    std::string text = summary_text(summary, report);
    formats::write_file_atomically(args->out, printed);
    if (args->out != "-") std::fputs(text.c_str(), stdout);
    else if (!quiet) std::fputs(text.c_str(), stderr); // -q: the program alone
  });
}

} // namespace depreduce::cli
