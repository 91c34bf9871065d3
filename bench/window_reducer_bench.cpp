//===- bench/window_reducer_bench.cpp - Bounded-window reducer cost ------===//
///
/// \file
/// Per-task cost of window_reducer<BL>::submit (SPEC §6; target:
/// < 20 ns per task at BL = 64, < 60 ns at BL = 256 - a benchmark target, not
/// a test):
///  - BM_WindowSubmit<BL>/global|same-ring: one pass over a 10^6-task stream,
///    4 rings x 16,384 slots, ~8 candidates per task (uniform 0..16), 60% at
///    distance 1..6, 15% at a window edge (62..258), the rest uniform in
///    1..512; 30% carry RETAIN, 5% name a stale generation, 10% duplicates.
///    The stream (~180 MB) is read once per pass, as the runtime would see it.
///  - BM_WindowSubmitHot<BL>: the same shape, 4,096 tasks replayed with
///    shifted generations, so input and side storage stay in cache: the
///    reducer's own cost without the memory traffic of reading the stream.
///  - BM_WindowSubmitInto<BL>/global|same-ring: the same 10^6-task stream
///    through submit_into (the verdicts of submit, into one caller buffer of
///    the largest candidate count: no vector resizing).
///  - BM_WindowSubmitFlags<BL>: the same 10^6-task stream through the hot-path
///    form submit_flags (one FlagSet per raw candidate, no canonical order).
///  - BM_WindowStreamRead: reading the 10^6-task stream's candidates, nothing
///    else - the floor under the four benchmarks above.
///  - BM_WindowSubmitFlagsHot<BL>/portable:0|1: submit_flags with the
///    candidates in cache, as in a runtime: 10^6 submits from a 4,096-task
///    block replayed with shifted generations; portable:0 is
///    WindowKernel::Auto (the AVX-512 kernel where the CPU has it; the label
///    says which ran), portable:1 the portable loop.
///  - BM_WindowSubmitFlags<BL> also runs the kernel WindowKernel::Auto picks.
///  - BM_WindowRun/<impl>/<BL>: run_window over 2,000 tasks for every
///    implementation of testing::window_impls() (optimized vs the oracle).
/// Counter ns_per_task = CPU time per submitted task in nanoseconds (Google
/// Benchmark prints it with an "s" suffix: "22.2s" means 22.2 ns).
/// Run: build/bench/window_reducer_bench --benchmark_counters_tabular=true
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "depreduce/testing/task_streams.hpp"
#include "depreduce/window_reducer.hpp"

namespace {
using namespace depreduce;

testing::StreamParams bench_params(std::size_t tasks) {
  testing::StreamParams p;
  p.tasks = tasks;
  p.rings = 4;
  p.slots_per_ring = 16384;
  p.max_candidates = 16;
  p.ring_switch_percent = 10;
  p.near_percent = 60;
  p.edge_percent = 15;
  p.max_distance = 512;
  p.stale_percent = 5;
  p.retain_percent = 30;
  p.duplicate_percent = 10;
  return p;
}

const testing::WindowCase& big_stream() {
  static const testing::WindowCase c = testing::random_stream(20261129, bench_params(1000000));
  return c;
}

double candidates_per_task(const TaskStream& s) {
  std::size_t n = 0;
  for (const TaskRecord& t : s) n += t.candidates.size();
  return static_cast<double>(n) / static_cast<double>(s.size());
}

void set_counters(benchmark::State& state, std::size_t tasks_per_iteration, const TaskStream& s) {
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * tasks_per_iteration));
  // Rate = value * iterations / seconds, inverted: seconds / (value * iterations);
  // value = tasks * 1e-9 makes that nanoseconds per task.
  state.counters["ns_per_task"] = benchmark::Counter(static_cast<double>(tasks_per_iteration) * 1e-9,
                                                     benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
  state.counters["cand_per_task"] = candidates_per_task(s);
}

template <unsigned BL>
void BM_WindowSubmit(benchmark::State& state) {
  const testing::WindowCase& c = big_stream();
  WindowOptions o = c.options;
  o.mode = state.range(0) == 0 ? WindowMode::Global : WindowMode::SameRing;
  std::vector<WindowEdge> out;
  std::size_t removed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    window_reducer<BL> r(o);
    state.ResumeTiming();
    for (const TaskRecord& t : c.stream) {
      r.submit(t.id, t.generation, t.candidates, out);
      removed += out.size();
    }
    benchmark::DoNotOptimize(removed);
  }
  set_counters(state, c.stream.size(), c.stream);
  state.SetLabel(o.mode == WindowMode::Global ? "global" : "same-ring");
}

template <unsigned BL>
void BM_WindowSubmitHot(benchmark::State& state) {
  static const testing::WindowCase c = testing::random_stream(7, bench_params(4096));
  // 32 copies with generations shifted by 1000 each (the stream's largest
  // generation is 0 with 16,384 slots per ring): no (slot, generation) repeats.
  static const TaskStream batch = [] {
    TaskStream b;
    for (Generation k = 0; k < 32; ++k)
      for (TaskRecord t : c.stream) {
        t.generation += 1000 * k;
        for (Candidate& cand : t.candidates) cand.generation += 1000 * k;
        b.push_back(std::move(t));
      }
    return b;
  }();
  std::vector<WindowEdge> out;
  std::size_t removed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    window_reducer<BL> r(c.options);
    state.ResumeTiming();
    for (const TaskRecord& t : batch) {
      r.submit(t.id, t.generation, t.candidates, out);
      removed += out.size();
    }
    benchmark::DoNotOptimize(removed);
  }
  set_counters(state, batch.size(), batch);
}

template <unsigned BL>
void BM_WindowSubmitInto(benchmark::State& state) {
  const testing::WindowCase& c = big_stream();
  WindowOptions o = c.options;
  o.mode = state.range(0) == 0 ? WindowMode::Global : WindowMode::SameRing;
  std::size_t largest = 0;
  for (const TaskRecord& t : c.stream) largest = std::max(largest, t.candidates.size());
  std::vector<WindowEdge> out(largest);
  std::size_t edges = 0;
  for (auto _ : state) {
    state.PauseTiming();
    window_reducer<BL> r(o);
    state.ResumeTiming();
    for (const TaskRecord& t : c.stream) edges += r.submit_into(t.id, t.generation, t.candidates, out);
    benchmark::DoNotOptimize(edges);
  }
  set_counters(state, c.stream.size(), c.stream);
  state.SetLabel(o.mode == WindowMode::Global ? "global" : "same-ring");
}

template <unsigned BL>
void BM_WindowSubmitFlags(benchmark::State& state) {
  const testing::WindowCase& c = big_stream();
  std::vector<FlagSet> effective(64);
  std::size_t removed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    window_reducer<BL> r(c.options);
    state.ResumeTiming();
    for (const TaskRecord& t : c.stream) removed += r.submit_flags(t.id, t.generation, t.candidates, effective);
    benchmark::DoNotOptimize(removed);
  }
  set_counters(state, c.stream.size(), c.stream);
  state.SetLabel(window_reducer<BL>(c.options).kernel_name());
}

/// The floor of every 10^6-task benchmark above: reading the stream's
/// candidates once (what the reducer must load), nothing else. The stream
/// (~180 MB, one heap block per task) comes from memory, not cache.
void BM_WindowStreamRead(benchmark::State& state) {
  const testing::WindowCase& c = big_stream();
  std::uint64_t sum = 0;
  for (auto _ : state) {
    for (const TaskRecord& t : c.stream)
      for (const Candidate& x : t.candidates) sum += x.producer ^ x.generation ^ x.flags.bits();
    benchmark::DoNotOptimize(sum);
  }
  set_counters(state, c.stream.size(), c.stream);
}

/// submit_flags() as a runtime calls it: the candidates of the task being
/// submitted are in cache (discovery just wrote them). 10^6 submits: a
/// 4,096-task block of the same shape as the big stream, laid out flat,
/// replayed 244 times; between replays (timing paused) every generation is
/// moved on by 1,000, so each replay publishes new (slot, generation) pairs.
template <unsigned BL>
void BM_WindowSubmitFlagsHot(benchmark::State& state) {
  static const testing::WindowCase c = testing::random_stream(7, bench_params(4096));
  WindowOptions o = c.options;
  o.kernel = state.range(0) == 0 ? WindowKernel::Auto : WindowKernel::Portable;
  constexpr int kReplays = 244; // 244 * 4,096 = 999,424 submits
  std::vector<Candidate> flat;
  std::vector<std::uint32_t> begin{0};
  for (const TaskRecord& t : c.stream) {
    flat.insert(flat.end(), t.candidates.begin(), t.candidates.end());
    begin.push_back(static_cast<std::uint32_t>(flat.size()));
  }
  std::vector<FlagSet> effective(64);
  std::size_t removed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    window_reducer<BL> r(o);
    std::vector<Candidate> cand = flat;
    state.ResumeTiming();
    for (int k = 0; k < kReplays; ++k) {
      const Generation shift = 1000 * static_cast<Generation>(k);
      for (std::size_t i = 0; i < c.stream.size(); ++i)
        removed += r.submit_flags(c.stream[i].id, c.stream[i].generation + shift,
                                  std::span<const Candidate>(cand.data() + begin[i], begin[i + 1] - begin[i]),
                                  effective);
      state.PauseTiming();
      for (Candidate& x : cand) x.generation += 1000;
      state.ResumeTiming();
    }
    benchmark::DoNotOptimize(removed);
  }
  set_counters(state, c.stream.size() * kReplays, c.stream);
  state.SetLabel(window_reducer<BL>(o).kernel_name());
}

void BM_WindowRun(benchmark::State& state) {
  static const testing::WindowCase c = testing::random_stream(11, bench_params(2000));
  const testing::WindowImpl& impl = testing::window_impls()[static_cast<std::size_t>(state.range(0))];
  const auto bl = static_cast<unsigned>(state.range(1));
  for (auto _ : state) benchmark::DoNotOptimize(impl.run(bl, c.stream, c.options));
  set_counters(state, c.stream.size(), c.stream);
  state.SetLabel(impl.name);
}

BENCHMARK(BM_WindowSubmit<64>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmit<128>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmit<256>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitHot<64>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitHot<128>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitHot<256>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitInto<64>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitInto<128>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitInto<256>)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitFlags<64>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitFlags<128>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitFlags<256>)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowStreamRead)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitFlagsHot<64>)->ArgName("portable")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitFlagsHot<128>)->ArgName("portable")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowSubmitFlagsHot<256>)->ArgName("portable")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WindowRun)->ArgsProduct({{0, 1}, {64, 256}})->Unit(benchmark::kMillisecond);

} // namespace

BENCHMARK_MAIN();
