//===- deps_json_props.cpp - Runtime captures: reader, reductions, write-back
///
/// \file
/// RapidCheck property of SPEC §6's last paragraph on schema-conformant
/// captures (testing/capture.hpp: both runtimes, flags written or left out,
/// several records per pair, uncaptured alloc tasks, empty edge lists, slot
/// counts that are mostly not powers of two): read with
/// formats::read_deps_json(), the trace is the model the capture was written
/// from; the exact reduction of what was read equals reference::reduce on
/// the model, and the window reducer at each BL equals reference::run_window
/// on the model's stream; each reduction written back with
/// write_reduced_deps_json() and read again keeps every task, record and
/// field and clears WAIT exactly where it was removed.
/// A case is a seed plus generator knobs; RapidCheck shrinks the knobs.
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <string>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "depreduce/testing/capture.hpp"

namespace {

using namespace depreduce::testing;

CaptureParams gen_params() {
  CaptureParams p;
  p.host_build_graph = *rc::gen::arbitrary<bool>();
  p.tasks = *rc::gen::oneOf(rc::gen::inRange<std::size_t>(0, 30), rc::gen::inRange<std::size_t>(30, 320));
  p.rings = *rc::gen::inRange<std::uint32_t>(1, 5);
  // Mostly not powers of two: slot = local id mod this.
  p.slots_per_ring = *rc::gen::element(1u, 3u, 5u, 6u, 7u, 12u, 100u, 300u, 64u);
  p.max_preds = *rc::gen::inRange(0u, 6u);
  p.far_percent = *rc::gen::element(0u, 10u, 40u);
  p.uncaptured_percent = *rc::gen::element(0u, 10u, 40u);
  // The host-built writer leaves flags out; the ring-buffer one writes them.
  p.flags_percent = p.host_build_graph ? *rc::gen::element(0u, 0u, 50u) : *rc::gen::element(100u, 70u, 0u);
  p.duplicate_percent = *rc::gen::element(0u, 15u, 40u);
  return p;
}

RC_GTEST_PROP(DepsJsonCapture, ReaderReductionsAndWriteBackMatchTheModel, ()) {
  const CaptureParams p = gen_params();
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const unsigned bl = *rc::gen::element(64u, 128u, 256u);
  const CaptureCase c = random_capture(seed, p);
  RC_CLASSIFY(c.runtime == "host_build_graph", "host_build_graph");
  RC_CLASSIFY(c.text.find("\"edges\": []") != std::string::npos, "no edges");
  RC_CLASSIFY(c.ids.size() > 256, "past BL=256");
  const std::string difference = check_capture(c, bl);
  if (!difference.empty()) RC_FAIL(difference + "\n" + c.text.substr(0, 4000));
}

} // namespace
