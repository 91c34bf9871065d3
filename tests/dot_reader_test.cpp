//===- tests/dot_reader_test.cpp - The fast DOT reader and its twin ------===//
///
/// \file
/// formats::read_dot (one pass, no Graphviz) against formats::reference::
/// read_dot (cgraph): every DOT file of corpus/real must read to the same
/// InputGraph with both; then named cases, each checked against cgraph *and*
/// against the value we expect, so a regression shows even where both twins
/// would agree on something wrong.
//===----------------------------------------------------------------------===//
#include <gtest/gtest.h>

#include <filesystem>
#include <cstdint>
#include <string>
#include <vector>

#include "depreduce/formats/formats.hpp"
#include "depreduce/formats/reference/dot_reader.hpp"
#include "dot_reader_diff.hpp"

namespace depreduce::formats {
namespace {

std::filesystem::path source_dir() {
  const char* d = std::getenv("DEPREDUCE_SOURCE_DIR");
  return d ? d : ".";
}

/// Reads \p text (named \p file) with both readers, the fast one as called
/// and scanning ahead from the first statement; requires each fast read to
/// agree with cgraph; returns the fast one as called.
ReaderOutcome both(const std::string& text, const std::string& file = "t.dot") {
  const ReaderOutcome ref = outcome_of([&] { return reference::read_dot(text, file); });
  const std::string input = text.size() < 4096 ? "\n--- input\n" + text : std::string();
  auto agrees = [&](const char* path, const ReaderOutcome& fast) {
    auto why = mismatch(fast, ref);
    EXPECT_FALSE(why) << file << path << ": " << *why << input << "\n--- fast\n" << describe(fast) << "--- cgraph\n"
                      << describe(ref);
  };
  ReaderOutcome fast = outcome_of([&] { return read_dot(text, file); });
  agrees("", fast);
  agrees(" (as large: scanning ahead from the first statement, strings copied out of an odd-length text)", outcome_of([&] { return read_dot_as_large(text, file); }));
  return fast;
}

InputGraph ok(const std::string& text) {
  ReaderOutcome o = both(text);
  EXPECT_TRUE(o.ok) << o.problem;
  return o.graph;
}

std::uint32_t error_line(const std::string& text) {
  ReaderOutcome o = both(text);
  EXPECT_FALSE(o.ok);
  return o.line;
}

TEST(DotReaderCorpus, EveryRealDotFileReadsTheSameWithBothReaders) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(source_dir() / "corpus" / "real")) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".dot" && ext != ".gv") continue;
    const ReaderOutcome fast = both(read_file(entry.path().string()), entry.path().string());
    EXPECT_TRUE(fast.ok) << entry.path() << ": " << fast.problem;
    ++files;
  }
  EXPECT_GE(files, 15u);
}

TEST(DotReaderCorpus, EverySeedOfTheDiffFuzzerReadsTheSame) {
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(source_dir() / "corpus" / "fuzz_dot_reader_diff")) {
    const std::string text = read_file(entry.path().string());
    if (text.size() > (1u << 20)) continue;
    SCOPED_TRACE(entry.path().string());
    both(text, "in.dot");
    ++files;
  }
  EXPECT_GE(files, 400u);
}

TEST(DotReader, LinesCountBackslashNewlineAndNewlinesInStrings) {
  InputGraph g = ok("digraph {\n \"a\\\nb\" -> \"c\nd\"\n e\n}\n");
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].name, "ab");
  EXPECT_EQ(g.nodes[0].line, 3u);
  EXPECT_EQ(g.nodes[1].line, 4u);
  EXPECT_EQ(g.edges[0].line, 4u);
  EXPECT_EQ(g.nodes[2].line, 5u);
}

TEST(DotReader, EdgeLineIsWhereItsStatementEnds) {
  InputGraph g = ok("digraph {\n a -> b [\n label=x\n ]\n c -> d\n}");
  EXPECT_EQ(g.edges[0].line, 4u);
  EXPECT_EQ(g.edges[1].line, 5u);
}

TEST(DotReader, DefaultsAreScopedToTheirSubgraph) {
  InputGraph g = ok("digraph { a; subgraph s { node [color=red]; b; subgraph t { c } } d; node [color=blue]; e }");
  ASSERT_EQ(g.nodes.size(), 5u);
  EXPECT_EQ(g.node_defaults, (AttrList{{"color", "blue"}}));
  EXPECT_EQ(g.nodes[0].attrs, (AttrList{{"color", ""}})); // created before the top-level default
  EXPECT_EQ(g.nodes[1].attrs, (AttrList{{"color", "red"}}));
  EXPECT_EQ(g.nodes[2].attrs, (AttrList{{"color", "red"}})); // a child subgraph sees it too
  EXPECT_EQ(g.nodes[3].attrs, (AttrList{{"color", ""}}));    // outside the subgraph again
  EXPECT_TRUE(g.nodes[4].attrs.empty());
}

TEST(DotReader, SubgraphEndpointsGoInCreationOrder) {
  InputGraph g = ok("digraph { b; a; {b a} -> c }");
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.edges[0].src, 0u); // b was created first
  EXPECT_EQ(g.edges[1].src, 1u);
}

TEST(DotReader, PortsBecomeTailportAndHeadport) {
  InputGraph g = ok("digraph { a:p:c -> b:q [x=1] }");
  EXPECT_EQ(g.edges[0].attrs, (AttrList{{"x", "1"}, {"tailport", "p:c"}, {"headport", "q"}}));
}

TEST(DotReader, StrictMergesAndDropsKeyedSecondEdges) {
  InputGraph g = ok("strict digraph { a -> b [key=k1]; a -> b [key=k2, x=1]; a -> b [y=2] }");
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].attrs, (AttrList{{"y", "2"}, {"key", "k1"}}));
}

TEST(DotReader, HtmlIsDecidedByFirstAppearance) {
  InputGraph g = ok("digraph G { a [label=<x>]; b [label=\"x\"]; c [label=<G>] }");
  EXPECT_EQ(g.nodes[1].attrs, (AttrList{{"label", "<x>"}}));
  EXPECT_EQ(g.nodes[2].attrs, (AttrList{{"label", "G"}})); // the graph's name is plain text
}

TEST(DotReader, LongPlainValueBeforeAnHtmlStringOfTheSameText) {
  // A long value of a simple statement is appended, not interned; an HTML
  // string with its text afterwards must still read as plain text (cgraph:
  // the first appearance decides), so the reader starts again interning
  // every value.
  InputGraph g = ok("digraph { a [label=\"abcdefghijklmnopqr\"]; b [label=<abcdefghijklmnopqr>]; c [label=<z>] }");
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[0].attrs, (AttrList{{"label", "abcdefghijklmnopqr"}}));
  EXPECT_EQ(g.nodes[1].attrs, (AttrList{{"label", "abcdefghijklmnopqr"}}));
  EXPECT_EQ(g.nodes[2].attrs, (AttrList{{"label", "<z>"}}));
}

TEST(DotReader, ValuesOfSixteenBytesAreInternedOnce) {
  // The longest value a simple statement interns (16 bytes; longer ones are
  // appended): one pool entry for the text whichever path reads it, so the
  // HTML string after it reads as the plain text it first was (cgraph).
  // Scanning ahead hashes such values for the interner: a hash left out
  // would give the text a second entry, and node b an HTML label.
  InputGraph g = ok("digraph {\n a [label=\"abcdefghijklmnop\"];\n x -> y;\n b [label=<abcdefghijklmnop>];\n}");
  ASSERT_EQ(g.nodes.size(), 4u);
  EXPECT_EQ(g.nodes[0].attrs, (AttrList{{"label", "abcdefghijklmnop"}}));
  EXPECT_EQ(g.nodes[3].attrs, (AttrList{{"label", "abcdefghijklmnop"}}));
}

TEST(DotReader, LongHtmlValueBeforeAPlainStringOfTheSameText) {
  // The other order (found by a fresh user's trial): the HTML string comes
  // first, so the later quoted value with its text is HTML too (cgraph),
  // and must not be appended as plain text.
  InputGraph g = ok("digraph g { a -> b [label=<<b>an important bold note</b>>]; "
                    "c [label=\"<b>an important bold note</b>\"] }");
  ASSERT_EQ(g.nodes.size(), 3u);
  EXPECT_EQ(g.nodes[2].attrs, (AttrList{{"label", "<<b>an important bold note</b>>"}}));
}

TEST(DotReader, LongValueEqualToTheDefaultIsTheDefault) {
  // Appended values are compared by text, not by id, with the defaults.
  InputGraph g = ok("digraph { node [label=\"abcdefghijklmnopqr\"]; a [label=\"abcdefghijklmnopqr\"]; "
                    "b [label=\"abcdefghijklmnopqrs\"] }");
  ASSERT_EQ(g.nodes.size(), 2u);
  EXPECT_TRUE(g.nodes[0].attrs.empty());
  EXPECT_EQ(g.nodes[1].attrs, (AttrList{{"label", "abcdefghijklmnopqrs"}}));
  EXPECT_EQ(g.node_defaults, (AttrList{{"label", "abcdefghijklmnopqr"}}));
}

TEST(DotReader, QuotedStringRules) {
  InputGraph g = ok("digraph { a [l1=\"x\\\"y\\\\z\\q\", l2=\"\n\", l3=\"p\" + <q> + \"r\"] }");
  EXPECT_EQ(g.nodes[0].attrs, (AttrList{{"l1", "x\"y\\\\z\\q"}, {"l3", "pqr"}}));
}

TEST(DotReader, NumbersSplitLikeCgraph) {
  InputGraph g = ok("digraph { 1a -> 1.2.3 }");
  ASSERT_EQ(g.nodes.size(), 4u); // 1, a, 1.2, .3
  EXPECT_EQ(g.nodes[0].name, "1");
  EXPECT_EQ(g.nodes[1].name, "a");
  EXPECT_EQ(g.nodes[2].name, "1.2");
  EXPECT_EQ(g.nodes[3].name, ".3");
}

TEST(DotReader, KeywordsInAnyCase) {
  InputGraph g = ok("DiGraph G { A -> B; NODE [x=1]; SUBGRAPH s { c } }");
  EXPECT_EQ(g.name, "G");
  EXPECT_EQ(g.subgraphs.size(), 1u);
}

TEST(DotReader, ErrorsNameTheLineCgraphStopsAt) {
  EXPECT_EQ(error_line("digraph {\n a ->\n ;\n}"), 3u);
  EXPECT_EQ(error_line("digraph {\n a -> b [label=\"never\n closed }"), 2u); // the opening quote
  EXPECT_EQ(error_line("digraph {\n a -> b\n /* never\n closed }"), 3u);
  EXPECT_EQ(error_line("digraph {\n a -> \n\n"), 2u);   // the last token
  EXPECT_EQ(error_line("\nstrict\n;"), 3u);             // after a leading strict
  EXPECT_EQ(error_line("digraph {}\n\n digraph {}"), 3u); // a second graph
  EXPECT_EQ(error_line("digraph { a }\n x"), 2u);
  EXPECT_EQ(error_line("graph {\n a -> b }"), 2u);       // '->' is not an edge operator here
  EXPECT_EQ(error_line("graph { a -- b }"), 1u);         // undirected
}

TEST(DotReader, AnUnterminatedStringOrCommentSaysSoOnTheLineItOpens) {
  // Both readers name what never closed and where it opened; cgraph's own
  // text follows in parentheses. A file cut short elsewhere says so.
  const struct {
    const char* text;
    std::uint32_t line;
    const char* starts;
  } cases[] = {
      {"digraph {\n a -> b [label=\"never\n closed }\n", 2, "unterminated quoted string: it opens on this line"},
      {"digraph {\n a -> b\n /* never\n closed }", 3, "unterminated /* comment: it opens on this line"},
      {"digraph {\n a [label=<never\n closed }", 2, "unterminated HTML string: it opens on this line"},
      {"digraph {\n a -> \n\n", 2, "unexpected end of file (syntax error"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const ReaderOutcome fast = both(c.text);
    const ReaderOutcome ref = outcome_of([&] { return reference::read_dot(c.text, "t.dot"); });
    ASSERT_FALSE(fast.ok);
    EXPECT_EQ(fast.line, c.line);
    EXPECT_EQ(fast.problem.rfind(c.starts, 0), 0u) << fast.problem;
    EXPECT_EQ(ref.problem.rfind(c.starts, 0), 0u) << ref.problem;
    EXPECT_EQ(fast.problem, ref.problem);
  }
}

TEST(DotReader, AByteOrderMarkGluedToTheFirstWordIsNamed) {
  // A file saved as "UTF-8 with BOM": cgraph reads the mark as part of
  // `digraph` and rejects the file; both readers say why.
  const std::string text = "\xEF\xBB\xBF" "digraph { a -> b }\n";
  const ReaderOutcome fast = both(text);
  const ReaderOutcome ref = outcome_of([&] { return reference::read_dot(text, "t.dot"); });
  ASSERT_FALSE(fast.ok);
  EXPECT_EQ(fast.line, 1u);
  EXPECT_NE(fast.problem.find("UTF-8 byte-order mark"), std::string::npos) << fast.problem;
  EXPECT_EQ(fast.problem, ref.problem);
  // Standing alone it is blank, as cgraph has it.
  EXPECT_TRUE(both("\xEF\xBB\xBF digraph { a -> b }\n").ok);
}

TEST(DotReader, WhatFollowsTheGraph) {
  ok("digraph { a } @ anything");
  ok("digraph { a } \"never closed");
  ok("digraph { a } // comment");
  EXPECT_EQ(error_line("digraph { a } \"closed\""), 1u);
}

TEST(DotReader, ParserStackLimitIsCgraphs) {
  // bison's YYMAXDEPTH (10000 states): 3331 nested blocks fit, 3332 do not;
  // an edge chain of 2499 nodes fits, 2500 do not.
  auto nest = [](int k) { return "digraph {" + std::string(k, '{') + std::string(k, '}') + "}"; };
  auto chain = [](int k) {
    std::string s = "digraph { a";
    for (int i = 1; i < k; ++i) s += " -> a";
    return s + " }";
  };
  EXPECT_TRUE(both(nest(3331)).ok);
  EXPECT_FALSE(both(nest(3332)).ok);
  EXPECT_TRUE(both(chain(2499)).ok);
  EXPECT_FALSE(both(chain(2500)).ok);
  EXPECT_FALSE(both(nest(100000)).ok); // no stack overflow in the fast reader
  // The exact boundary: 9,999 states fit, the 10,000th exhausts the stack.
  const std::string inner = std::string(3331, '{') + " a " + std::string(3331, '}');
  EXPECT_TRUE(both("digraph { " + inner + " }").ok);
  EXPECT_FALSE(both("digraph { x " + inner + " }").ok);
}

TEST(DotReader, ModelAttributeErrorsNameTheStatement) {
  EXPECT_EQ(error_line("digraph {\n a [engine=\n\"x\"]\n}"), 3u);
  EXPECT_EQ(error_line("digraph {\n a -> b\n [kind=bogus] }"), 3u);
  EXPECT_EQ(error_line("digraph {\n graph [engines=99]\n a }"), 2u);
}

/// The fast reader reads the usual `space:[lo,hi)` lists itself and leaves
/// every other spelling to parse_byte_ranges() (the twin's only parser):
/// each case must read, or fail, as cgraph + parse_byte_ranges() do, and
/// the expected ranges are stated too.
TEST(DotReader, ByteRangesInEverySpellingReadAsTheGeneralParserReadsThem) {
  auto reads = [](const std::string& v) {
    const InputGraph g = ok("digraph {\n a [reads=\"" + v + "\"]\n}");
    return g.nodes.size() == 1 ? g.nodes[0].reads : std::vector<ByteRange>{{"(no node)", 0, 0}};
  };
  using R = std::vector<ByteRange>;
  EXPECT_EQ(reads("sbuf:[0,2048)"), (R{{"sbuf", 0, 2048}}));
  EXPECT_EQ(reads("sbuf:[0,2048),psum:[5,5)"), (R{{"sbuf", 0, 2048}, {"psum", 5, 5}}));
  EXPECT_EQ(reads("a.b-c_d:[1,2)"), (R{{"a.b-c_d", 1, 2}}));
  EXPECT_EQ(reads("a_very_long_space_name:[1,2)"), (R{{"a_very_long_space_name", 1, 2}}));
  // Spellings only the general parser reads: white space, hexadecimal, 20 digits.
  EXPECT_EQ(reads(" sbuf : [ 1 , 2 ) , psum:[3,4) "), (R{{"sbuf", 1, 2}, {"psum", 3, 4}}));
  EXPECT_EQ(reads("sbuf:[0x10,0X20)"), (R{{"sbuf", 16, 32}}));
  EXPECT_EQ(reads("sbuf:[9999999999999999999,18446744073709551615)"),
            (R{{"sbuf", 9999999999999999999ull, 18446744073709551615ull}}));
  EXPECT_EQ(reads("sbuf:[00000000000000000001,2)"), (R{{"sbuf", 1, 2}}));
  EXPECT_EQ(reads(""), R{});
  // Errors: each names the node's statement line, as the general parser does.
  for (const char* bad : {"sbuf:[2,1)", "sbuf:[0,18446744073709551616)", "1sbuf:[0,1)", ":[0,1)", "sbuf:[0,1),",
                          "sbuf:[0,1)x", "sbuf:[0,1]", "sbuf[0,1)", "sbuf:[,1)", "sbuf:[0,1),,psum:[0,1)"})
    EXPECT_EQ(error_line(std::string("digraph {\n\n a [writes=\"") + bad + "\"]\n}"), 3u) << bad;
}

/// The fast reader parses each kind value once (a value id stands for one
/// text, cached in 64 slots); every edge still gets its own value's kinds,
/// also among 200 distinct texts that must share slots.
TEST(DotReader, EdgeKindsFollowEachEdgesValue) {
  std::string text = "digraph {\n";
  const std::string kinds[] = {"flow", "anti", "output|flow", "ordered", "raw,waw"};
  auto value = [&](int i) { // kinds[i % 5] spelled i / 5 + 1 times: the same kinds, a new text
    std::string v = kinds[i % 5];
    for (int k = 0; k < i / 5 % 8; ++k) v += "|" + kinds[i % 5];
    return v;
  };
  for (int i = 0; i < 400; ++i)
    text += " n" + std::to_string(i) + " -> n" + std::to_string(i + 1) + " [kind=\"" + value(i) + "\"]\n";
  text += "}";
  const InputGraph g = ok(text);
  ASSERT_EQ(g.edges.size(), 400u);
  for (int i = 0; i < 400; ++i) {
    const std::optional<KindSet> want = parse_kinds(kinds[i % 5]);
    ASSERT_TRUE(want);
    EXPECT_EQ(g.edges[i].kinds, *want) << "edge " << i;
  }
}

/// cgraph's scanner skips a UTF-8 byte-order mark standing alone (glued
/// to letters it is part of an ID), also between the tokens of a statement
/// the fast reader would read in one pass. Found by fuzz_dot_reader_diff.
TEST(DotReader, ByteOrderMarkBetweenTokensIsBlank) {
  const std::string bom = "\xEF\xBB\xBF";
  const InputGraph g = ok("digraph {\n a -> b " + bom + "[kind=flow];\n c " + bom + "-> d; e -> f" + bom +
                          ";\n g [x=1]" + bom + "[y=2]\n h [x=1 " + bom + "]\n}");
  ASSERT_EQ(g.edges.size(), 3u);
  EXPECT_EQ(g.edges[0].kinds, KindSet(Kind::Flow));
  EXPECT_EQ(g.nodes[1].name, "b");
  EXPECT_EQ(g.nodes[2].name, "c");
  EXPECT_EQ(g.nodes[5].name, "f" + bom); // glued: one ID
  EXPECT_EQ(g.nodes[6].attrs.size(), 2u);
  // A fresh user's cases: a mark with blanks around it, before '->', '[' and ';'.
  EXPECT_EQ(ok("digraph {\n a -> b " + bom + " -> c;\n a -> c }\n").edges.size(), 3u);
  EXPECT_EQ(ok("digraph { a " + bom + " [label=x] }").nodes.at(0).attrs.size(), 1u);
  EXPECT_EQ(ok("digraph { a " + bom + "; b }").nodes.size(), 2u);
  EXPECT_EQ(ok("digraph { a -> b " + bom + " [color=red] }").edges.at(0).attrs.size(), 1u);
}

/// A byte-order mark between two statements gives its line to what the
/// parser does after reading ahead: the node or edge the statement before
/// creates (measured on cgraph 2.42; found by fuzz_dot_reader_diff).
TEST(DotReader, AByteOrderMarkBetweenStatementsGivesItsLineToTheStatementBefore) {
  const std::string bom = "\xEF\xBB\xBF";
  InputGraph g = ok("digraph {\n a -> b\n " + bom + " c -> d\n}");
  ASSERT_EQ(g.edges.size(), 2u);
  EXPECT_EQ(g.nodes[1].line, 3u); // b, created once the parser has read ahead
  EXPECT_EQ(g.edges[0].line, 3u);
  g = ok("digraph {\n a -> b [x=1]\n " + bom + "\n c -> d\n}");
  EXPECT_EQ(g.nodes[1].line, 2u); // created before its attribute list
  EXPECT_EQ(g.edges[0].line, 3u);
  EXPECT_EQ(g.edges[1].line, 4u);
  g = ok("digraph {\n a -> b\n c -> d\n}"); // without one: the statement's own line
  EXPECT_EQ(g.edges[0].line, 2u);
}

/// With no graph open (before the first graph, after it), cgraph names the
/// line of the parse's first standalone byte-order mark, not the token's
/// (measured on cgraph 2.42; found by fuzz_dot_reader_diff).
TEST(DotReader, ErrorsWithNoGraphOpenNameTheLineOfTheFirstByteOrderMark) {
  const std::string bom = "\xEF\xBB\xBF";
  EXPECT_EQ(error_line(bom + "#\n\n}"), 1u);
  EXPECT_EQ(error_line("\n" + bom + "\n" + bom + "\n\n}"), 2u);
  EXPECT_EQ(error_line("\n" + bom + "\n\n strict }"), 2u);
  EXPECT_EQ(error_line("strict\n" + bom + "\n\n"), 2u);
  EXPECT_EQ(error_line("digraph {}" + bom + "\n\n}"), 1u);
  EXPECT_EQ(error_line("digraph {}\n" + bom + "\ndigraph {}"), 2u);
  // ... but not a mark after the second graph's first token or inside it.
  EXPECT_EQ(error_line("digraph {}\ndigraph\n " + bom + " {}"), 2u);
  EXPECT_EQ(error_line("digraph {}\ndigraph {\n a\n " + bom + " b }"), 2u);
  // The end of the input comes after it: its line, graph open or not
  // (found by ci/fuzz, corpus regress-bom-before-the-end-of-input.dot).
  EXPECT_EQ(error_line("digraph { a {}\n" + bom), 2u);
  EXPECT_EQ(error_line("digraph { a -> \n " + bom + "\n\n"), 2u);
  EXPECT_EQ(error_line("strict \n\n" + bom), 3u);
  // Without one, the token's line; inside a graph, the token's line too.
  EXPECT_EQ(error_line("#\n\n}"), 3u);
  EXPECT_EQ(error_line("digraph {\n a " + bom + "\n\n = }"), 4u);
}

/// An edge found again by its key (or its pair, strict) takes a later
/// statement's attributes, but an error in them names the line the edge was
/// created on: cgraph reports no attribute update for it (found by
/// fuzz_dot_reader_diff).
TEST(DotReader, AttributeErrorOnAnEdgeFoundAgainNamesItsCreationLine) {
  EXPECT_EQ(error_line("digraph {\n a -> b [key=k]\n a -> b [key=k, kind=anti]\n\n a -> b [key=k, kind=bogus]\n}"),
            2u);
  EXPECT_EQ(error_line("strict digraph {\n a -> b [kind=anti]\n a -> b [flags=bogus]\n}"), 2u);
  EXPECT_EQ(error_line("digraph {\n a -> b [key=k]\n a -> b [key=j, kind=bogus]\n}"), 3u); // a new edge
  const InputGraph g = ok("digraph {\n a -> b [key=k]\n a -> b [key=k, kind=anti]\n}");
  ASSERT_EQ(g.edges.size(), 1u);
  EXPECT_EQ(g.edges[0].kinds, KindSet(Kind::Anti)); // the value is still taken
}

/// A graph with a bad node attribute and a bad edge attribute fails with
/// the node's error, which the conversion meets first (nodes, then edges),
/// whichever line is earlier; both() holds both paths and cgraph to the line.
TEST(DotReader, ANodeErrorWinsOverAnEarlierEdgeError) {
  const std::string t = "digraph {\n a -> b [kind=bogus]\n c [engine=x]\n}";
  EXPECT_EQ(error_line(t), 3u);
  const ReaderOutcome one = outcome_of([&] { return read_dot(t, "t.dot"); });
  const ReaderOutcome ahead = outcome_of([&] { return read_dot_as_large(t, "t.dot"); });
  EXPECT_EQ(ahead.problem, one.problem);
  EXPECT_NE(one.problem.find("engine"), std::string::npos) << one.problem;
  // Only the edge is bad: its error.
  EXPECT_EQ(error_line("digraph {\n a -> b [kind=bogus]\n c [engine=1]\n}"), 2u);
}

TEST(DotReader, NulByteIsRejected) {
  std::string t = "digraph {\n a\n}";
  t[8] = '\0';
  EXPECT_EQ(error_line(t), 1u);
}

/// The text is searched for NUL bytes as it is parsed (every 4 MiB, and the
/// rest at the end: formats/src/dot/parser.cpp, report()): the parser reads
/// the NUL as any other byte, and whatever it makes of it (an error earlier
/// or later in the text, a graph, or an early stop once the NUL is known)
/// the NUL is the error, on its line, as cgraph says.
TEST(DotReader, ANulIsTheErrorWhateverTheParserMakesOfTheText) {
  const std::string nul(1, '\0');
  EXPECT_EQ(error_line("digraph {\n a -> ;\n b" + nul + "\n}"), 3u);     // a syntax error before it
  EXPECT_EQ(error_line("digraph {\n a [engine=x]\n \"b" + nul + "\"\n}"), 3u); // a bad value before it
  EXPECT_EQ(error_line("digraph {\n a -> b\n}\n\n" + nul), 5u);             // after the graph
  EXPECT_EQ(error_line("digraph {\n a -> b [label=<x" + nul + ">]\n}"), 2u); // in an HTML string
  EXPECT_EQ(error_line("digraph {\n /* " + nul + " */ a\n}"), 2u);          // in a comment
  EXPECT_EQ(error_line("digraph {\n \"a\\" + nul), 2u);                     // after a backslash, at the end
  // Past the parser's first progress reports (every 4 MiB).
  std::string big = "digraph {\n";
  for (int i = 0; i < 300000; ++i) big += " \"n" + std::to_string(i) + "\" -> \"n" + std::to_string(i + 1) + "\";\n";
  const std::uint32_t last = 300000 + 2;
  const ReaderOutcome clean = outcome_of([&] { return read_dot_as_large(big + "}\n", "t.dot"); });
  ASSERT_TRUE(clean.ok) << clean.problem;
  const ReaderOutcome late = outcome_of([&] { return read_dot_as_large(big + "}\n" + nul, "t.dot"); });
  EXPECT_EQ(late.line, last + 1); // after the "}\n"
  EXPECT_EQ(late.problem, "NUL byte in DOT text");
  const ReaderOutcome broken = outcome_of([&] { return read_dot_as_large(big + nul + " -> ;\n}", "t.dot"); });
  EXPECT_EQ(broken.line, last);
  EXPECT_EQ(broken.problem, "NUL byte in DOT text");
}

/// Texts that take the simple path and leave it (long values, keys, an HTML
/// string after appended values, which restarts the read), read with and
/// without scanning ahead, and copying the strings it keeps out of the text
/// (as a read that gives a mapped file's pages back does): each read as
/// cgraph reads it.
TEST(DotReader, EveryPathReadsTheseAsCgraph) {
  struct Case {
    const char* what;
    std::string text;
  };
  const std::vector<Case> cases = {
      {"chains over several lines, names old and new, no ';' at times",
       "digraph g {\n  a -> b;\n  b -> c -> d\n  e\n  \"x y\" ->\n   a -> \"f\";\n  c -> g; g -> h\n\n  h -> a -> e;\n  "
       "q\n}\n"},
      {"defaults before, a subgraph and attributes after",
       "digraph {\r\n node [shape=box]; edge [color=red]\r\n a -> b\r\n b -> c; c -> d\r\n d -> e\r\n subgraph s { e -> "
       "f }\r\n f -> g [label=x]\r\n g -> a\r\n}"},
      {"a name first used as a value, a comment and a quoted name with a keyword's text",
       "digraph {\n graph [label=m]\n a -> b\n // c -> d\n b -> m;\n m -> \"node\";\n /* x */ n -> a;\n \"node\" -> n;\n "
       "n -> m\n}"},
      {"an error after the split",
       "digraph {\n a -> b\n b -> c\n c -> d\n d -> e\n e -> -> f\n}"},
      {"an unterminated graph", "digraph {\n a -> b\n b -> c\n c -> d\n d -> a\n"},
      {"one source opens several statements in a row",
       "digraph {\n x -> y\n a -> b\n a -> c\n a -> d [w=1]\n a -> e\n b -> a\n b -> x\n}"},
      {"node and edge attributes: long values, a node's key, repeated names, lists over lines, empty lists",
       "digraph {\n a [engine=1, reads=\"sbuf:[0,2048),sbuf:[2048,4096)\"]\n b [engine=2, key=a_value_longer_than_16_bytes]\n"
       " a -> b [kind=flow, label=\"a label longer than sixteen\"]\n c [w=1, w=2]\n b -> c -> d [kind=ordered]\n d\n [x=1]\n"
       " e -> f [\n  color=red]\n f -> a []\n g [shape=box] ;\n x [label=b]\n b [engine=3]\n a -> g\n []\n e -> a [q=2]\n c -> e [p=1, q=2]\n}\n"},
      {"defaults before, attribute names shared by nodes and edges, a value that later names a node",
       "digraph {\n node [color=blue]\n edge [w=0]\n a [shape=box, color=red]\n a -> b [w=3, style=dashed]\n"
       " b [style=bold, w=1]\n c -> a [color=green]\n d [color=green, label=zz]\n zz -> a [label=d]\n}\n"},
      {"keyed edges after the split",
       "digraph {\n a -> b [kind=flow]\n c [w=1]\n a -> b [key=k1, kind=anti]\n a -> b [key=k1, kind=output]\n"
       " b -> c [w=\"a long value beyond 16 bytes\"]\n}\n"},
      {"an HTML string before the split: long values are interned",
       "digraph {\n a [label=<a long value beyond 16 bytes>]\n a -> b [label=\"a long value beyond 16 bytes\"]\n"
       " b -> c [label=\"a long value beyond 16 bytes\"]\n c [label=\"a long value beyond 16 bytes\"]\n d -> a\n}\n"},
      {"an HTML string after appended values: the read starts again, interning them",
       "digraph {\n a -> b [label=\"a long value beyond 16 bytes\"]\n b -> c [label=\"another long value beyond 16\"]\n"
       " c [label=<<i>html</i>>]\n c -> d [label=\"a long value beyond 16 bytes\"]\n d [w=1]\n}\n"},
      {"strict", "strict digraph {\n a -> b\n a -> b\n b -> c\n c -> a\n a -> b\n}"},
      {"undirected", "graph {\n a -- b\n b -- c\n c -- d\n d -- a\n}"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const ReaderOutcome ref = outcome_of([&] { return reference::read_dot(c.text, "t.dot"); });
    for (std::size_t lookahead : {std::size_t{1} << 18, std::size_t{0}}) {
      detail::DotReadTuning alone;
      alone.lookahead_table_slots = lookahead;
      const ReaderOutcome one = outcome_of([&] { return detail::read_dot_releasing(c.text, "t.dot", {}, {}, alone); });
      ASSERT_FALSE(mismatch(one, ref)) << *mismatch(one, ref) << "\n--- fast\n" << describe(one) << "--- cgraph\n" << describe(ref);
      {
        // As a read that gives a mapped file's pages back does: the strings
        // it keeps are copied out of the text (FastDotReader::copy_).
        detail::DotReadTuning copying = alone;
        copying.release_from = 0;
        const ReaderOutcome copied = outcome_of(
            [&] { return detail::read_dot_releasing(c.text, "t.dot", {}, [](std::size_t) {}, copying); });
        ASSERT_FALSE(mismatch(copied, one)) << *mismatch(copied, one);
      }
    }
  }
}

// A text past two progress reports (every 4 MiB), with nodes, edges,
// attribute assignments and new names all through it, read as a large
// mapped file is (the strings it keeps copied out of the text, the pages
// behind the cursor given back) and as a string: the same graph.
TEST(DotReader, CopyingOutOfTheTextChangesNothing) {
  std::string text = "digraph {\n";
  for (int i = 0; text.size() < (std::size_t{9} << 20); ++i) {
    const std::string n = "\"instr_" + std::to_string(i) + "\"";
    text += "  " + n + " [engine=\"" + std::to_string(i % 8) + "\", reads=\"sbuf:[" + std::to_string(i * 64) + "," +
            std::to_string(i * 64 + 64) + ")\"];\n";
    if (i) text += "  \"instr_" + std::to_string(i - 1) + "\" -> " + n + " [kind=flow];\n";
    if (i > 7) text += "  \"instr_" + std::to_string(i - 8) + "\" -> " + n + ";\n";
  }
  text += "}\n";
  detail::DotReadTuning copying;
  copying.release_from = 0;
  std::size_t released = 0;
  const InputGraph plain = read_dot(text, "t.dot");
  const InputGraph copied =
      detail::read_dot_releasing(text, "t.dot", {}, [&](std::size_t upto) { released = upto; }, copying);
  ASSERT_GT(plain.nodes.size(), 50000u);
  EXPECT_GT(released, std::size_t{4} << 20); // else this tests nothing
  for (const InputGraph* g : {&copied}) {
    EXPECT_TRUE(g->nodes == plain.nodes);
    EXPECT_TRUE(g->edges == plain.edges);
    EXPECT_TRUE(static_cast<const GraphHeader&>(*g) == static_cast<const GraphHeader&>(plain));
  }
}

// A statement the general path reads, with no ';' after it, reads the next
// token ahead. That token is given back (unpeek_id()) when it is an ID, so
// the statements after it still go the simple way: before, one such
// statement near the top of a file sent every later one the general way.
TEST(DotReader, AStatementWithoutSemicolonLeavesTheRestOnTheSimplePath) {
  const std::string tail = " a -> b\n b -> c\n c -> d\n d -> e\n e -> f\n f -> g\n g -> h\n h -> a\n";
  const std::vector<std::string> general = {
      " node [shape=box]\n", " a:p -> b\n", " {x y} -> z\n", " subgraph s { x }\n", " rank = same\n",
      " \"x\\\"y\" -> z\n", " x [label=<b>]\n", " x -> y // a comment\n /* and another */\n",
  };
  const std::vector<std::string> openers = {"", " \"q\" -> a\n", " 7 -> a\n", " -1.5 -> a\n", " \"esc\\\"aped\" -> a\n"};
  for (const std::string& g : general)
    for (const std::string& o : openers)
      for (bool crlf : {false, true}) {
        std::string text;
        for (char ch : "digraph {\n" + g + o + tail + "}\n") text += crlf && ch == '\n' ? "\r\n" : std::string(1, ch);
        SCOPED_TRACE(text);
        both(text);
        const ReaderOutcome ref = outcome_of([&] { return reference::read_dot(text, "t.dot"); });
        for (std::size_t lookahead : {std::size_t{1} << 18, std::size_t{0}}) {
          detail::DotReadTuning tuning;
          tuning.lookahead_table_slots = lookahead;
          std::size_t simple = 0;
          tuning.simple_read = &simple;
          const ReaderOutcome fast = outcome_of([&] { return detail::read_dot_releasing(text, "t.dot", {}, {}, tuning); });
          ASSERT_FALSE(mismatch(fast, ref)) << *mismatch(fast, ref);
          // The tail's eight edges at least, whatever the opener was.
          EXPECT_GE(simple, 8u) << "lookahead " << lookahead;
        }
      }
}

} // namespace
} // namespace depreduce::formats
