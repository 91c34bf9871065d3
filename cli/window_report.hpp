//===- cli/window_report.hpp - The window report, shared -------*- C++ -*-===//
///
/// \file
/// The computation and the JSON text of `depreduce window-report` (SPEC §6,
/// docs/window.md "Reading the report"), shared by the CLI
/// (cli/cmd_window_report.cpp, which adds the text table and the SVG plot)
/// and the Python module (`depreduce.window_report`, python/), so that both
/// give the same report for the same trace. Target `depreduce_window_report`.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_CLI_WINDOW_REPORT_HPP
#define DEPREDUCE_CLI_WINDOW_REPORT_HPP

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "depreduce/formats/deps_json.hpp"
#include "depreduce/window_reducer.hpp"

namespace depreduce::cli {

/// What does not depend on BL.
struct Analysis {
  std::size_t tasks = 0;
  std::size_t wait_candidates = 0;    ///< Unique WAIT candidates (duplicates merged).
  std::size_t unresolved = 0;         ///< WAIT candidates naming no earlier task at all.
  std::set<std::pair<std::size_t, std::size_t>> redundant;          ///< (consumer, producer), full graph.
  std::set<std::pair<std::size_t, std::size_t>> redundant_same_ring; ///< Ring-restricted graph.
  /// Redundant in the graph of the edges the reducer can see (valid
  /// producers; same ring only in same-ring mode): what an unbounded window
  /// would remove. Independent of BL.
  std::set<std::pair<std::size_t, std::size_t>> redundant_visible;
  std::vector<std::uint64_t> distances; ///< Sorted producer-consumer distances of WAIT edges, in submits.
  std::size_t wait_edges = 0;           ///< Resolved unique WAIT edges (= distances.size()).
};

/// The per-BL half of the report.
struct BlReport {
  unsigned bl = 0;
  WindowCounters counters;
  std::size_t window_misses = 0;     ///< Redundant, kept: d > BL.
  std::size_t cross_ring_misses = 0; ///< Redundant, kept: cross-ring candidate or cross-ring witness (same-ring mode).
  std::size_t stale_misses = 0;      ///< Redundant, kept: stale producer or a witness through one.
  std::size_t unexplained = 0;       ///< Redundant, kept, none of the above (must be 0).
  std::size_t false_removals = 0;    ///< Removed though the exact reduction keeps it (must be 0).
  double ns_per_task = -1;           ///< submit_into (verdicts, canonical order); < 0: not measured.
  double flags_ns_per_task = -1;     ///< submit_flags (the runtime's hot path); < 0: not measured.
  std::string kernel;                ///< submit_flags kernel: "avx512" or "portable".
  double kernel_task_share = 0;      ///< Share of the trace's tasks that kernel runs (avx512: 1..64 candidates).
  std::size_t storage_bytes = 0;
};

/// The whole report of one trace.
struct WindowReport {
  Analysis analysis;
  std::vector<BlReport> reports; ///< One per BL, in the order asked.
  /// Dep-pool entries of the unreduced stream: one per materialized
  /// dependency (unique producer of a task, any flag).
  std::size_t materialized = 0;
};

/// Replays \p trace with \p options (geometry, mode, seq_width) once for the
/// BL-independent analysis and once per BL of \p bls (each 64, 128 or 256,
/// else std::invalid_argument), timing the reducer for up to \p
/// time_budget_ms per BL (0: not timed; ns_per_task stays -1).
/// Cost: three exact reductions of the trace's WAIT graph, one replay per BL
/// plus the timed batches.
WindowReport compute_window_report(const formats::WindowTrace& trace, const WindowOptions& options,
                                   const std::vector<unsigned>& bls, double time_budget_ms);

/// The report as `depreduce window-report --json` prints it: one JSON object
/// (file, tasks, rings, slots_per_ring, mode, seq_width, wait_candidates,
/// redundant_full_graph, redundant_same_ring_graph, fanout_nodes,
/// dep_pool_entries, distance {edges, p50, p90, p99, max, cdf}, windows [...]),
/// ending with a newline; `runtime` (the capture's, or null for a DAG file)
/// follows seq_width, and `reduced_capture` {file, by, pairs} follows it when
/// \p reduced is given (`--write-reduced`). \p mode is the mode's name as given
/// ("global", "same-ring"). Cost: O(size of the text).
struct ReducedCaptureInfo {
  std::string file;  ///< Where the reduced capture was written.
  std::string by;    ///< "exact", or a BL ("64", "128", "256").
  std::size_t pairs = 0; ///< Pairs whose WAIT was cleared.
};
std::string window_report_json(const WindowReport& report, const formats::WindowTrace& trace,
                               const WindowOptions& options, const std::string& mode,
                               const ReducedCaptureInfo* reduced = nullptr);

/// The \p p quantile (0 < p <= 1) of \p sorted (0 if empty).
std::uint64_t percentile(const std::vector<std::uint64_t>& sorted, double p);
/// Share of the values of \p sorted that are <= \p d.
double share_within(const std::vector<std::uint64_t>& sorted, std::uint64_t d);
/// Points of the distance CDF: (distance, share <= distance), at most ~200.
std::vector<std::pair<std::uint64_t, double>> cdf_points(const std::vector<std::uint64_t>& sorted);

} // namespace depreduce::cli

#endif
