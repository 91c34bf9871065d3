//===- bench/io_bench.cpp - The main job around the algorithm ----------===//
///
/// \file
/// Google Benchmark of what `depreduce reduce FILE -o OUT` does besides the
/// reduction: reading DOT (the one-pass reader and its cgraph twin), the
/// model build (make_program_order), writing DOT, and the whole job file in,
/// file out (BM_WholeJob). Inputs are the texts
/// `depreduce generate dag|matmul` writes; bytes/s are of the DOT text per
/// second of wall-clock time (UseRealTime: the writer hands work to a
/// helper thread, and Google Benchmark's default, the main thread's CPU
/// time, leaves that out and the main thread's waits too). The CPU column is the whole process's, every
/// thread (MeasureProcessCPUTime).
/// BM_ReadWfJson / BM_ReadWfJsonNlohmann read the largest real WfCommons file
/// (corpus/real/wfcommons/pegasus/epigenomics/..., 2 MB; DEPREDUCE_SOURCE_DIR
/// or the working directory locates corpus/) with the one-pass reader and its
/// nlohmann twin. BM_ReadDotOfWfJson reads the same graph as DOT (the text
/// `depreduce convert FILE -o FILE.dot` writes; DEPREDUCE_WFJSON_DOT names
/// that file, else it is made in-process the way convert makes it), so one
/// run gives both MB/s: the target is the WfCommons reader at >= half the DOT
/// reader's MB/s on this graph. BM_WfJsonNlohmannSaxFloor is what
/// nlohmann-json's SAX parser costs on the file with a handler that keeps
/// nothing: no reader built on it can be faster (why read_wfjson is ours).
/// Targets: the reader >= 300 MB/s on both workloads (the 20k DAG
/// and the 10^6-instruction matmul, BM_ReadDotLarge/1/1000000). Run on a quiet
/// machine: `build/bench/io_bench --benchmark_repetitions=5`. Linked with
/// the CLI's allocator object where the CLI has one (bench/CMakeLists.txt),
/// so the reader is measured with the allocator the CLI runs with.
//===----------------------------------------------------------------------===//
#include <benchmark/benchmark.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "depreduce/condense.hpp"
#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "depreduce/formats/reference/wfjson_reader.hpp"
#include "depreduce/workloads/workloads.hpp"

namespace {

using namespace depreduce;

/// The DOT text of a generated workload (0: dag, 1: matmul), cached.
const std::string& text_of(int workload, std::uint64_t size) {
  static std::string cache[2][2];
  static std::uint64_t cached_size[2][2] = {};
  const int slot = size > 100000 ? 1 : 0;
  std::string& t = cache[workload][slot];
  if (t.empty() || cached_size[workload][slot] != size) {
    t = formats::write_dot(workloads::generate_workload(
        workloads::parse_workload(workload == 0 ? "dag" : "matmul"), size, 1));
    cached_size[workload][slot] = size;
  }
  return t;
}

void BM_ReadDot(benchmark::State& state) {
  const std::string& t = text_of(static_cast<int>(state.range(0)), static_cast<std::uint64_t>(state.range(1)));
  for (auto _ : state) benchmark::DoNotOptimize(formats::read_dot(t, "bench.dot"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}
/// BM_ReadDot of the 10^6-instruction matmul, a few iterations.
void BM_ReadDotLarge(benchmark::State& state) { BM_ReadDot(state); }
void BM_ReadDotCgraph(benchmark::State& state) {
  const std::string& t = text_of(static_cast<int>(state.range(0)), static_cast<std::uint64_t>(state.range(1)));
  for (auto _ : state) benchmark::DoNotOptimize(formats::reference::read_dot(t, "bench.dot"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}
void BM_MakeProgramOrder(benchmark::State& state) {
  const std::string& t = text_of(static_cast<int>(state.range(0)), static_cast<std::uint64_t>(state.range(1)));
  const InputGraph in = formats::read_dot(t, "bench.dot");
  for (auto _ : state) {
    state.PauseTiming();
    InputGraph copy = in;
    state.ResumeTiming();
    benchmark::DoNotOptimize(make_program_order(std::move(copy)));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}
void BM_WriteDot(benchmark::State& state) {
  const std::string& t = text_of(static_cast<int>(state.range(0)), static_cast<std::uint64_t>(state.range(1)));
  const Graph g = make_program_order(formats::read_dot(t, "bench.dot"));
  for (auto _ : state) benchmark::DoNotOptimize(formats::write_dot(g));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}
void BM_WriteDotReplacedWriter(benchmark::State& state) {
  const std::string& t = text_of(static_cast<int>(state.range(0)), static_cast<std::uint64_t>(state.range(1)));
  const Graph g = make_program_order(formats::read_dot(t, "bench.dot"));
  for (auto _ : state) benchmark::DoNotOptimize(formats::reference::write_dot(g));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}

/// File in, file out, as `depreduce reduce FILE -o OUT` does it in-process:
/// read_graph() of a file (mapped), reduce_input() (program order, merge,
/// reduction), apply() in place, write_dot() streamed into an AtomicOutput
/// renamed into place. bytes/s are of the input file.
void BM_WholeJob(benchmark::State& state) {
  const std::string& t = text_of(static_cast<int>(state.range(0)), static_cast<std::uint64_t>(state.range(1)));
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::string in = (dir / ("depreduce_io_bench_" + std::to_string(::getpid()) + ".dot")).string();
  const std::string out = in + ".out";
  formats::write_file_atomically(in, t);
  for (auto _ : state) {
    InputReduction r = reduce_input(formats::read_graph(in), ReduceOptions{});
    const Graph reduced = apply(std::move(r.graph), r.reduction);
    formats::AtomicOutput o(out);
    formats::write_dot(reduced, o);
    o.commit();
  }
  std::filesystem::remove(in);
  std::filesystem::remove(out);
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}

/// The largest real WfCommons file, read once.
const std::string& wfjson_text() {
  static const std::string text = [] {
    const char* dir = std::getenv("DEPREDUCE_SOURCE_DIR");
    return formats::read_file(std::string(dir ? dir : ".") +
                              "/corpus/real/wfcommons/pegasus/epigenomics/epigenomics-chameleon-hep-7seq-50k-001.json");
  }();
  return text;
}
void BM_ReadWfJson(benchmark::State& state) {
  const std::string& t = wfjson_text();
  for (auto _ : state) benchmark::DoNotOptimize(formats::read_wfjson(t, "bench.json"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}
/// The DOT text of the same graph: `depreduce convert` of the file (read,
/// program order, write_dot), or the file DEPREDUCE_WFJSON_DOT names.
const std::string& wfjson_as_dot_text() {
  static const std::string text = [] {
    if (const char* dot = std::getenv("DEPREDUCE_WFJSON_DOT")) return formats::read_file(dot);
    return formats::write_dot(make_program_order(formats::read_wfjson(wfjson_text(), "bench.json")));
  }();
  return text;
}
void BM_ReadDotOfWfJson(benchmark::State& state) {
  const std::string& t = wfjson_as_dot_text();
  for (auto _ : state) benchmark::DoNotOptimize(formats::read_dot(t, "bench.dot"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}
/// nlohmann's SAX interface with a handler that accepts every event and keeps
/// nothing: the floor of any reader on that library.
struct NullSax {
  using json = nlohmann::json;
  bool null() { return true; }
  bool boolean(bool) { return true; }
  bool number_integer(json::number_integer_t) { return true; }
  bool number_unsigned(json::number_unsigned_t) { return true; }
  bool number_float(json::number_float_t, const std::string&) { return true; }
  bool string(std::string&) { return true; }
  bool binary(json::binary_t&) { return true; }
  bool start_object(std::size_t) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return true; }
  bool end_array() { return true; }
  bool key(std::string&) { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
};
void BM_WfJsonNlohmannSaxFloor(benchmark::State& state) {
  const std::string& t = wfjson_text();
  for (auto _ : state) {
    NullSax sax;
    benchmark::DoNotOptimize(nlohmann::json::sax_parse(t, &sax));
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}
void BM_ReadWfJsonNlohmann(benchmark::State& state) {
  const std::string& t = wfjson_text();
  for (auto _ : state) benchmark::DoNotOptimize(formats::reference::read_wfjson(t, "bench.json"));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(t.size()));
}

// (workload, size): the 20k DAG of the issue, and a 10^5-instruction matmul
// (a tenth of the issue's; BM_ReadDot and the whole-process row in
// bench/peers.py run 10^6 too).
#define IO_ARGS ->Args({0, 20000})->Args({1, 100000})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime()
BENCHMARK(BM_ReadDot) IO_ARGS;
BENCHMARK(BM_ReadDotCgraph) IO_ARGS;
BENCHMARK(BM_MakeProgramOrder) IO_ARGS;
BENCHMARK(BM_WriteDot) IO_ARGS;
BENCHMARK(BM_WriteDotReplacedWriter) IO_ARGS;
BENCHMARK(BM_WholeJob) IO_ARGS;
BENCHMARK(BM_ReadWfJson)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_ReadDotOfWfJson)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
BENCHMARK(BM_ReadWfJsonNlohmann)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WfJsonNlohmannSaxFloor)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();
// The 10^6-instruction matmul (266 MB of DOT; generating it takes a
// few seconds and some 1.5 GB), read a few times.
BENCHMARK(BM_ReadDotLarge)->Args({1, 1000000})->Iterations(3)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime();

} // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
