//===- cli/batch.cpp - Many inputs in one process (--out-dir) ------------===//
#include "batch.hpp"
#include "options.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <map>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "depreduce/error.hpp"
#include "depreduce/formats/formats.hpp"

namespace depreduce::cli {
namespace fs = std::filesystem;

void add_batch_options(CLI::App& cmd, BatchArgs& args) {
  cmd.add_option("--out-dir", args.out_dir,
                 "Batch mode: write each FILE's output to DIR/<its name without extension>.<output's extension> "
                 "(DIR is created if missing); one status line per file on stderr")
      ->type_name("DIR");
  cmd.add_option("--files-from", args.files_from,
                 "Batch mode: also read the input paths from this file, one per line (- = standard input)")
      ->type_name("LIST");
}

bool batch_mode(const BatchArgs& args) {
  if (!args.out_dir.empty()) return true;
  if (!args.files_from.empty())
    throw CLI::ValidationError("--files-from", "batch mode writes its outputs under --out-dir DIR; give one");
  if (args.files.empty()) throw CLI::ValidationError("FILE", "an input file is required");
  if (args.files.size() > 1)
    throw CLI::ValidationError("FILE", std::to_string(args.files.size()) +
                                           " input files given: several inputs need --out-dir DIR (batch mode)");
  return false;
}

void refuse_in_batch(const std::string& option) {
  throw CLI::ValidationError(option, "names one output file and cannot go with --out-dir (batch mode)");
}

namespace {

std::vector<std::string> inputs_of(const BatchArgs& args) {
  std::vector<std::string> inputs = args.files;
  if (!args.files_from.empty()) {
    const std::string list = formats::read_file(args.files_from);
    std::size_t start = 0;
    while (start < list.size()) {
      std::size_t end = list.find('\n', start);
      if (end == std::string::npos) end = list.size();
      if (end > start) inputs.push_back(list.substr(start, end - start));
      start = end + 1;
    }
  }
  return inputs;
}

std::string json_line(const std::string& file, const std::string* output, const std::string* error,
                      const std::vector<std::string>& warnings) {
  nlohmann::ordered_json j;
  j["file"] = file;
  j["status"] = error ? "error" : "ok";
  j["output"] = output ? nlohmann::ordered_json(*output) : nlohmann::ordered_json(nullptr);
  j["error"] = error ? nlohmann::ordered_json(*error) : nlohmann::ordered_json(nullptr);
  j["warnings"] = warnings;
  // Names may hold any bytes: never throw on invalid UTF-8.
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

} // namespace

int run_batch(const BatchArgs& args, const std::string& extension, const PerFile& body) {
  const std::vector<std::string> inputs = inputs_of(args);
  if (inputs.empty()) throw CLI::ValidationError("FILE", "no input file given (FILE... or --files-from LIST)");
  // Every output name is decided, and checked, before any input is read.
  std::vector<std::string> names;
  names.reserve(inputs.size());
  std::map<std::string, std::size_t> by_name; // output file name -> first input that takes it
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const std::string& in = inputs[i];
    if (in == "-")
      throw CLI::ValidationError("FILE", "- (standard input) cannot be one input of a batch; give a path");
    std::string name = fs::path(in).stem().string() + extension;
    const auto [at, fresh] = by_name.emplace(name, i);
    if (!fresh)
      throw CLI::ValidationError("--out-dir", "'" + inputs[at->second] + "' and '" + in + "' would both write '" +
                                                  (fs::path(args.out_dir) / name).string() +
                                                  "'; rename one or run them in separate batches");
    names.push_back(std::move(name));
  }
  std::error_code ec;
  fs::create_directories(args.out_dir, ec);
  if (!fs::is_directory(args.out_dir))
    throw InputError(args.out_dir, 0, "cannot create the output folder" + (ec ? ": " + ec.message() : std::string()));
  // DIR opened and listed once: every output is created and renamed relative
  // to it, and a name its listing does not hold needs no stat call (neither
  // here, for the check that no output is an input, nor when it is written).
  const formats::OutputFolder folder(args.out_dir);
  std::vector<formats::OutputPath> outputs;
  outputs.reserve(inputs.size());
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    outputs.emplace_back(folder, std::move(names[i]));
    std::error_code same_error;
    if (folder.listed(outputs[i].name) && fs::equivalent(inputs[i], outputs[i].path, same_error))
      throw CLI::ValidationError("--out-dir", "the output of '" + inputs[i] + "' would overwrite it; choose another DIR");
  }

  int code = kExitOk;
  bool failed = false;
  std::vector<std::string> warnings;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    warnings.clear();
    std::string error;
    try {
      code = std::max(code, body(inputs[i], outputs[i], warnings));
    } catch (const InputError& e) {
      error = e.what();
    } catch (const std::exception& e) {
      error = inputs[i] + ": " + e.what();
    }
    if (!error.empty()) {
      failed = true;
      ::unlink(outputs[i].path.c_str()); // an earlier run's output must not pass for this one's
    }
    if (args.json) {
      fmt::print(stderr, "{}\n",
                 json_line(inputs[i], error.empty() ? &outputs[i].path : nullptr, error.empty() ? nullptr : &error,
                           warnings));
    } else {
      print_warnings(warnings);
      if (error.empty()) {
        if (!quiet) fmt::print(stderr, "depreduce: ok: {} -> {}\n", one_line(inputs[i]), one_line(outputs[i].path));
      }
      else fmt::print(stderr, "depreduce: error: {}\n", one_line(error));
    }
  }
  return failed ? kExitBadInput : code;
}

} // namespace depreduce::cli
