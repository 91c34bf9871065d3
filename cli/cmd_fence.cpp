//===- cli/cmd_fence.cpp - `depreduce fence FILE` -------------------------===//
///
/// \file
/// Runs the phase fence pass (ExpandManualPhaseFence, SPEC §7) on an
/// orchestration program (docs/orchestration-ir.md) and prints the rewritten
/// program and a summary: the barriers inserted (N, M), the submits kept and
/// why, and the dynamic edge counts before and after for the given trip counts
/// (from the reference interpreter, which also re-checks happens-before).
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "commands.hpp"
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
    trips[name] = value;
  }
  return trips;
}

std::string summary_text(const orch::Program& before, const orch::Program& after, const PhaseFenceSummary& s,
                         const reference::TripCounts& trips) {
  std::string out = fmt::format("phase fence: {} barrier(s) inserted\n", s.barriers.size());
  for (const FenceBarrier& b : s.barriers)
    out += fmt::format("  {} in {}, before loop '{}': depends on {} (N={}), serves {} submit(s) (M={}), "
                       "saves {} edge(s) per run\n",
                       b.name, b.function, b.loop_var, b.array, b.n, b.sites, b.m, b.saved());
  out += fmt::format("kept direct deps: {} submit(s)\n", s.kept.size());
  for (const FenceKept& k : s.kept)
    out += fmt::format("  {}/{}: {}\n", k.function, k.submit, fence_fallback_name(k.reason));

  std::vector<std::string> missing;
  std::string values;
  for (const orch::Function& f : before.functions)
    for (const std::string& p : f.params) {
      auto it = trips.find(p);
      if (it == trips.end()) missing.push_back(p);
      else if (values.find(" " + p + "=") == std::string::npos) values += " " + p + "=" + std::to_string(it->second);
    }
  if (!missing.empty()) {
    std::string names;
    for (const std::string& m : missing) names += (names.empty() ? "" : ", ") + m;
    return out + "dynamic edges: not computed; give --trip NAME=VALUE for: " + names + "\n";
  }
  reference::DynamicGraph a = reference::interpret(before, trips);
  reference::DynamicGraph b = reference::interpret(after, trips);
  out += fmt::format("dynamic edges{}: {} before, {} after ({} dummy task(s) before, {} after)\n",
                     values.empty() ? "" : " (" + values.substr(1) + ")", a.edge_count(), b.edge_count(),
                     a.tasks.size() - a.real_task_count(), b.tasks.size() - b.real_task_count());
  if (a.tasks.size() > kCheckTaskLimit || b.tasks.size() > kCheckTaskLimit) {
    out += fmt::format("happens-before: not re-checked (more than {} tasks)\n", kCheckTaskLimit);
  } else {
    reference::FenceComparison cmp = reference::compare_fence(before, after, trips);
    if (!cmp.equivalent) {
      exit_code = kExitFindings;
      out += "happens-before: CHANGED (a bug in the pass, please report): " + cmp.mismatch + "\n";
    } else {
      out += fmt::format("happens-before among {} real task(s): unchanged (reference interpreter)\n",
                         a.real_task_count());
    }
  }
  return out;
}

} // namespace

void add_fence_command(CLI::App& app) {
  struct Args {
    std::string input;
    std::string out = "-";
    std::vector<std::string> trips;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "fence", "Phase fence (ExpandManualPhaseFence): turn N*M fanouts on a stable task-id array into N+M "
               "through one dummy barrier task (docs/phase-fence.md)");
  cmd->add_option("FILE", args->input, "Orchestration program (docs/orchestration-ir.md)")->required();
  cmd->add_option("-o,--output", args->out,
                  "Write the rewritten program here (atomically) and the summary to stdout; "
                  "default '-': program to stdout, summary to stderr");
  cmd->add_option("--trip", args->trips, "NAME=VALUE: value of a dynamic trip count, for the dynamic edge counts")
      ->type_name("NAME=VALUE");
  cmd->callback([args] {
    exit_code = kExitOk;
    orch::Program before = formats::read_orchestration(args->input);
    reference::TripCounts trips = parse_trips(args->trips, before);
    PhaseFenceSummary summary;
    orch::Program after = expand_manual_phase_fence(before, &summary);
    std::string text = summary_text(before, after, summary, trips);
    formats::write_file_atomically(args->out, orch::print(after));
    std::fputs(text.c_str(), args->out == "-" ? stderr : stdout);
  });
}

} // namespace depreduce::cli
