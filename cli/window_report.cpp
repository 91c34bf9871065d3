//===- cli/window_report.cpp - The window report, shared ------------------===//
///
/// \file
/// compute_window_report() and window_report_json() (cli/window_report.hpp),
/// moved here from cli/cmd_window_report.cpp unchanged so that the CLI and the
/// Python module print the same report.
//===----------------------------------------------------------------------===//
#include "window_report.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "depreduce/transitive_reduction.hpp"

namespace depreduce::cli {
namespace {

/// One unique WAIT candidate of the trace, resolved against the trace's
/// history (not the reducer's window): its consumer and producer positions.
struct WaitEdge {
  std::size_t consumer = 0;
  std::size_t producer = 0;
};


/// (consumer, producer) pairs the exact reduction removes from the graph with
/// \p edges over \p n tasks (node i = task i).
std::set<std::pair<std::size_t, std::size_t>> exact_redundant(std::size_t n,
                                                              std::vector<std::pair<NodeId, NodeId>> edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  const Graph g = graph_from_edges(static_cast<std::uint32_t>(n), edges);
  std::set<std::pair<std::size_t, std::size_t>> out;
  for (const RemovedEdge& r : reduce(g).removed)
    out.emplace(std::stoul(g.nodes[r.dst].name), std::stoul(g.nodes[r.src].name));
  return out;
}

Analysis analyze(const formats::WindowTrace& trace, const WindowOptions& options) {
  Analysis a;
  a.tasks = trace.stream.size();
  std::map<std::pair<TaskId, Generation>, std::size_t> last; // (TaskId, generation) -> latest position
  std::vector<std::pair<NodeId, NodeId>> all, same_ring;
  for (std::size_t i = 0; i < trace.stream.size(); ++i) {
    const TaskRecord& t = trace.stream[i];
    std::set<std::pair<TaskId, Generation>> seen;
    for (const Candidate& c : t.candidates) {
      if (!c.flags.has(Flag::Wait)) continue;
      if (!seen.insert({c.producer, c.generation}).second) {
        continue; // a duplicate: its WAIT is already counted
      }
      ++a.wait_candidates;
      auto it = last.find({c.producer, c.generation});
      if (it == last.end()) {
        ++a.unresolved;
        continue;
      }
      const std::size_t j = it->second;
      all.emplace_back(static_cast<NodeId>(j), static_cast<NodeId>(i));
      if (task_ring(c.producer) == task_ring(t.id)) same_ring.emplace_back(static_cast<NodeId>(j), static_cast<NodeId>(i));
      a.distances.push_back(i - j);
    }
    last[{t.id, t.generation}] = i;
  }
  // A candidate can still be a WAIT-less duplicate of a WAIT one: the seen-set
  // above only looked at WAIT ones, which is what the reducer counts too.
  a.wait_edges = a.distances.size();
  std::sort(a.distances.begin(), a.distances.end());
  a.redundant = exact_redundant(a.tasks, all);
  a.redundant_same_ring = exact_redundant(a.tasks, same_ring);
  // Visibility (stale, cross-ring) does not depend on BL: one run tells it.
  const WindowRun run = run_window<64>(trace.stream, options);
  std::vector<std::pair<NodeId, NodeId>> visible;
  for (std::size_t i = 0; i < run.edges.size(); ++i)
    for (const WindowEdge& e : run.edges[i])
      if (e.input_flags.has(Flag::Wait) && e.status != WindowStatus::Stale && e.status != WindowStatus::CrossRing)
        visible.emplace_back(static_cast<NodeId>(i - e.distance), static_cast<NodeId>(i));
  a.redundant_visible = exact_redundant(a.tasks, visible);
  return a;
}

} // namespace

std::uint64_t percentile(const std::vector<std::uint64_t>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size() - 1, rank == 0 ? 0 : rank - 1)];
}

double share_within(const std::vector<std::uint64_t>& sorted, std::uint64_t d) {
  if (sorted.empty()) return 0;
  return static_cast<double>(std::upper_bound(sorted.begin(), sorted.end(), d) - sorted.begin()) /
         static_cast<double>(sorted.size());
}


namespace {

template <unsigned BL>
BlReport report_for(const formats::WindowTrace& trace, const WindowOptions& options, const Analysis& a,
                    double budget_ms) {
  BlReport r;
  r.bl = BL;
  const WindowRun run = run_window<BL>(trace.stream, options);
  r.counters = run.counters;
  {
    const window_reducer<BL> probe(options);
    r.storage_bytes = probe.storage_bytes();
    r.kernel = probe.kernel_name();
    // The AVX-512 kernel takes tasks of 1..64 candidates; the others run the portable loop.
    std::size_t runs_kernel = 0;
    for (const TaskRecord& t : trace.stream)
      runs_kernel += r.kernel == "portable" || probe.runs_vector_kernel(t.candidates.size());
    r.kernel_task_share =
        trace.stream.empty() ? 0.0 : static_cast<double>(runs_kernel) / static_cast<double>(trace.stream.size());
  }
  // Historical positions of stale producers, for the miss classification.
  std::map<std::pair<TaskId, Generation>, std::size_t> last;
  for (std::size_t i = 0; i < run.edges.size(); ++i) {
    for (const WindowEdge& e : run.edges[i]) {
      if (!e.input_flags.has(Flag::Wait)) continue;
      std::size_t j;
      if (e.status != WindowStatus::Stale) {
        j = i - static_cast<std::size_t>(e.distance);
      } else {
        auto it = last.find({e.producer, e.producer_generation});
        if (it == last.end()) continue; // names no task at all: never redundant
        j = it->second;
      }
      const bool redundant = a.redundant.count({i, j}) != 0;
      if (e.wait_removed()) {
        if (!redundant || !a.redundant_visible.count({i, j})) ++r.false_removals;
        continue;
      }
      if (!redundant) continue;
      switch (e.status) {
      case WindowStatus::Untracked: ++r.window_misses; break;
      case WindowStatus::CrossRing: ++r.cross_ring_misses; break;
      case WindowStatus::Stale: ++r.stale_misses; break;
      case WindowStatus::Tracked:
        // Tracked and visible: the contract removes it iff it is redundant
        // among the visible edges, so its witnesses must all be invisible.
        if (a.redundant_visible.count({i, j})) ++r.unexplained;
        else if (options.mode == WindowMode::SameRing && !a.redundant_same_ring.count({i, j})) ++r.cross_ring_misses;
        else ++r.stale_misses; // every witness runs through a stale producer (or, same-ring, mixes both)
        break;
      }
    }
    last[{trace.stream[i].id, trace.stream[i].generation}] = i;
  }
  if (budget_ms > 0 && !trace.stream.empty()) {
    // Steady-state cost per submit. A batch is K back-to-back copies of the
    // trace (about 2^17 submits or 2^21 candidates in all, whichever is
    // fewer, and at least one copy), copy k with every generation (tasks
    // and candidates) shifted by k * G, G = largest generation + 1: no
    // (slot, generation) repeats and every candidate is valid or stale
    // exactly as in the trace. Each batch runs on a fresh reducer built
    // outside the timed region; one clock pair per batch, so the clock's own
    // cost does not swamp small traces. Batches repeat until the budget is spent.
    using clock = std::chrono::steady_clock;
    std::uint64_t g = 0;
    for (const TaskRecord& t : trace.stream) {
      g = std::max<std::uint64_t>(g, t.generation);
      for (const Candidate& c : t.candidates) g = std::max<std::uint64_t>(g, c.generation);
    }
    const std::uint64_t shift = g + 1;
    std::size_t candidates = 0;
    for (const TaskRecord& t : trace.stream) candidates += t.candidates.size();
    std::uint64_t copies = std::max<std::uint64_t>(
        1, std::min<std::uint64_t>((std::uint64_t{1} << 17) / trace.stream.size(),
                                   (std::uint64_t{1} << 21) / std::max<std::size_t>(1, candidates)));
    copies = std::max<std::uint64_t>(1, std::min<std::uint64_t>(copies, 0xffffffffu / shift));
    TaskStream batch;
    batch.reserve(copies * trace.stream.size());
    for (std::uint64_t k = 0; k < copies; ++k)
      for (TaskRecord t : trace.stream) {
        t.generation += static_cast<Generation>(k * shift);
        for (Candidate& c : t.candidates) c.generation += static_cast<Generation>(k * shift);
        batch.push_back(std::move(t));
      }
    // One verdict buffer of the largest candidate count: submit_into, so the
    // clock sees the reducer and not the resizing of a vector.
    std::size_t largest = 0;
    for (const TaskRecord& t : trace.stream) largest = std::max(largest, t.candidates.size());
    std::vector<WindowEdge> out(largest);
    // The same batches through submit_flags, the form a runtime calls (one
    // effective FlagSet per raw candidate, the AVX-512 kernel where the CPU
    // has it). Half the budget each.
    std::vector<FlagSet> effective(largest);
    auto time_per_task = [&](auto submit_one) {
      double total = 0;
      std::size_t runs = 0;
      while (runs == 0 || (total < budget_ms * 0.5e6 && runs < 1000)) {
        window_reducer<BL> reducer(options);
        const auto t0 = clock::now();
        for (const TaskRecord& t : batch) submit_one(reducer, t);
        total += static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
        ++runs;
      }
      return total / static_cast<double>(runs * batch.size());
    };
    r.ns_per_task = time_per_task(
        [&](window_reducer<BL>& reducer, const TaskRecord& t) { reducer.submit_into(t.id, t.generation, t.candidates, out); });
    r.flags_ns_per_task = time_per_task([&](window_reducer<BL>& reducer, const TaskRecord& t) {
      reducer.submit_flags(t.id, t.generation, t.candidates, effective);
    });

  }
  return r;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (static_cast<unsigned char>(c) < 0x20) out += fmt::format("\\u{:04x}", static_cast<unsigned>(static_cast<unsigned char>(c)));
    else out += c;
  }
  return out + "\"";
}

} // namespace

std::vector<std::pair<std::uint64_t, double>> cdf_points(const std::vector<std::uint64_t>& sorted) {
  std::vector<std::pair<std::uint64_t, double>> pts;
  if (sorted.empty()) return pts;
  const std::size_t n = sorted.size();
  const std::size_t step = std::max<std::size_t>(1, n / 200);
  for (std::size_t k = 0; k < n; k += step) {
    // Last index holding the same distance, so the share is exact at that distance.
    const std::size_t last = static_cast<std::size_t>(std::upper_bound(sorted.begin(), sorted.end(), sorted[k]) - sorted.begin());
    const double share = static_cast<double>(last) / static_cast<double>(n);
    if (pts.empty() || pts.back().first != sorted[k]) pts.emplace_back(sorted[k], share);
  }
  if (pts.back().first != sorted.back()) pts.emplace_back(sorted.back(), 1.0);
  return pts;
}
WindowReport compute_window_report(const formats::WindowTrace& trace, const WindowOptions& options,
                                   const std::vector<unsigned>& bls, double time_budget_ms) {
  WindowReport out;
  const Analysis& a = out.analysis = analyze(trace, options);
  for (unsigned bl : bls) {
    if (bl == 64) out.reports.push_back(report_for<64>(trace, options, a, time_budget_ms));
    else if (bl == 128) out.reports.push_back(report_for<128>(trace, options, a, time_budget_ms));
    else if (bl == 256) out.reports.push_back(report_for<256>(trace, options, a, time_budget_ms));
    else throw std::invalid_argument("window size " + std::to_string(bl) + " is not 64, 128 or 256");
  }
  // Costs of the unreduced stream: one fanout node per WAIT edge, one dep-pool
  // entry per materialized dependency (any flag).
  for (const TaskRecord& t : trace.stream) {
    std::set<std::pair<TaskId, Generation>> seen;
    for (const Candidate& c : t.candidates)
      if (!c.flags.empty()) seen.insert({c.producer, c.generation});
    out.materialized += seen.size();
  }
  return out;
}

std::string window_report_json(const WindowReport& report, const formats::WindowTrace& trace,
                               const WindowOptions& options, const std::string& mode,
                               const ReducedCaptureInfo* reduced) {
  const Analysis& a = report.analysis;
  const std::vector<BlReport>& reports = report.reports;
  const std::size_t materialized = report.materialized;
  const std::size_t redundant_full = a.redundant.size();
  const auto p50 = percentile(a.distances, 0.50), p90 = percentile(a.distances, 0.90),
             p99 = percentile(a.distances, 0.99), pmax = a.distances.empty() ? 0 : a.distances.back();
  std::string j = "{\n";
  j += fmt::format("  \"file\": {},\n  \"tasks\": {},\n  \"rings\": {},\n  \"slots_per_ring\": {},\n", json_string(trace.file),
                   a.tasks, options.rings, options.slots_per_ring);
  j += fmt::format("  \"mode\": {},\n  \"seq_width\": {},\n", json_string(mode), options.seq_width);
  j += fmt::format("  \"runtime\": {},\n", trace.runtime == formats::CaptureRuntime::None
                                                 ? std::string("null")
                                                 : json_string(formats::to_string(trace.runtime)));
  if (reduced)
    j += fmt::format("  \"reduced_capture\": {{\"file\": {}, \"by\": {}, \"pairs\": {}}},\n",
                     json_string(reduced->file), json_string(reduced->by), reduced->pairs);
  j += fmt::format("  \"wait_candidates\": {},\n  \"redundant_full_graph\": {},\n  \"redundant_same_ring_graph\": {},\n",
                   a.wait_candidates, redundant_full, a.redundant_same_ring.size());
  j += fmt::format("  \"fanout_nodes\": {},\n  \"dep_pool_entries\": {},\n", a.wait_candidates, materialized);
  j += fmt::format("  \"distance\": {{\"edges\": {}, \"p50\": {}, \"p90\": {}, \"p99\": {}, \"max\": {}, \"cdf\": [", a.wait_edges,
                   p50, p90, p99, pmax);
  bool first = true;
  for (const auto& [d, share] : cdf_points(a.distances)) {
    j += fmt::format("{}[{}, {:.6f}]", first ? "" : ", ", d, share);
    first = false;
  }
  j += "]},\n  \"windows\": [\n";
  for (std::size_t k = 0; k < reports.size(); ++k) {
    const BlReport& r = reports[k];
    const WindowCounters& c = r.counters;
    j += fmt::format(
        "    {{\"bl\": {}, \"removed\": {}, \"retain_conversions\": {}, \"pure_wait_removals\": {}, "
        "\"tracked\": {}, \"untracked\": {}, \"cross_ring\": {}, \"stale\": {}, "
        "\"window_misses\": {}, \"cross_ring_misses\": {}, \"stale_misses\": {}, \"unexplained_misses\": {}, "
        "\"false_removals\": {}, \"within_window\": {:.6f}, \"fanout_nodes_dropped\": {}, \"dep_pool_entries_dropped\": {}, "
        "\"ns_per_task\": {}, \"flags_ns_per_task\": {}, \"kernel\": {}, \"kernel_task_share\": {:.6f}, "
        "\"storage_bytes\": {}}}{}\n",
        r.bl, c.wait_removed, c.retain_conversions, c.pure_wait_removals, c.tracked, c.untracked, c.cross_ring, c.stale,
        r.window_misses, r.cross_ring_misses, r.stale_misses, r.unexplained, r.false_removals,
        share_within(a.distances, r.bl), c.wait_removed, c.pure_wait_removals,
        r.ns_per_task < 0 ? std::string("null") : fmt::format("{:.2f}", r.ns_per_task),
        r.flags_ns_per_task < 0 ? std::string("null") : fmt::format("{:.2f}", r.flags_ns_per_task),
        r.kernel.empty() ? std::string("null") : "\"" + r.kernel + "\"", r.kernel_task_share, r.storage_bytes,
        k + 1 < reports.size() ? "," : "");
  }
  j += "  ]\n}\n";
  return j;
}

} // namespace depreduce::cli
