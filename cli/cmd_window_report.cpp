//===- cli/cmd_window_report.cpp - `depreduce window-report` -------------===//
///
/// \file
/// Replays a trace (the runtime's deps.json, or any DAG file as one ring)
/// through the bounded-window reducer for each requested BL and prints what a
/// runtime team needs to choose BL (SPEC §6, docs/window.md "Reading the
/// report"): WAIT candidates, full-graph redundancy (exact reduction, SPEC §4),
/// removals per BL split into WAIT|RETAIN -> RETAIN and pure WAIT, misses by
/// cause (window, cross-ring, stale), the producer-consumer distance
/// percentiles and CDF (optionally as an SVG plot), the estimated drop in
/// fanout nodes and dep-pool entries, and the reducer's time per task.
//===----------------------------------------------------------------------===//
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <fmt/core.h>

#include "batch.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "depreduce/error.hpp"
#include "depreduce/formats/deps_json.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/transitive_reduction.hpp"
#include "depreduce/window_reducer.hpp"
#include "window_report.hpp"

namespace depreduce::cli {
namespace {

struct ReportOptions {
  BatchArgs batch; ///< FILE... (one without --out-dir), --out-dir, --files-from; json: --json, the report as JSON.
  std::vector<std::string> bls{"64,128,256"}; ///< --bl arguments, one per occurrence
  std::string mode = "global";
  std::string plot;
  std::uint32_t slots_per_ring = 16384;
  unsigned seq_width = 64;
  double time_budget_ms = 200;
  std::string runtime;       ///< --runtime: decode the capture as this runtime ("" = its own `runtime`).
  std::string write_reduced; ///< --write-reduced: the reduced capture's path ("" = none).
  std::string reduced_by = "exact"; ///< --reduced-by: exact, or a BL (64, 128, 256).
};

std::string pct(std::size_t part, std::size_t whole) {
  if (whole == 0) return "-";
  return fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

/// The CDF as a small SVG: log2 distance axis, share axis, one polyline, a
/// dashed line at each BL.
std::string cdf_svg(const std::string& title, const std::vector<std::uint64_t>& sorted, const std::vector<unsigned>& bls) {
  const double W = 640, H = 400, left = 60, right = 40, top = 40, bottom = 50;
  const double pw = W - left - right, ph = H - top - bottom;
  std::uint64_t max_d = sorted.empty() ? 2 : std::max<std::uint64_t>(2, sorted.back());
  for (unsigned bl : bls) max_d = std::max<std::uint64_t>(max_d, bl);
  const double log_max = std::ceil(std::log2(static_cast<double>(max_d)));
  auto x = [&](double d) { return left + pw * std::log2(std::max(1.0, d)) / log_max; };
  auto y = [&](double share) { return top + ph * (1.0 - share); };
  std::string s = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} {}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n",
      W, H, W, H);
  std::string esc;
  for (char c : title) esc += c == '<' ? std::string("&lt;") : c == '&' ? std::string("&amp;") : std::string(1, c);
  s += fmt::format("<text x=\"{}\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">{}</text>\n", W / 2, esc);
  // Axes and ticks.
  s += fmt::format("<path d=\"M{} {} V{} H{}\" stroke=\"black\" fill=\"none\"/>\n", left, top, top + ph, left + pw);
  for (int k = 0; k <= static_cast<int>(log_max); ++k) {
    const double d = std::ldexp(1.0, k), px = x(d);
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"black\"/>\n", px, top + ph, px, top + ph + 4);
    if (log_max <= 12 || k % 2 == 0)
      s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", px, top + ph + 18,
                       static_cast<std::uint64_t>(d));
  }
  for (int k = 0; k <= 4; ++k) {
    const double share = k / 4.0, py = y(share);
    s += fmt::format("<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{}\" y2=\"{:.1f}\" stroke=\"#ddd\"/>\n", left, py, left + pw, py);
    s += fmt::format("<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{:.2f}</text>\n", left - 6, py + 4, share);
  }
  s += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">producer-consumer distance (submits, log scale)</text>\n",
                   left + pw / 2, H - 10);
  s += fmt::format("<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">share of WAIT edges</text>\n",
                   top + ph / 2, top + ph / 2);
  for (unsigned bl : bls) {
    const double px = x(bl);
    s += fmt::format("<line x1=\"{:.1f}\" y1=\"{}\" x2=\"{:.1f}\" y2=\"{}\" stroke=\"#c33\" stroke-dasharray=\"4 3\"/>\n", px,
                     top, px, top + ph);
    s += fmt::format("<text x=\"{:.1f}\" y=\"{}\" fill=\"#c33\" text-anchor=\"middle\">BL={}</text>\n", px, top - 4, bl);
  }
  // The step CDF: horizontal to each distance, then up to its share.
  if (!sorted.empty()) {
    std::string pts = fmt::format("{:.1f},{:.1f}", x(1), y(0));
    double prev = 0;
    for (const auto& [d, share] : cdf_points(sorted)) {
      const double px = x(static_cast<double>(d));
      pts += fmt::format(" {:.1f},{:.1f} {:.1f},{:.1f}", px, y(prev), px, y(share));
      prev = share;
    }
    pts += fmt::format(" {:.1f},{:.1f}", left + pw, y(prev));
    s += "<polyline fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\" points=\"" + pts + "\"/>\n";
  }
  s += "</svg>\n";
  return s;
}

/// --bl (each occurrence): window sizes 64, 128 and/or 256, comma-separated (repeats ignored),
/// in ascending order. \throws CLI::ValidationError (a usage error) naming
/// the bad item, before any input is read.
std::vector<unsigned> parse_bls(const std::vector<std::string>& args) {
  std::vector<unsigned> bls;
  for (const std::string& text : args) {
    for (std::size_t start = 0;;) {
      const std::size_t comma = text.find(',', start);
      const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (item == "64" || item == "128" || item == "256") bls.push_back(static_cast<unsigned>(std::stoul(item)));
      else if (item.empty())
        throw CLI::ValidationError("--bl", "a window size is missing in '" + text + "' (64, 128 and/or 256, comma-separated)");
      else throw CLI::ValidationError("--bl", "'" + item + "' is not a window size (64, 128 or 256)");
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  if (bls.empty()) throw CLI::ValidationError("--bl", "no window size given (64, 128 and/or 256, comma-separated)");
  std::sort(bls.begin(), bls.end());
  bls.erase(std::unique(bls.begin(), bls.end()), bls.end());
  return bls;
}

/// The pairs whose WAIT the window reducer at BL removes, as stream positions.
template <unsigned BL>
std::vector<formats::ReducedPair> window_removed(const formats::WindowTrace& trace, const WindowOptions& options) {
  std::vector<formats::ReducedPair> out;
  const WindowRun run = run_window<BL>(trace.stream, options);
  for (std::size_t i = 0; i < run.edges.size(); ++i)
    for (const WindowEdge& e : run.edges[i])
      if (e.wait_removed())
        out.push_back({static_cast<std::uint32_t>(i - e.distance), static_cast<std::uint32_t>(i)});
  return out;
}

/// --write-reduced: refuses, before the replay, a path the writer would
/// refuse and an extension that names another format.
void check_reduced_path(const std::string& path) {
  // The report is printed on standard output: the capture cannot share it.
  if (path == "-" || path == "/dev/stdout")
    throw CLI::ValidationError("--write-reduced",
                               "the report is printed on standard output; write the reduced capture to a file");
  formats::check_output_path(path);
  const std::string ext = std::filesystem::path(path).extension().string();
  for (const char* other : {".dot", ".gv", ".stg", ".xml", ".dax", ".svg"})
    if (ext == other)
      throw CLI::ValidationError("--write-reduced",
                                 "'" + path + "' names another format: the reduced capture is deps.json (.json)");
}

/// One input through `window-report`: \p file replayed as \p ro asks, the
/// report (text, or JSON with ro.batch.json) printed on stdout (\p output "") or
/// written to \p output (atomic). The capture's warnings are printed on
/// stderr, or appended to \p collect (batch mode). Returns the exit code
/// (1 if an internal check failed). \throws InputError on bad input.
int report_file(const ReportOptions& ro, const std::string& file, const formats::OutputPath& output,
                std::vector<std::string>* collect) {
  const std::vector<unsigned> bls = parse_bls(ro.bls);
  // The SVG is written after the replay, which may take seconds: refuse a
  // path that cannot be written first.
  if (!ro.plot.empty()) {
    if (const std::string named = format_of_extension(ro.plot); !named.empty())
      throw CLI::ValidationError("--plot", "'" + ro.plot + "' names a " + named + " file, but the plot is SVG; write to a .svg file");
    formats::check_output_path(ro.plot);
  }
  if (!ro.write_reduced.empty()) check_reduced_path(ro.write_reduced);
  std::string capture_text;
  const formats::WindowTrace trace = formats::read_window_trace(
      file, {ro.slots_per_ring, formats::parse_capture_runtime(ro.runtime)}, &capture_text);
  if (!ro.write_reduced.empty() && trace.runtime == formats::CaptureRuntime::None)
    throw InputError(trace.file, 0, "--write-reduced writes a deps.json capture back; this input is a DAG file");
  if (collect) collect->insert(collect->end(), trace.warnings.begin(), trace.warnings.end());
  else print_warnings(trace.warnings);
  WindowOptions options = trace.geometry;
  options.mode = *parse_window_mode(ro.mode);
  options.seq_width = ro.seq_width;
  const WindowReport report = compute_window_report(trace, options, bls, ro.time_budget_ms); // cli/window_report.cpp
  const Analysis& a = report.analysis;
  const std::vector<BlReport>& reports = report.reports;
  const std::size_t redundant_full = a.redundant.size();
  const std::size_t materialized = report.materialized;

  // The reduced capture: the exact reduction's pairs, or the window
  // reducer's at one BL, written back as the runtime's reduction leaves them.
  std::size_t reduced_pairs = 0;
  if (!ro.write_reduced.empty()) {
    std::vector<formats::ReducedPair> removed;
    if (ro.reduced_by == "exact") {
      for (const auto& [consumer, producer] : a.redundant)
        removed.push_back({static_cast<std::uint32_t>(producer), static_cast<std::uint32_t>(consumer)});
    } else if (ro.reduced_by == "64") {
      removed = window_removed<64>(trace, options);
    } else if (ro.reduced_by == "128") {
      removed = window_removed<128>(trace, options);
    } else {
      removed = window_removed<256>(trace, options);
    }
    reduced_pairs = removed.size();
    formats::write_file_atomically(ro.write_reduced,
                                   formats::write_reduced_deps_json(capture_text, trace, std::move(removed)));
  }

  if (!ro.plot.empty())
    formats::write_file_atomically(
        ro.plot, cdf_svg(fmt::format("WAIT distance CDF: {}", std::filesystem::path(trace.file).filename().string()), a.distances,
                bls));

  const auto p50 = percentile(a.distances, 0.50), p90 = percentile(a.distances, 0.90),
             p99 = percentile(a.distances, 0.99), pmax = a.distances.empty() ? 0 : a.distances.back();
  std::string text; // the report
  auto out = std::back_inserter(text);
  if (ro.batch.json) {
    const ReducedCaptureInfo reduced{ro.write_reduced, ro.reduced_by, reduced_pairs};
    text = window_report_json(report, trace, options, ro.mode, ro.write_reduced.empty() ? nullptr : &reduced);
  } else {
    fmt::format_to(out, "window report: {}\n", trace.file);
    fmt::format_to(out, "  {} tasks, {} ring(s), {} slots per ring, {}-bit submit sequence, mode {}\n", a.tasks, options.rings,
                        options.slots_per_ring, options.seq_width, ro.mode);
    if (trace.runtime != formats::CaptureRuntime::None) {
      const auto uncaptured = static_cast<std::size_t>(std::count(trace.captured.begin(), trace.captured.end(), false));
      fmt::format_to(out, "  runtime {}, {} edge record(s), {} uncaptured task(s) placed before their first consumer\n",
                          formats::to_string(trace.runtime), trace.records.size(), uncaptured);
    }
    if (!ro.write_reduced.empty())
      fmt::format_to(out, "  reduced capture ({}): {}, WAIT cleared on {} pair(s)\n", ro.reduced_by, ro.write_reduced,
                          reduced_pairs);
    fmt::format_to(out, "WAIT candidates:                        {}\n", a.wait_candidates);
    fmt::format_to(out, "redundant WAIT edges, full graph:       {} ({})\n", redundant_full, pct(redundant_full, a.wait_candidates));
    if (options.mode == WindowMode::SameRing)
      fmt::format_to(out, "redundant WAIT edges, same-ring graph:  {} ({})\n", a.redundant_same_ring.size(),
                          pct(a.redundant_same_ring.size(), a.wait_candidates));
    if (a.distances.empty())
      fmt::format_to(out, "producer-consumer distance (submits):   no WAIT edges\n");
    else
      fmt::format_to(out, "producer-consumer distance (submits):   p50 {}, p90 {}, p99 {}, max {}\n", p50, p90, p99, pmax);
    fmt::format_to(out, "fanout nodes (WAIT) / dep-pool entries: {} / {}\n\n", a.wait_candidates, materialized);
    std::string head = fmt::format("{:<40}", "");
    for (const BlReport& r : reports) head += fmt::format("{:>14}", fmt::format("BL={}", r.bl));
    fmt::format_to(out, "{}\n", head);
    auto row = [&](const std::string& label, auto value) {
      std::string line = fmt::format("{:<40}", label);
      for (const BlReport& r : reports) line += fmt::format("{:>14}", value(r));
      fmt::format_to(out, "{}\n", line);
    };
    row("WAIT edges within the window", [&](const BlReport& r) { return pct(static_cast<std::size_t>(std::llround(share_within(a.distances, r.bl) * 1e6)), 1000000); });
    row("removed (WAIT dropped)", [](const BlReport& r) { return std::to_string(r.counters.wait_removed); });
    row("  WAIT|RETAIN -> RETAIN", [](const BlReport& r) { return std::to_string(r.counters.retain_conversions); });
    row("  pure WAIT removed", [](const BlReport& r) { return std::to_string(r.counters.pure_wait_removals); });
    row("share of full-graph redundancy removed",
        [&](const BlReport& r) { return pct(r.counters.wait_removed, redundant_full); });
    row("window misses (redundant, d > BL)", [](const BlReport& r) { return std::to_string(r.window_misses); });
    row("cross-ring misses", [](const BlReport& r) { return std::to_string(r.cross_ring_misses); });
    row("stale misses", [](const BlReport& r) { return std::to_string(r.stale_misses); });
    row("fanout nodes dropped", [&](const BlReport& r) {
      return fmt::format("{} ({})", r.counters.wait_removed, pct(r.counters.wait_removed, a.wait_candidates));
    });
    row("dep-pool entries dropped", [&](const BlReport& r) {
      return fmt::format("{} ({})", r.counters.pure_wait_removals, pct(r.counters.pure_wait_removals, materialized));
    });
    row("reducer time per task (ns), submit_into", [](const BlReport& r) {
      return r.ns_per_task < 0 ? std::string("-") : fmt::format("{:.1f}", r.ns_per_task);
    });
    row("  hot path submit_flags (ns)", [](const BlReport& r) {
      return r.flags_ns_per_task < 0 ? std::string("-") : fmt::format("{:.1f}", r.flags_ns_per_task);
    });
    row("  submit_flags kernel", [](const BlReport& r) { return r.kernel.empty() ? std::string("-") : r.kernel; });
    // The AVX-512 kernel takes tasks of 1..64 candidates: say how many that is.
    row("    share of tasks it runs", [](const BlReport& r) {
      return r.kernel.empty() ? std::string("-") : fmt::format("{:.1f}%", 100.0 * r.kernel_task_share);
    });
    row("side storage (KiB)", [](const BlReport& r) { return fmt::format("{:.0f}", static_cast<double>(r.storage_bytes) / 1024.0); });
    for (const BlReport& r : reports)
      if (r.false_removals != 0 || r.unexplained != 0)
        fmt::print(stderr, "depreduce: internal check failed at BL={}: {} false removal(s), {} unexplained miss(es)\n", r.bl,
                   r.false_removals, r.unexplained);
  }
  if (output.path.empty()) fmt::print("{}", text);
  else formats::write_file_atomically(output, text);
  for (const BlReport& r : reports)
    if (r.false_removals != 0 || r.unexplained != 0) return kExitFindings;
  return kExitOk;
}

} // namespace

void add_window_report_command(CLI::App& app) {
  auto ro = std::make_shared<ReportOptions>();
  CLI::App* cmd = app.add_subcommand(
      "window-report",
      "Replay a trace through the bounded-window WAIT reducer (BL = 64/128/256) and report coverage, misses, "
      "distances and cost (docs/window.md)");
  cmd->add_option("FILE", ro->batch.files,
                  "deps.json dump of the runtime, or any DAG file (one ring, program order); several with --out-dir");
  // One argument per --bl (repeats add up); parse_bls() splits on ',' so that
  // empty items are errors, not silently dropped.
  cmd->add_option("--bl", ro->bls, "Window sizes to evaluate (64, 128, 256), comma-separated")
      ->allow_extra_args(false)
      ->capture_default_str();
  cmd->add_option("--mode", ro->mode, "global: cross-ring candidates use the global sequence; same-ring: keep them")
      ->check(CLI::IsMember({"global", "same-ring"}))
      ->capture_default_str();
  cmd->add_option("--plot", ro->plot, "Write the distance CDF as SVG to this file");
  add_json_flag(*cmd, ro->batch.json, "Print the report as JSON; in batch mode, status lines as JSON objects too");
  add_batch_options(*cmd, ro->batch);
  add_quiet_flag(*cmd);
  cmd->add_option("--slots-per-ring", ro->slots_per_ring,
                  "deps.json of tensormap_and_ringbuffer: task slots per ring (slot = local id % this, any count)")
      ->check(CLI::Range(1u, 1u << 24))
      ->capture_default_str();
  cmd->add_option("--runtime", ro->runtime,
                  "deps.json: decode task ids as this runtime's, whatever the capture's \"runtime\" says (needed "
                  "when it has none)")
      ->check(CLI::IsMember({"tensormap_and_ringbuffer", "host_build_graph"}));
  cmd->add_option("--write-reduced", ro->write_reduced,
                  "deps.json: write the capture back with WAIT cleared where --reduced-by removes it (atomic)");
  cmd->add_option("--reduced-by", ro->reduced_by,
                  "What --write-reduced applies: exact (full-graph reduction) or the window reducer at BL 64, 128 or 256")
      ->check(CLI::IsMember({"exact", "64", "128", "256"}))
      ->capture_default_str();
  cmd->add_option("--seq-width", ro->seq_width, "Width of submit_seq in bits")
      ->check(CLI::IsMember({32u, 64u}))
      ->capture_default_str();
  cmd->add_option("--time-budget-ms", ro->time_budget_ms, "Time spent measuring the reducer per BL (0: do not measure)")
      ->check(CLI::Range(0.0, 60000.0))
      ->capture_default_str();
  cmd->callback([ro] {
    parse_bls(ro->bls); // a usage error before any input is read
    if (batch_mode(ro->batch)) {
      if (!ro->plot.empty()) refuse_in_batch("--plot");
      if (!ro->write_reduced.empty()) refuse_in_batch("--write-reduced");
      exit_code = run_batch(ro->batch, ro->batch.json ? ".report.json" : ".report.txt",
                            [&](const std::string& file, const formats::OutputPath& output, std::vector<std::string>& w) {
                              return report_file(*ro, file, output, &w);
                            });
      return;
    }
    exit_code = report_file(*ro, ro->batch.files.front(), "", nullptr);
  });
}

} // namespace depreduce::cli
