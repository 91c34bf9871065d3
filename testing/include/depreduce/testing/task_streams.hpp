//===- depreduce/testing/task_streams.hpp - Window reducer test support -*- C++ -*-===//
///
/// \file
/// What tests/, props/, fuzz/ and bench/ share for the bounded-window reducer
/// (SPEC §6): the two twins behind one adapter, and the stream generators.
///
///  - `window_impls()`: the optimized reducer and the Boost.Graph oracle, each
///    callable for BL = 64, 128, 256 through `WindowImpl::run`.
///  - `random_stream()`: a seeded random stream (random rings, slot reuse with
///    generations, distances around 64/128/256, stale generations, WAIT/RETAIN
///    flags, duplicates from several sources, random candidate order).
///  - `stream_from_bytes()`: the same kinds of stream decoded from fuzzer bytes.
///  - `full_wait_graph()`: the complete WAIT graph of a stream, for checking
///    against the exact reduction (SPEC §4).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_TESTING_TASK_STREAMS_HPP
#define DEPREDUCE_TESTING_TASK_STREAMS_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "depreduce/graph.hpp"
#include "depreduce/window_reducer.hpp"

namespace depreduce::testing {

/// The window sizes every twin supports.
inline constexpr unsigned kWindowSizes[] = {64, 128, 256};

/// One implementation of run_window (SPEC §6), one function per window size.
/// A third-party reducer that supports only some sizes leaves the others
/// null: the properties and fuzz_window_reducer_diff skip the sizes it lacks.
struct WindowImpl {
  std::string name; ///< "optimized", "reference", ...
  WindowRun (*run64)(const TaskStream&, const WindowOptions&);
  WindowRun (*run128)(const TaskStream&, const WindowOptions&);
  WindowRun (*run256)(const TaskStream&, const WindowOptions&);

  /// True when the BL = \p bl function is set (64, 128 or 256).
  bool supports(unsigned bl) const noexcept;
  /// Runs the BL = \p bl instantiation. \throws std::invalid_argument for a
  /// \p bl other than 64, 128, 256 or one the implementation does not
  /// support; InputError as run_window().
  WindowRun run(unsigned bl, const TaskStream& stream, const WindowOptions& options) const;
};

/// depreduce::run_window (optimized) and depreduce::reference::run_window, in
/// that order, then every reducer added with register_window_impl(). The
/// properties and fuzz_window_reducer_diff compare every one with the reference.
const std::vector<WindowImpl>& window_impls();

/// Adds a third-party window reducer (docs/testing.md), before the tests run:
/// from a static initialiser in an adapter file compiled into depreduce_props
/// (-DDEPREDUCE_EXTRA_PROPS_SOURCES) or the fuzz targets
/// (-DDEPREDUCE_EXTRA_FUZZ_SOURCES). \returns true (so it can initialise a static).
bool register_window_impl(WindowImpl impl);
const WindowImpl& optimized_window();
const WindowImpl& reference_window();

/// A stream and the reducer geometry it was generated for (mode: Global;
/// callers set the mode they test - except stream_from_bytes(), which takes
/// the mode and the window size from the bytes).
struct WindowCase {
  TaskStream stream;
  WindowOptions options;
  /// The window size (64, 128 or 256) chosen by stream_from_bytes(); 64 elsewhere.
  unsigned window = 64;
};

/// Knobs of random_stream(). Percentages are per candidate unless noted.
struct StreamParams {
  std::size_t tasks = 300;
  std::uint32_t rings = 2;
  std::uint32_t slots_per_ring = 64; ///< Small values force slot reuse (stale producers).
  unsigned max_candidates = 6;       ///< Per task, uniform in [0, max].
  unsigned seq_width = 64;
  std::uint64_t initial_seq = 0;
  unsigned ring_switch_percent = 30; ///< Per task: move to a random ring.
  unsigned near_percent = 55;        ///< Distance 1..6.
  unsigned edge_percent = 15;        ///< Distance BL-2..BL+2 for a random BL of 64/128/256.
  /// The rest: distance uniform in 1..min(i, max_distance) (0 = no limit).
  std::uint64_t max_distance = 0;
  unsigned stale_percent = 5;        ///< Name a generation the slot does not hold.
  unsigned retain_percent = 30;      ///< Carry RETAIN (with WAIT half of the time).
  unsigned duplicate_percent = 10;   ///< Repeat an earlier producer from another source.
};

/// A random stream: task i goes to a ring (sticky, switching with
/// ring_switch_percent), takes the ring's next local id, slot = local %
/// slots_per_ring, generation = local / slots_per_ring (as the runtime does);
/// each candidate names an earlier task chosen by distance (near, around a
/// window edge, or uniform), with the producer's generation (or a wrong one),
/// random flags and source; candidate lists are in random order.
/// Deterministic in \p seed.
WindowCase random_stream(std::uint64_t seed, const StreamParams& params);

/// Decodes fuzzer bytes into a case (never throws; the stream it returns may
/// be invalid on purpose - an out-of-range producer, a republished slot - so
/// that error paths are compared too). At most \p max_tasks tasks. The first
/// byte also chooses the mode (options.mode) and the window size (window) the
/// case is for, so that one input is one run of each twin; the layout is in
/// fuzz/window_seeds.py.
WindowCase stream_from_bytes(const std::uint8_t* data, std::size_t size, std::size_t max_tasks = 512);

/// \p stream with each task's candidate list permuted (seeded by \p seed).
TaskStream shuffled_candidates(const TaskStream& stream, std::uint64_t seed);

/// The complete WAIT graph of \p stream: node i = task i (named "i"), one WAIT
/// edge j -> i for every candidate of i that carries WAIT and names, by
/// (TaskId, generation), a task j submitted before i - whether or not j's slot
/// was reused since (stale candidates included, cross-ring included).
/// Every WAIT graph the reducer reasons about is a subgraph of it, so what the
/// exact reduction of this graph keeps, the reducer must keep too.
Graph full_wait_graph(const TaskStream& stream);

/// Replays \p c through window_reducer<\p bl>::submit and ::submit_flags in
/// lockstep on two reducers and returns "" if they agree - every raw
/// candidate's effective flags are its own flags minus WAIT exactly when
/// submit() removed WAIT from its producer, the removal counts match, and both
/// publish the same bitmaps - or a description of the first disagreement.
/// Runs submit_flags with each kernel (WindowKernel::Auto, which is the
/// AVX-512 one where the CPU has it, and WindowKernel::Portable), and
/// window_reducer::audit() on both reducers along the way.
/// \throws InputError if the stream is invalid (as run_window()).
std::string submit_flags_difference(unsigned bl, const WindowCase& c);

/// Compact multi-line text of a case (options, then one line per task) for
/// failure messages.
std::string describe(const TaskStream& stream, const WindowOptions& options);
/// Compact text of a run (one line per task with edges).
std::string describe(const WindowRun& run);
/// The first task where \p a and \p b differ, as text; "" if equal.
std::string first_difference(const WindowRun& a, const WindowRun& b);

} // namespace depreduce::testing

#endif // DEPREDUCE_TESTING_TASK_STREAMS_HPP
