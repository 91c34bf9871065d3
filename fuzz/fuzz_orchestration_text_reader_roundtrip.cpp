//===- fuzz/fuzz_orchestration_text_reader_roundtrip.cpp - Orchestration text reader --------------===//
///
/// \file
/// bytes -> parse_orchestration. The reader must never crash, hang or read
/// out of bounds (run under ASan/UBSan): bad input is an InputError. When the
/// bytes parse, print -> parse -> print must be stable and give the same
/// program; then the phase fence pass runs on the parsed program and the
/// interpreter oracle must find the same happens-before among real tasks
/// (every trip-count parameter = 2), and the pass must be idempotent.
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "depreduce/error.hpp"
#include "depreduce/formats/orchestration_text.hpp"
#include "depreduce/phase_fence.hpp"
#include "depreduce/reference/phase_fence.hpp"

namespace {

using namespace depreduce;

[[noreturn]] void fail(const char* what, std::string_view input, const std::string& detail) {
  std::fprintf(stderr, "FAILURE: %s\n%s\n--- input ---\n%.*s\n", what, detail.c_str(), static_cast<int>(input.size()),
               input.data());
  std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Programs worth parsing are small; 16 KiB keeps each run in milliseconds.
  if (size > 16 * 1024) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  orch::Program p;
  try {
    p = formats::parse_orchestration(text, "fuzz.orch");
  } catch (const InputError&) {
    return 0;
  }
  const std::string printed = orch::print(p);
  try {
    orch::Program back = formats::parse_orchestration(printed, "printed.orch");
    if (back != p) fail("print -> parse gives another program", text, printed);
    if (orch::print(back) != printed) fail("print -> parse -> print is not stable", text, printed);
  } catch (const InputError& e) {
    fail("printed program does not parse", text, printed + "\n" + e.what());
  }

  PhaseFenceSummary s;
  orch::Program after = expand_manual_phase_fence(p, &s);
  if (auto problem = orch::find_problem(after)) fail("pass produced an invalid program", text, problem->message);
  if (expand_manual_phase_fence(after) != after) fail("pass is not idempotent", text, orch::print(after));

  // The oracle on arbitrary programs, with caps so that hostile trip counts
  // and array sizes stay cheap: O(T * (T + E)) happens-before for T <= 400.
  reference::TripCounts trips;
  for (const orch::Function& f : p.functions)
    for (const std::string& param : f.params) trips[param] = 2;
  reference::InterpretLimits limits;
  limits.max_tasks = 400;
  limits.max_steps = 100'000;
  limits.max_array_length = 64;
  try {
    reference::interpret(p, trips, limits);
  } catch (const InputError&) {
    return 0; // index out of range, too big: not a program the oracle can judge
  }
  limits.max_tasks = 4 * limits.max_tasks; // room for the barriers
  limits.max_steps = 4 * limits.max_steps;
  reference::FenceComparison cmp;
  try {
    cmp = reference::compare_fence(p, after, trips, limits);
  } catch (const InputError& e) {
    // Barriers are extra tasks and steps: a program whose barriers run far
    // more often than its consumers (zero-trip inner loops) can pass the caps
    // only after the pass. Anything else is a bug.
    if (std::string(e.what()).find("more than") != std::string::npos) return 0;
    fail("the rewritten program fails where the original ran", text, e.what());
  }
  if (!cmp.equivalent) fail("happens-before changed", text, cmp.mismatch + "\n" + orch::print(after));
  return 0;
}
