//===- cli/batch.hpp - Many inputs in one process (--out-dir) ------------===//
///
/// \file
/// Batch mode of `reduce`, `convert` and `window-report` (docs/cli.md
/// "Batch mode"): `CMD FILE... --out-dir DIR` and `--files-from LIST` run
/// the command's per-file body on every input in one process. Each output
/// goes to DIR/<input file name without its last extension>.<extension of
/// the output>; one status line per input on stderr (a JSON object per line
/// with --json); a failed input leaves nothing under its output name and
/// the others still run; exit 2 at the end if any failed.
///
/// The commands register their FILE positional into BatchArgs::files and
/// call add_batch_options(); their callback asks batch_mode() and, in batch
/// mode, hands run_batch() its per-file body.
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_CLI_BATCH_HPP
#define DEPREDUCE_CLI_BATCH_HPP

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "depreduce/formats/formats.hpp"

namespace depreduce::cli {

/// What a batch-capable command parses besides its own options.
struct BatchArgs {
  std::vector<std::string> files; ///< FILE... as given.
  std::string out_dir;            ///< --out-dir ("" = not given).
  std::string files_from;         ///< --files-from ("" = not given; "-" = stdin).
  bool json = false;              ///< Status lines as JSON objects (the command's --json).
};

/// Registers `--out-dir DIR` and `--files-from LIST` on \p cmd, storing into
/// \p args (FILE and --json are the command's own).
void add_batch_options(CLI::App& cmd, BatchArgs& args);

/// True if \p args asks for batch mode (--out-dir or --files-from given).
/// \throws CLI::ValidationError (usage error) for several FILEs without
/// --out-dir, --files-from without --out-dir, or no FILE at all.
bool batch_mode(const BatchArgs& args);

/// \throws CLI::ValidationError naming \p option: it names one file and
/// cannot go with --out-dir. Call for each such option given in batch mode.
[[noreturn]] void refuse_in_batch(const std::string& option);

/// One input's work: read \p input, write the result to \p output (a name
/// in the batch's formats::OutputFolder; through formats::AtomicOutput or
/// write_file_atomically, so a failure leaves nothing), append the input's
/// warnings to \p warnings. Returns the exit
/// code the input alone would have (0, or 1 for findings). Throws on bad
/// input (InputError) as the single-file command does.
using PerFile = std::function<int(const std::string& input, const formats::OutputPath& output,
                                  std::vector<std::string>& warnings)>;

/// Batch mode: the inputs are args.files then the lines of args.files_from
/// (empty lines skipped). Checks before any input is read, as usage errors
/// (CLI::ValidationError): no input, "-" as an input, two inputs with the
/// same output name (DIR/<stem><extension>), an output name that is one of
/// the inputs. Creates DIR if missing and opens it once (formats::OutputFolder:
/// its one listing answers which outputs are new). Then runs \p body on each input in
/// order and prints its status line on stderr, as it completes:
///   `depreduce: ok: INPUT -> OUTPUT` or `depreduce: error: FILE:LINE: problem`
/// (each after the input's warnings, `depreduce: <warning>`), or with
/// args.json one JSON object per line:
///   {"file": INPUT, "status": "ok"|"error", "output": OUTPUT|null,
///    "error": MESSAGE|null, "warnings": [...]}.
/// A failed input's output name is removed if a file of an earlier run is
/// there, so DIR holds no output for it. Returns the exit code: 2 if any
/// input failed, else the highest code \p body returned.
/// \throws InputError if args.files_from cannot be read.
int run_batch(const BatchArgs& args, const std::string& extension, const PerFile& body);

} // namespace depreduce::cli

#endif
