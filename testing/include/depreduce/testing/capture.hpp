//===- depreduce/testing/capture.hpp - Runtime capture generator -*- C++ -*-===//
///
/// \file
/// Schema-conformant runtime captures (`deps.json`, docs/formats.md) for the
/// property `props/deps_json_props.cpp` and the fuzz target
/// `fuzz/fuzz_deps_json_diff.cpp`, with the model each was written from:
///
///  - both runtimes: `tensormap_and_ringbuffer` (ids `(ring << 32) | local`,
///    each ring's tasks taking its ring buffer's next slot; any slot count,
///    powers of two or not, so slots are reused and producers go stale) and
///    `host_build_graph` (GLOBAL and SUB_TASK ids with parents, in no
///    numeric order);
///  - records with `flags` written and without (then they follow from
///    `source`), several records for one pair, the runtime's other task,
///    tensor and edge fields, ids as strings or numbers, varied spacing;
///  - uncaptured `alloc_tensors` tasks, named only as a `pred`, one or more
///    just before a consumer (SPEC §6, last paragraph);
///  - captures without any edge (`"edges": []`).
///
/// The model is stated by the generator, not read back: it chose every
/// task's place, ring, slot and generation (a ring buffer that advances one
/// slot at a time - no division), so check_capture() compares the reader and
/// the reductions on the text with the reference on what was meant.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_CAPTURE_HPP
#define DEPREDUCE_TESTING_CAPTURE_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "depreduce/window_reducer.hpp"

namespace depreduce::testing {

/// Knobs of random_capture(). Percentages are per task or per record.
struct CaptureParams {
  bool host_build_graph = false; ///< Else tensormap_and_ringbuffer.
  std::size_t tasks = 40;        ///< Captured tasks (uncaptured ones come on top).
  std::uint32_t rings = 2;       ///< tensormap_and_ringbuffer: rings used (<= 4).
  std::uint32_t slots_per_ring = 6; ///< tensormap_and_ringbuffer: >= 1, any value.
  unsigned max_preds = 4;           ///< Producers per captured task, uniform in [0, max].
  unsigned far_percent = 10;        ///< A producer up to 300 submits back (else up to 8).
  unsigned uncaptured_percent = 10; ///< Per captured task: 1-2 alloc tasks just before it.
  unsigned flags_percent = 70;      ///< Per record: `flags` written (else absent).
  unsigned duplicate_percent = 15;  ///< Per record: another record of the same pair.
  unsigned number_ids_percent = 10; ///< Per id: written as a JSON number, not a string.
};

/// A generated capture and the model it was written from.
struct CaptureCase {
  std::string text;    ///< The deps.json text.
  std::string runtime; ///< "tensormap_and_ringbuffer" or "host_build_graph".
  std::uint32_t slots_per_ring = 1; ///< What to read it with (tensormap_and_ringbuffer).
  /// Submission order, uncaptured tasks included: raw ids and whether `tasks[]` lists them.
  std::vector<std::uint64_t> ids;
  std::vector<bool> captured;
  /// One per `edges[]` element, in text order: positions in `ids`, flags
  /// (as written, or what `source` gives), whether `flags` is written.
  struct Record {
    std::uint32_t producer = 0, consumer = 0;
    FlagSet flags;
    bool flags_written = false;
    DepSource source = DepSource::Explicit;
  };
  std::vector<Record> records;
  /// The task stream as the model means it (slots and generations as the
  /// generator assigned them) and its geometry, for the reference reducer.
  TaskStream stream;
  WindowOptions geometry;
};

/// A random capture. Deterministic in \p seed.
CaptureCase random_capture(std::uint64_t seed, const CaptureParams& params);

/// A capture decoded from fuzzer bytes (never throws): byte 0 picks the
/// runtime, byte 1 the slot count (1..64, most of them not powers of two),
/// the rest drive the same choices random_capture() makes from a seed.
/// At most \p max_tasks captured tasks.
CaptureCase capture_from_bytes(const std::uint8_t* data, std::size_t size, std::size_t max_tasks = 200);

/// Reads \p c.text with formats::read_deps_json() and checks, returning ""
/// or a description of the first difference:
///  - the trace is the model (order, captured, records, slots and
///    generations of the stream);
///  - the exact reduction (depreduce::reduce of the WAIT pairs the trace's
///    records give) removes what reference::reduce removes on the model's;
///  - window_reducer<\p bl> on the trace removes what reference::run_window
///    removes on the model's stream;
///  - write_reduced_deps_json() of each result, read back, keeps every task,
///    record and field as written except `flags`, and clears WAIT exactly
///    from the records of the removed pairs (wait|retain -> retain, wait ->
///    none; a record without `flags` gets them where it lost WAIT).
/// \p bl is 64, 128 or 256.
std::string check_capture(const CaptureCase& c, unsigned bl);

} // namespace depreduce::testing

#endif // DEPREDUCE_TESTING_CAPTURE_HPP
