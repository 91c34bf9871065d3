//===- tests/wfjson_reader_test.cpp - The one-pass WfCommons reader and its twin ===//
///
/// \file
/// formats::read_wfjson (one pass, no JSON library) against formats::
/// reference::read_wfjson (nlohmann-json): every WfCommons file of
/// corpus/real and every seed of fuzz_wfjson_reader_diff must read the same
/// with both (wfjson_reader_diff.hpp); then named cases, each checked against
/// nlohmann *and* against the value we expect, so that a regression shows
/// even where both twins would agree on something wrong.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/wfjson_reader.hpp"
#include "wfjson_reader_diff.hpp"

namespace depreduce::formats {
namespace {

std::filesystem::path source_dir() {
  const char* d = std::getenv("DEPREDUCE_SOURCE_DIR");
  return d ? d : ".";
}

/// Reads \p text with both readers, requires them to agree, returns the fast one.
ReaderOutcome both(const std::string& text) {
  ReaderOutcome fast = outcome_of([&] { return read_wfjson(text, "t.json"); });
  ReaderOutcome ref = outcome_of([&] { return reference::read_wfjson(text, "t.json"); });
  auto why = wfjson_mismatch(fast, ref);
  EXPECT_FALSE(why) << *why << "\n--- input\n"
                    << text.substr(0, 2000) << "\n--- fast\n"
                    << describe(fast) << "--- nlohmann\n"
                    << describe(ref);
  return fast;
}

InputGraph ok(const std::string& text) {
  ReaderOutcome o = both(text);
  EXPECT_TRUE(o.ok) << o.line << ": " << o.problem;
  return o.graph;
}

ReaderOutcome rejected(const std::string& text) {
  ReaderOutcome o = both(text);
  EXPECT_FALSE(o.ok);
  return o;
}

/// A WfFormat 1.5 document around \p tasks (the inside of the tasks array).
std::string doc(const std::string& tasks) {
  return "{\"name\": \"w\", \"workflow\": {\"specification\": {\"tasks\": [" + tasks + "]}}}";
}

TEST(WfJsonReaderCorpus, EveryRealWfCommonsFileReadsTheSameWithBothReaders) {
  std::size_t files = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(source_dir() / "corpus" / "real" / "wfcommons")) {
    if (entry.path().extension() != ".json") continue;
    const std::string text = read_file(entry.path().string());
    ReaderOutcome fast = outcome_of([&] { return read_wfjson(text, entry.path().string()); });
    ReaderOutcome ref = outcome_of([&] { return reference::read_wfjson(text, entry.path().string()); });
    auto why = wfjson_mismatch(fast, ref);
    EXPECT_FALSE(why) << entry.path() << ": " << *why;
    EXPECT_TRUE(fast.ok) << entry.path() << ": " << fast.problem;
    EXPECT_GT(fast.graph.nodes.size(), 10u) << entry.path();
    for (const Node& n : fast.graph.nodes) EXPECT_GT(n.line, 1u) << entry.path() << " " << n.name;
    ++files;
  }
  EXPECT_GE(files, 7u);
}

TEST(WfJsonReaderCorpus, EverySeedOfTheDiffFuzzerReadsTheSame) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() / "corpus" / "fuzz_wfjson_reader_diff")) {
    const std::string text = read_file(entry.path().string());
    ReaderOutcome fast = outcome_of([&] { return read_wfjson(text, "in.json"); });
    ReaderOutcome ref = outcome_of([&] { return reference::read_wfjson(text, "in.json"); });
    auto why = wfjson_mismatch(fast, ref);
    EXPECT_FALSE(why) << entry.path() << ": " << *why << "\n--- fast\n" << describe(fast) << "--- nlohmann\n" << describe(ref);
    // The hand-written seeds say by their name what they are (fuzz/wfjson_reader_seeds.py).
    const std::string name = entry.path().filename().string();
    if (name.rfind("ok-", 0) == 0 || name.rfind("real-", 0) == 0) {
      EXPECT_TRUE(fast.ok) << name << ": " << fast.problem;
    }
    if (name.rfind("bad-", 0) == 0) {
      EXPECT_TRUE(is_json_syntax_error(fast)) << name << ": " << describe(fast);
    }
    if (name.rfind("sem-", 0) == 0) {
      EXPECT_TRUE(!fast.ok && !is_json_syntax_error(fast)) << name << ": " << describe(fast);
    }
    ++files;
  }
  EXPECT_GE(files, 90u);
}

TEST(WfJsonReader, ReadsNodesLabelsEdgesAndLines) {
  InputGraph g = ok("{\n \"name\": \"wf\",\n \"workflow\": {\"specification\": {\"tasks\": [\n"
                    "  {\"id\": \"a\", \"name\": \"a\", \"parents\": [], \"children\": [\"b\", \"c\"]},\n"
                    "  {\"name\": \"B\",\n   \"id\": \"b\", \"parents\": [\"a\"], \"children\": [\"c\"]},\n"
                    "  {\"id\": \"c\", \"parents\": [\"b\", \"a\"], \"children\": []}\n"
                    " ]}}\n}\n");
  EXPECT_EQ(g.name, "wf");
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].name, "a");
  EXPECT_TRUE(g.nodes[0].attrs.empty());
  EXPECT_EQ(g.nodes[1].attrs, (AttrList{{"label", "B"}}));
  EXPECT_EQ(g.nodes[0].line, 4u);
  EXPECT_EQ(g.nodes[1].line, 6u); // the line of the "id" key, not of the task's '{'
  EXPECT_EQ(g.nodes[2].line, 7u);
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(std::make_pair(g.edges[0].src, g.edges[0].dst), std::make_pair(NodeId{0}, NodeId{1}));
  EXPECT_EQ(std::make_pair(g.edges[1].src, g.edges[1].dst), std::make_pair(NodeId{1}, NodeId{2}));
  EXPECT_EQ(std::make_pair(g.edges[2].src, g.edges[2].dst), std::make_pair(NodeId{0}, NodeId{2}));
  EXPECT_EQ(g.edges[2].line, 7u);
  EXPECT_EQ(g.edges[2].input_index, 2u);
}

TEST(WfJsonReader, LineIsTheIdKeysLineNotTheValuesNorAnotherIdsWithTheSameValue) {
  InputGraph g = ok("{\"workflow\": {\"specification\": {\"files\": [{\"id\": \"b\"}],\n"
                    "\"tasks\": [{\"id\": \"a\", \"parents\": []}, {\"parents\": [\"a\"],\n"
                    "\"id\"\n:\n\"b\"}]}}}");
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].line, 2u);
  EXPECT_EQ(g.nodes[1].line, 3u); // not 5 (the value), not 1 (the file with id "b")
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].line, 3u);
}

TEST(WfJsonReader, EscapesInIdsGiveTheSameNodeNames) {
  // "\u0061b" is "ab"; "\u00e9" is the raw "é"; a surrogate pair is one 4-byte character.
  InputGraph g = ok(doc("{\"id\": \"\\u0061b\\n\\\"\\\\\\/\", \"parents\": []},"
                        "{\"id\": \"\xc3\xa9\", \"name\": \"\\u00e9\", \"parents\": [\"ab\\u000a\\u0022\\u005c/\"]},"
                        "{\"id\": \"\\ud83d\\ude00\", \"parents\": [\"\\u00E9\", \"\xf0\x9f\x98\x80\"]}"));
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].name, "ab\n\"\\/");
  EXPECT_EQ(g.nodes[1].name, "\xc3\xa9");
  EXPECT_TRUE(g.nodes[1].attrs.empty()); // name == id once decoded
  EXPECT_EQ(g.nodes[2].name, "\xf0\x9f\x98\x80");
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[0].src, 0u);
  EXPECT_EQ(g.edges[1].src, 1u);
  EXPECT_EQ(g.edges[2].src, 2u); // a self-loop, kept as written
  EXPECT_EQ(g.nodes[0].line, 1u); // escaped ids have their line too (the old text search gave 0)
}

TEST(WfJsonReader, EscapedKeysAreTheirDecodedNames) {
  InputGraph g = ok("{\"workfl\\u006fw\": {\"specification\": {\"tasks\": [{\"\\u0069d\": \"x\", \"p\\u0061rents\": []}]}}}");
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].name, "x");
}

TEST(WfJsonReader, NulEscapeIsPartOfTheName) {
  InputGraph g = ok(doc("{\"id\": \"a\\u0000b\", \"parents\": []}, {\"id\": \"a\", \"parents\": [\"a\\u0000b\"]}"));
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_EQ(g.nodes[0].name, std::string("a\0b", 3));
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].src, 0u);
}

TEST(WfJsonReader, DuplicateKeysKeepTheLastValue) {
  // nlohmann's DOM keeps the last value of a key; so does the one-pass reader,
  // including the line (the last "id" key's).
  InputGraph g = ok("{\"name\": \"first\", \"name\": \"second\", \"workflow\": 1,\n"
                    "\"workflow\": {\"specification\": {\"tasks\": [{\"id\": \"gone\", \"parents\": []}]},\n"
                    "  \"specification\": {\"tasks\": 7, \"tasks\": [\n"
                    "    {\"id\": \"x\", \"parents\": [\"nobody\"], \"parents\": [],\n"
                    "     \"id\": \"y\", \"name\": 5, \"name\": \"Y\"}]}}}");
  EXPECT_EQ(g.name, "second");
  ASSERT_EQ(g.nodes.size(), 1u);
  EXPECT_EQ(g.nodes[0].name, "y");
  EXPECT_EQ(g.nodes[0].line, 5u);
  EXPECT_EQ(g.nodes[0].attrs, (AttrList{{"label", "Y"}}));
  // A later non-string "name" empties the graph name.
  EXPECT_EQ(ok("{\"name\": \"n\", \"name\": null, \"workflow\": {\"specification\": {\"tasks\": []}}}").name, "");
}

TEST(WfJsonReader, DeepNestingIsSkippedWithoutALimit) {
  std::string deep40 = std::string(40, '[') + "{\"a\": [1, {\"b\": null}]}" + std::string(40, ']');
  InputGraph g = ok(doc("{\"id\": \"a\", \"parents\": [], \"extra\": " + deep40 + "}"));
  EXPECT_EQ(g.nodes.size(), 1u);
  // 100,000 levels: both parse iteratively (nlohmann's parser and DOM destructor too).
  std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_EQ(ok(doc("{\"id\": \"a\", \"parents\": [], \"x\": " + deep + "}")).nodes.size(), 1u);
  // One bracket short: a syntax error at the end.
  EXPECT_EQ(rejected(doc("{\"id\": \"a\", \"parents\": [], \"x\": " + std::string(50, '[') + std::string(49, ']') + "}"))
                .line,
            1u);
}

TEST(WfJsonReader, SyntaxErrorsNameTheLineNlohmannStopsAt) {
  auto line = [](const std::string& text) { return rejected(text).line; };
  EXPECT_EQ(line("{\n\"a\": 1,\n}\n"), 3u);                    // trailing comma: at the '}'
  EXPECT_EQ(line("{\n\"a\": tru\n}"), 2u);                     // the newline ends the literal: its line
  EXPECT_EQ(line("{\n\"a\": \"x\ny\"}"), 2u);                  // raw newline in a string
  EXPECT_EQ(line("{\"a\":\n[1,\n2\n"), 4u);                    // end of input after a final newline
  EXPECT_EQ(line("{\"a\": \"\\ud800x\"}"), 1u);                // lone high surrogate
  EXPECT_EQ(line("\n\n{\"a\": \"\\udc00\"}"), 3u);             // lone low surrogate
  EXPECT_EQ(line("{\"a\":\n\"\\ud83d\\ued00\"}"), 2u);        // high surrogate, then above U+DFFF
  EXPECT_EQ(line("{\n\"a\": \"\xc0\xaf\"}"), 2u);              // overlong UTF-8
  EXPECT_EQ(line("{\n\"a\": \"\xed\xa0\x80\"}"), 2u);          // an encoded surrogate
  EXPECT_EQ(line("{\n\n\"a\": 01}"), 3u);                      // a leading zero
  EXPECT_EQ(line("{\"a\":\n1e999}"), 2u);                      // overflows a double (nlohmann: out_of_range)
  EXPECT_EQ(line("{\"a\":\n" + std::string(400, '9') + "}"), 2u); // so does a 400-digit integer
  EXPECT_EQ(line(""), 1u);
  EXPECT_EQ(line("\xef\xbb{}"), 1u);                            // a broken byte-order mark
  EXPECT_EQ(line(doc("{\"id\": \"a\", \"parents\": []}") + "\n{}"), 2u); // a second document
  // The message says it is JSON syntax (so a script can tell it from a schema error).
  EXPECT_EQ(rejected("{]").problem.rfind("JSON ", 0), 0u);
}

TEST(WfJsonReader, NumbersAndByteOrderMarkAsNlohmann) {
  EXPECT_EQ(ok("\xef\xbb\xbf" + doc("{\"id\": \"a\", \"parents\": [], \"r\": [-0, 1.5e-999, 2E+3, "
                                    "1.7976931348623157e308, 18446744073709551616, -1e-400]}"))
                .nodes.size(),
            1u);
}

TEST(WfJsonReader, NulByteWhereATokenStartsEndsTheInput) {
  // nlohmann reads a NUL between tokens as the end of the input: what follows is ignored.
  EXPECT_EQ(ok(doc("{\"id\": \"a\", \"parents\": []}") + std::string("\0 garbage {", 11)).nodes.size(), 1u);
  EXPECT_EQ(rejected(std::string("{\"a\": \0}", 8)).line, 1u);
  EXPECT_EQ(rejected(std::string("{\"a\": \"\0\"}", 10)).line, 1u); // raw NUL inside a string
}

// Every WfFormat error names a line (not line 0, "no line", for a task
// without an id, a non-object task or a non-string id, and not line 1 for
// every document-level error). Each case puts what is wrong on a line of
// its own, so the line is the rule's and no other: a value of the wrong kind,
// its (last) key's line; a missing key, where the object lacking it starts;
// a task that is not an object, where it starts; any other error of a task,
// the task's line (its "id" key's). Both readers must agree (rejected()).
TEST(WfJsonReader, EveryWfFormatErrorNamesTheLineOfWhatIsWrong) {
  auto error = [](const std::string& text) {
    ReaderOutcome o = rejected(text);
    EXPECT_FALSE(is_json_syntax_error(o)) << o.problem;
    return std::to_string(o.line) + ": " + o.problem.substr(0, o.problem.find(" (a WfCommons")); // one message is long
  };
  // The case: the second task has no "id"; its '{' is on line 4.
  EXPECT_EQ(error("{\"name\": \"w\",\n \"workflow\": {\"specification\": {\"tasks\": [\n"
                  "  {\"id\": \"a\", \"parents\": []},\n"
                  "  {\"name\": \"b\",\n   \"parents\": [\"a\"]}\n ]}}}\n"),
            "4: missing key 'workflow.specification.tasks[1].id'");
  EXPECT_EQ(error("\n\n[1]"), "3: expected a JSON object (WfFormat) at the top level");
  EXPECT_EQ(error("\n{\"name\": \"x\"\n}"), "2: missing key 'workflow'");
  EXPECT_EQ(error("{\"name\": \"x\",\n\n \"workflow\": []}"), "3: 'workflow' must be an object");
  EXPECT_EQ(error("{\"workflow\": {\"specification\": {\"tasks\": []}},\n\"workflow\": 1}"),
            "2: 'workflow' must be an object"); // the last of a duplicate key
  EXPECT_EQ(error("{\"workflow\": {\n\"name\": 1,\n\"tasks\": []}}"),
            "3: WfFormat schema 1.4 (workflow.tasks) is not supported; expected schema 1.5 "
            "(workflow.specification.tasks)");
  EXPECT_EQ(error("{\"name\": \"x\",\n\"workflow\":\n {\"name\": 1\n}}"), "3: missing key 'workflow.specification'");
  EXPECT_EQ(error("{\"workflow\": {\n\n\"specification\": null}}"), "3: 'workflow.specification' must be an object");
  EXPECT_EQ(error("{\"workflow\": {\"specification\":\n\n {\"x\": 1\n}}}"),
            "3: missing key 'workflow.specification.tasks'");
  EXPECT_EQ(error("{\"workflow\": {\"specification\": {\n\"x\": 1,\n\"tasks\": {}}}}"),
            "3: 'workflow.specification.tasks' must be an array");
  const std::string open = "{\"workflow\": {\"specification\": {\"tasks\": [\n"; // line 1; tasks from line 2
  EXPECT_EQ(error(open + "{\"id\": \"a\", \"parents\": []},\n\n 7]}}}"), "4: workflow.specification.tasks[1] must be an object");
  EXPECT_EQ(error(open + "{\"id\": \"a\", \"parents\": []},\n\n \"b\"\n]}}}"),
            "4: workflow.specification.tasks[1] must be an object");
  EXPECT_EQ(error(open + "{\"id\": \"a\", \"parents\": []},\n\n 12\n]}}}"), "4: workflow.specification.tasks[1] must be an object");
  EXPECT_EQ(error(open + "\n{\n\"id\":\n 3, \"parents\": []}]}}}"), "4: workflow.specification.tasks[0].id must be a string");
  // Every other error of a task is on its line (the "id" key's), not the line
  // of the member that is wrong (line 4 in each).
  const std::string task = open + "\n{\"id\": \"a\",\n"; // the task's line is 3
  EXPECT_EQ(error(task + "\"name\": [], \"parents\": []}]}}}"), "3: task 'a': 'name' must be a string");
  EXPECT_EQ(error(task + "\"x\": 1}]}}}"), "3: task 'a': missing key 'parents'");
  EXPECT_EQ(error(task + "\"parents\": {}}]}}}"), "3: task 'a': 'parents' must be an array");
  EXPECT_EQ(error(task + "\"parents\": [null]}]}}}"), "3: task 'a': 'parents' must list task ids (strings)");
  EXPECT_EQ(error(task + "\"parents\": [\"z\"]}]}}}"), "3: task 'a': parent 'z' is not a task id");
  EXPECT_EQ(error(task + "\"parents\": [], \"children\": 1}]}}}"), "3: task 'a': 'children' must be an array");
  EXPECT_EQ(error(task + "\"parents\": [], \"children\": [\"z\"]}]}}}"), "3: task 'a': child 'z' is not a task id");
  EXPECT_EQ(error(task + "\"parents\": []},\n{\"id\": \"a\", \"parents\": []}]}}}"), "5: duplicate task id 'a'");
}

TEST(WfJsonReader, WfFormatErrorsHaveTheMessagesAndLinesOfTheOldReader) {
  auto error = [](const std::string& text) {
    ReaderOutcome o = rejected(text);
    return std::to_string(o.line) + ": " + o.problem;
  };
  EXPECT_EQ(error("[]"), "1: expected a JSON object (WfFormat) at the top level");
  EXPECT_EQ(error("{\"name\": \"x\"}").substr(0, 24), "1: missing key 'workflow");
  EXPECT_EQ(error("{\"workflow\": []}"), "1: 'workflow' must be an object");
  EXPECT_EQ(error("{\"workflow\": {\"tasks\": []}}").substr(0, 30), "1: WfFormat schema 1.4 (workfl");
  EXPECT_EQ(error("{\"workflow\": {}}"), "1: missing key 'workflow.specification'");
  EXPECT_EQ(error("{\"workflow\": {\"specification\": null}}"), "1: 'workflow.specification' must be an object");
  EXPECT_EQ(error("{\"workflow\": {\"specification\": {}}}"), "1: missing key 'workflow.specification.tasks'");
  EXPECT_EQ(error("{\"workflow\": {\"specification\": {\"tasks\": {}}}}"),
            "1: 'workflow.specification.tasks' must be an array");
  EXPECT_EQ(error(doc("1")), "1: workflow.specification.tasks[0] must be an object");
  EXPECT_EQ(error(doc("{\"parents\": []}")), "1: missing key 'workflow.specification.tasks[0].id'");
  EXPECT_EQ(error(doc("{\"id\": 3}")), "1: workflow.specification.tasks[0].id must be a string");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"name\": [], \"parents\": []}")), "1: task 'a': 'name' must be a string");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": []},\n{\"id\": \"a\", \"parents\": []}")),
            "2: duplicate task id 'a'");
  EXPECT_EQ(error(doc("{\"id\": \"a\"}")), "1: task 'a': missing key 'parents'");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": \"b\"}")), "1: task 'a': 'parents' must be an array");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": [1]}")), "1: task 'a': 'parents' must list task ids (strings)");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": [\"z\"]}")), "1: task 'a': parent 'z' is not a task id");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": [], \"children\": [\"z\"]}")), "1: task 'a': child 'z' is not a task id");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": [], \"children\": {}}")), "1: task 'a': 'children' must be an array");
  // children disagreeing with parents, both ways, naming the task's line.
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": [], \"children\": []},\n{\"id\": \"b\", \"parents\": [\"a\"]}")),
            "2: task 'b' lists parent 'a', but 'a' does not list it among its children");
  EXPECT_EQ(error(doc("{\"id\": \"a\", \"parents\": [], \"children\": [\"b\"]},\n{\"id\": \"b\", \"parents\": []}")),
            "1: task 'a' lists child 'b', but 'b' does not list it among its parents");
  // A parent without children lists is fine (children are optional).
  EXPECT_EQ(ok(doc("{\"id\": \"a\", \"parents\": []},{\"id\": \"b\", \"parents\": [\"a\"], \"children\": []}")).edges.size(), 1u);
  // A syntax error anywhere wins over a schema error earlier in the text.
  EXPECT_EQ(rejected(doc("{\"id\": 3}") + "\n,").problem.rfind("JSON ", 0), 0u);
}

} // namespace
} // namespace depreduce::formats
