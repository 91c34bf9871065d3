//===- fuzz/fuzz_window_reducer_diff.cpp - Bounded window, optimized vs reference ===//
///
/// \file
/// bytes -> task stream (testing::stream_from_bytes: rings, slot reuse,
/// generations, stale names, distances around 64/128/256, runs of chained or
/// independent tasks, 32/64-bit sequences near the wrap, flags, duplicates,
/// and now and then an invalid producer or a republished slot) and one mode
/// and BL (64, 128 or 256, from byte 0) -> run_window<BL> of every registered
/// reducer (testing::window_impls) -> compare each with the reference. Each
/// must throw InputError on the same inputs or return the reference's result;
/// no result may remove an edge the exact reduction of the complete WAIT graph
/// keeps, and the optimized hot-path form submit_flags must agree with submit.
/// On any difference the stream and both results are printed and the process
/// aborts.
///
/// One mode and BL per input (not all six): the corpus as a whole covers every
/// combination (fuzz/window_seeds.py writes each seed for the ones it is
/// meant for), and an execution costs one run of each twin.
///
/// Caps: 4096 input bytes and 512 tasks - the oracle is O(n * (n + m)) and a
/// fuzzer time-out is not a finding; 512 tasks still reach distances past 256
/// (a run byte gives up to 128 tasks).
/// The exact reduction of the complete WAIT graph is the reference's for
/// streams of up to 128 tasks and the optimized one's beyond (throughput,
/// docs/fuzzing.md); fuzz/fuzz_window_reducer_diff.options gives max_len.
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "depreduce/error.hpp"
#include "depreduce/testing/implementations.hpp"
#include "depreduce/testing/task_streams.hpp"

namespace {

using namespace depreduce;
using namespace depreduce::testing;

std::optional<WindowRun> run_or_error(const WindowImpl& impl, unsigned bl, const WindowCase& c, std::string& error) {
  try {
    return impl.run(bl, c.stream, c.options);
  } catch (const InputError& e) {
    error = e.what();
    return std::nullopt;
  }
}

/// Streams up to this long are checked against the reference's exact reduction.
constexpr std::size_t kReferenceTasks = 128;

[[noreturn]] void fail(const std::string& what, const WindowCase& c) {
  std::fprintf(stderr, "MISMATCH: %s\n%s", what.c_str(), describe(c.stream, c.options).c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  WindowCase c = stream_from_bytes(data, size, 512);

  const unsigned bl = c.window; // the input's mode and BL: one run of each twin per input
  const std::string where = "BL=" + std::to_string(bl) + " mode=" + to_string(c.options.mode);
  std::string ref_error;
  const auto oracle = run_or_error(reference_window(), bl, c, ref_error);
  std::optional<std::set<std::pair<std::size_t, std::size_t>>> redundant; // exact reduction, lazily
  // Every registered reducer (optimized first, then any third party's)
  // against the reference.
  for (const WindowImpl& impl : window_impls()) {
    if (&impl == &reference_window() || !impl.supports(bl)) continue;
    std::string error;
    const auto online = run_or_error(impl, bl, c, error);
    if (online.has_value() != oracle.has_value())
      fail(where + ": only one threw: " + impl.name + " '" + error + "', reference '" + ref_error + "'", c);
    if (!online) continue;
    if (!(*online == *oracle))
      fail(where + " (" + impl.name + ")\n" + first_difference(*online, *oracle) + "\n" + impl.name + ":\n" +
               describe(*online) + "reference:\n" + describe(*oracle),
           c);
    if (!redundant) {
      redundant.emplace();
      const Graph full = full_wait_graph(c.stream);
      // The Boost.Graph reduction is O(E * (V + E)): the oracle for short
      // streams; beyond kReferenceTasks the optimized reduction, which
      // fuzz_transitive_reduction_diff and the properties hold to it.
      const ReductionImpl& exact =
          c.stream.size() <= kReferenceTasks ? reference_reduction() : optimized_reduction();
      for (const RemovedEdge& r : exact.reduce(full, ReduceOptions{}, nullptr).removed)
        redundant->emplace(std::stoul(full.nodes[r.dst].name), std::stoul(full.nodes[r.src].name));
    }
    for (std::size_t i = 0; i < online->edges.size(); ++i)
      for (const WindowEdge& e : online->edges[i])
        if (e.wait_removed() && !redundant->count({i, i - static_cast<std::size_t>(e.distance)}))
          fail(where + " (" + impl.name + "): task " + std::to_string(i) + " lost a WAIT the exact reduction keeps",
               c);
  }
  if (oracle)
    if (const std::string diff = submit_flags_difference(bl, c); !diff.empty())
      fail(where + ": submit_flags disagrees with submit: " + diff, c);
  return 0;
}
