//===- fuzz/fuzz_deps_json_diff.cpp - Runtime captures: reader, reductions, write-back
///
/// \file
/// Two kinds of input:
///  - bytes -> a schema-conformant capture and its model
///    (testing::capture_from_bytes: both runtimes, flags written or left out,
///    several records per pair, uncaptured alloc tasks, empty edge lists,
///    slot counts 1..64) -> testing::check_capture at one BL (64, 128 or
///    256, from byte 1): the reader against the model, the exact reduction
///    of what was read against reference::reduce on the model, the window
///    reducer against reference::run_window on the model's stream, and each
///    result written back (write_reduced_deps_json), read again, with every
///    task, record and field kept and WAIT cleared exactly where removed;
///  - an input starting with '{' is capture text as it is: read_deps_json()
///    either throws InputError or returns a trace whose exact reduction,
///    written back and read again, gives the same tasks and records with
///    WAIT cleared exactly on the removed pairs (whatever the text's
///    spacing, escapes or repeated keys).
/// On any difference the input and the difference are printed and the
/// process aborts.
///
/// Caps: 4096 input bytes and 96 generated tasks (enough for the window to
/// slide at BL 64; the property DepsJsonCapture.ReaderReductionsAndWriteBack-
/// MatchTheModel covers captures of up to 320 tasks): the oracles are
/// O(n * (n + m)) and the write-back reads the whole capture text twice, so
/// a byte input of any other corpus (CI cross-pollinates them) cost ~100 ms
/// under ASan at 200 tasks; a time-out is not a finding.
//===----------------------------------------------------------------------===//
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <utility>

#include "depreduce/error.hpp"
#include "depreduce/formats/deps_json.hpp"
#include "depreduce/graph.hpp"
#include "depreduce/testing/capture.hpp"
#include "depreduce/transitive_reduction.hpp"

namespace {

using namespace depreduce;

[[noreturn]] void fail(const std::string& what, std::string_view text) {
  std::fprintf(stderr, "MISMATCH: %s\n%.*s\n", what.c_str(), static_cast<int>(text.size()), text.data());
  std::abort();
}

/// Capture text as given: whatever the reader accepts must write back.
void check_text(std::string_view text) {
  formats::WindowTrace t;
  try {
    t = formats::read_deps_json(text, "fuzz.deps.json", {5});
  } catch (const InputError&) {
    return; // refused with a message: fine
  }
  std::set<std::pair<NodeId, NodeId>> wait;
  for (const formats::DepsEdgeRecord& r : t.records)
    if (r.flags.has(Flag::Wait) && r.producer != r.consumer) wait.emplace(r.producer, r.consumer);
  const Graph g = graph_from_edges(static_cast<std::uint32_t>(t.ids.size()), {wait.begin(), wait.end()});
  std::set<std::pair<std::uint32_t, std::uint32_t>> removed;
  std::vector<formats::ReducedPair> pairs;
  for (const RemovedEdge& e : reduce(g).removed) {
    const auto p = static_cast<std::uint32_t>(std::stoul(g.nodes[e.src].name));
    const auto c = static_cast<std::uint32_t>(std::stoul(g.nodes[e.dst].name));
    removed.emplace(p, c);
    pairs.push_back({p, c});
  }
  formats::WindowTrace back;
  try {
    back = formats::read_deps_json(formats::write_reduced_deps_json(text, t, pairs), "back.deps.json", {5});
  } catch (const InputError& e) {
    fail(std::string("the written-back capture does not read: ") + e.what(), text);
  }
  if (back.ids != t.ids || back.records.size() != t.records.size()) fail("write-back changed the tasks or records", text);
  for (std::size_t k = 0; k < t.records.size(); ++k) {
    const formats::DepsEdgeRecord& r = t.records[k];
    const bool cleared = removed.count({r.producer, r.consumer}) != 0 && r.flags.has(Flag::Wait);
    if (back.records[k].flags != (cleared ? r.flags.without(Flag::Wait) : r.flags) ||
        back.records[k].producer != r.producer || back.records[k].consumer != r.consumer)
      fail("record " + std::to_string(k) + " reads back wrong", text);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  if (size > 0 && data[0] == '{') {
    check_text(std::string_view(reinterpret_cast<const char*>(data), size));
    return 0;
  }
  const testing::CaptureCase c = testing::capture_from_bytes(data, size, 96);
  static constexpr unsigned kWindows[] = {64, 128, 256};
  const unsigned bl = kWindows[(size > 1 ? data[1] >> 6 : 0) % 3];
  if (const std::string d = testing::check_capture(c, bl); !d.empty()) fail("BL=" + std::to_string(bl) + ": " + d, c.text);
  return 0;
}
