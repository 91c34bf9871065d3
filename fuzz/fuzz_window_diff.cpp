//===- fuzz/fuzz_window_diff.cpp - Bounded window, optimized vs reference ===//
///
/// \file
/// bytes -> task stream (testing::stream_from_bytes: rings, slot reuse,
/// generations, stale names, distances around 64/128/256, 32/64-bit sequences
/// near the wrap, flags, duplicates, and now and then an invalid producer or a
/// republished slot) -> run_window<BL> of both twins for BL = 64, 128, 256 and
/// both modes -> compare. Both must throw InputError on the same inputs or
/// return equal results; the optimized result must also never remove an edge
/// the exact reduction of the complete WAIT graph keeps, and the hot-path form
/// submit_flags must agree with submit. On any difference the
/// stream and both results are printed and the process aborts.
///
/// Caps: 4096 input bytes and 512 tasks - the oracle is O(n * (n + m)) and a
/// fuzzer time-out is not a finding; 512 tasks still reach distances past 256.
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
#include "depreduce/testing/window.hpp"

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

[[noreturn]] void fail(const std::string& what, const WindowCase& c) {
  std::fprintf(stderr, "MISMATCH: %s\n%s", what.c_str(), describe(c.stream, c.options).c_str());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  WindowCase c = stream_from_bytes(data, size, 512);

  std::optional<std::set<std::pair<std::size_t, std::size_t>>> redundant; // exact reduction, lazily
  for (WindowMode mode : {WindowMode::Global, WindowMode::SameRing}) {
    c.options.mode = mode;
    for (unsigned bl : kWindowSizes) {
      const std::string where = "BL=" + std::to_string(bl) + " mode=" + to_string(mode);
      std::string opt_error, ref_error;
      const auto online = run_or_error(optimized_window(), bl, c, opt_error);
      const auto oracle = run_or_error(reference_window(), bl, c, ref_error);
      if (online.has_value() != oracle.has_value())
        fail(where + ": only one twin threw: optimized '" + opt_error + "', reference '" + ref_error + "'", c);
      if (!online) continue;
      if (!(*online == *oracle))
        fail(where + "\n" + first_difference(*online, *oracle) + "\noptimized:\n" + describe(*online) +
                 "reference:\n" + describe(*oracle),
             c);
      if (const std::string diff = submit_flags_difference(bl, c); !diff.empty())
        fail(where + ": submit_flags disagrees with submit: " + diff, c);
      if (!redundant) {
        redundant.emplace();
        const Graph full = full_wait_graph(c.stream);
        for (const RemovedEdge& r : reference_reduction().reduce(full, ReduceOptions{}, nullptr).removed)
          redundant->emplace(std::stoul(full.nodes[r.dst].name), std::stoul(full.nodes[r.src].name));
      }
      for (std::size_t i = 0; i < online->edges.size(); ++i)
        for (const WindowEdge& e : online->edges[i])
          if (e.wait_removed() && !redundant->count({i, i - static_cast<std::size_t>(e.distance)}))
            fail(where + ": task " + std::to_string(i) + " lost a WAIT the exact reduction keeps", c);
    }
  }
  return 0;
}
