//===- depreduce/formats/reference/wfjson_reader.hpp - nlohmann WfFormat -*- C++ -*-===//
///
/// \file
/// REFERENCE READER. The twin of depreduce::formats::read_wfjson() (SPEC §1:
/// an optimized reader has a library-backed reference reader): WfCommons
/// WfFormat 1.5 JSON read by nlohmann-json into a full DOM, so that what
/// nlohmann accepts, and what it makes of it (escapes, duplicate keys, UTF-8),
/// is the definition the one-pass reader is held to
/// (fuzz/fuzz_wfjson_reader_diff.cpp, tests/wfjson_reader_test.cpp). Not
/// installed, not for vendoring. `depreduce reduce --impl reference` reads
/// WfCommons files through it (reference::read_graph()).
//===----------------------------------------------------------------------===//
#ifndef DEPREDUCE_FORMATS_REFERENCE_WFJSON_READER_HPP
#define DEPREDUCE_FORMATS_REFERENCE_WFJSON_READER_HPP

#include <string>
#include <string_view>

#include "depreduce/formats/formats.hpp"

namespace depreduce::formats::reference {

/// Reads WfCommons WfFormat JSON (schema 1.5) with nlohmann-json. Same
/// contract as formats::read_wfjson() (docs/formats.md, "WfCommons"): one
/// node per `workflow.specification.tasks[]` entry, edges parent -> task
/// from `parents`, `children` checked against them; a duplicate key means
/// its last value (nlohmann's DOM). Lines: a task, and its edges, get the
/// line of the task's last `"id"` key (nlohmann reports the key while our
/// counting iterator knows how far it has read).
/// \throws InputError for JSON syntax errors ("JSON " + nlohmann's message,
///   the line of the byte nlohmann stopped at), number overflow (`1e999`),
///   and the same semantic errors, messages and lines as read_wfjson().
/// Cost: O(size of text) for the DOM (about 20-25 MB/s) + O(m log m).
InputGraph read_wfjson(std::string_view text, const std::string& file = "<json>");

} // namespace depreduce::formats::reference

#endif // DEPREDUCE_FORMATS_REFERENCE_WFJSON_READER_HPP
