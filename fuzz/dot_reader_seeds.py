#!/usr/bin/env python3
"""Writes the grammar-aware seeds of fuzz_dot_reader_diff into
corpus/fuzz_dot_reader_diff/ (named by content, so rerunning is harmless):

  real-*      every DOT file of corpus/real (all under 1 MiB);
  (sha1)      the parse regressions and hand-written cases of corpus/fuzz_dot_reader_roundtrip;
  gram-*      one input per construct of cgraph's grammar and scanner: strict,
              keywords in any case, quoted strings with escapes, backslash-newline
              and lone newlines, '+' concatenation, HTML strings, the three comment
              forms, '@', byte-order marks, numbers that split, ports n:p:c, node
              lists, edge chains, subgraph endpoints, default statements scoped to
              subgraphs, graph attributes inherited by later subgraphs, keys,
              strict merging, a second graph, text after the graph, and errors at
              the end of the input inside a string or comment;
  deep-*      subgraphs nested 40 deep (and at cgraph's parser-stack limit, 3331
              levels, one more, and edge chains of 2499 / 2500 nodes);
  big-*       a 1 MB name, a 1 MB quoted value with escapes, an attribute list of
              2,000 entries.
Usage: python3 fuzz/dot_reader_seeds.py  (from anywhere)
"""
import glob
import hashlib
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
OUT = os.path.join(ROOT, "corpus", "fuzz_dot_reader_diff")

GRAMMAR = {
    "strict": 'strict digraph { a -> b [key=k1]; a -> b [key=k2, x=1]; a -> b [y=2]; a -> a; a -> a [z=1] }',
    "case": 'DiGraph G { A -> B; NODE [x=1]; EdGe [y=2]; SUBGRAPH s { c } Strict }',
    "escapes": 'digraph { "a\\\n b" -> "c\n" [label="x\\"y\\\\z\\q\n", l2="\\\n", l3="\\\\\n", l4="\n"] }',
    "concat": 'digraph { a [label="x" + <y> + "z"]; "p" + "q" -> b; c [l="" + ""] }',
    "html": 'digraph { a [label=<<b>x</b>>]; b [label=<>]; c [label=""]; <n\nm> -> d; e [l=<x>]; f [l="x"] }',
    "html-name": 'digraph G { a [label=<G>]; subgraph <s> { b [label=<s>] } }',
    "comments": 'digraph { a /* c\n\n */ -> // x\n b # y\n# line 40\n c }\n// after\n/* after */\n',
    "at": 'digraph { a -> b }\n@ anything " after',
    "at-inside": 'digraph { a -> @ b }',
    "bom": '\xef\xbb\xbf digraph { a \xef\xbb\xbf b \xef\xbb\xbfc }',
    "numbers": 'digraph { 1a -> 1.2.3 -> -.5 -> 2. -> -7x -> .5.5 }',
    "ports": 'digraph { a:p:c -> b:q [x=1]; c:"p" -> d:<h>; e:n -> {f g}; {h}:x }',
    "lists": 'digraph { a, b -> c, d [w=1]; e, f; b; a; {b a} -> c; c -> {a b}; subgraph s {z y} -> subgraph s {x} }',
    "chain": 'digraph { a -> b -> c -> d [kind=flow, flags=retain] }',
    "defaults": 'digraph { a; subgraph s { node [color=red]; edge [style=x]; b -> c; a -> d; subgraph t { e } } f; node [color=blue]; g; node [color=blue]; h }',
    "defaults-model": 'digraph { edge [kind=flow]; a -> b; edge [kind=anti]; c -> d; subgraph { edge [flags=retain]; node [engine=2]; e -> f } node [async=inf]; g }',
    "graph-attrs": 'digraph { subgraph s {} graph [rankdir=LR]; subgraph t {} subgraph s { label=x; subgraph u { y=1 } } graph [rankdir=TB] [z=2]; q=1 }',
    "keys": 'digraph { a -> b [key=""]; a -> b [key=""]; a -> b [key=x]; a -> b [key=x, key=y]; edge [key=z]; a -> b }',
    "percent": 'digraph "%5" { "%a" -> "%b"; subgraph "%3" { "%a" } subgraph "%x" {} a -> b [key="%k"]; a -> b [key="%k"] }',
    "macro": 'digraph { node x = [color=red]; a; edge y = [] }',
    "lines": 'digraph {\n "multi\nline" -> \n b\n [\n label=x\n ]\n ;;\n c [engine=\n"bad"\n]\n}',
    "engines": 'digraph { engines=4; a [engine=1, async=2, barrier=true, reads="sbuf:[0,64)", writes="psum:[0,8),dram:[1,2)"]; b [engine=none] }',
    "engines-bad": 'digraph {\n graph [engines=99]\n a [engine=1] }',
    "kind-bad": 'digraph { a -> b\n [kind=bogus] }',
    "range-bad": 'digraph { a [reads="x:[2,1)"] }',
    "second-graph": 'digraph { a }\n\n/* c */ strict digraph { b }',
    "after-graph": 'digraph { a }\n x',
    "after-graph-string": 'digraph { a } "never closed',
    "after-graph-html": 'digraph { a } <never closed',
    "after-graph-comment": 'digraph { a } /* never closed',
    "undirected": 'graph { a -- b }',
    "undirected-arrow": 'graph { a -> b }',
    "directed-dashes": 'digraph { a -- b }',
    "eof-string": 'digraph { a -> b [label="never\n closed }',
    "eof-html": 'digraph { a -> b [label=<never\n <closed> }',
    "eof-comment": 'digraph { a -> b\n /* never\n closed }',
    "eof": 'digraph { a -> \n\n',
    "header-errors": 'digraph "a" +\n;',
    "header-open": 'digraph\n;',
    "strict-only": '\nstrict\n;',
    "first-token": '\n\nfoo {}',
    "formfeed": 'digraph { a \f b }',
    "attr-separators": 'digraph { a -> b [x=1,,]; c [x=1;y=2 z=3]; d [p=1][q=2] }',
    "bad-stmts": 'digraph { a = b = c }',
    "empty": '',
    "only-comment": '/* only */ // comment',
    "clusters": 'digraph { subgraph cluster_0 { label=u0; a; subgraph cluster_1 { b } c } a -> b; subgraph cluster_0 { d } }',
    "empty-names": 'digraph { "" -> a; subgraph "" {b} subgraph "" {c} }',
    "tailport": 'digraph { a -> b [tailport=zz]; c:p -> d; e -> f:q }',
    "parallel": 'digraph { a -> b; a -> b [label=RAW]; a -> b [label=WAR, kind=flow]; a -> b [flags=retain] }',
    # A NUL byte is the error wherever it is; the parser reads the text beside
    # the search for it (read_dot_as_large), so it meets the NUL too.
    "nul-after-syntax-error": 'digraph {\n a -> ;\n b\0\n}\n',
    "nul-after-bad-value": 'digraph {\n a [engine=x]\n "b\0"\n}\n',
    "nul-after-graph": 'digraph {\n a -> b\n}\n\n\0',
    "nul-in-html": 'digraph {\n a -> b [label=<x\0>]\n}\n',
    "nul-in-comment": 'digraph {\n /* \0 */ a\n}\n',
    "nul-after-backslash": 'digraph {\n "a\\\0',
    "nul-in-simple-statements": 'digraph {\n "a" -> "b" ["kind"="flow"];\n "b" -> "c\0" ["kind"="flow"];\n "c" -> "d";\n}\n',
}


def write(name, data):
    if isinstance(data, str):
        data = data.encode("latin-1")
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)


def main():
    os.makedirs(OUT, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(ROOT, "corpus", "real", "**", "*"), recursive=True)):
        if path.endswith((".dot", ".gv")) and os.path.getsize(path) < (1 << 20):
            shutil.copyfile(path, os.path.join(OUT, "real-" + os.path.basename(path)))
    for path in sorted(glob.glob(os.path.join(ROOT, "corpus", "fuzz_dot_reader_roundtrip", "*"))):
        shutil.copyfile(path, os.path.join(OUT, os.path.basename(path)))
    for name, text in GRAMMAR.items():
        write("gram-" + name + ".dot", text)
    write("deep-40.dot", "digraph {" + "".join("subgraph s%d { n%d " % (i, i) for i in range(40)) + "}" * 40 + " }")
    write("deep-40-anon.dot", "digraph { a -> " + "{" * 40 + "b" + "}" * 40 + " }")
    write("deep-limit-3331.dot", "digraph {" + "{" * 3331 + "}" * 3331 + "}")
    write("deep-limit-3332.dot", "digraph {" + "{" * 3332 + "}" * 3332 + "}")
    # The exact boundary: a node statement innermost peaks at 9,999 states
    # (fits); one statement before the nest makes it 10,000 (exhausted).
    write("deep-limit-exact-fits.dot", "digraph { " + "{" * 3331 + " a " + "}" * 3331 + " }")
    write("deep-limit-exact-exhausted.dot", "digraph { x " + "{" * 3331 + " a " + "}" * 3331 + " }")
    write("deep-chain-2499.dot", "digraph {" + "->".join(["a"] * 2499) + "}")
    write("deep-chain-2500.dot", "digraph {" + "->".join(["a"] * 2500) + "}")
    write("big-name.dot", "digraph { " + "n" * (1 << 20) + " -> b }")
    write("big-quoted.dot", 'digraph { a [label="' + ("x\\\"y\\\n" * ((1 << 17) - 16)) + '"] }')
    write("big-attrs.dot", "digraph { a [" + ", ".join("k%d=v%d" % (i, i) for i in range(2000)) + "]; b -> a }")
    write("big-attrs-edges.dot", "digraph { " + " ".join("n%d -> n%d [k%d=%d]" % (i, i + 1, i % 50, i) for i in range(3000)) + " }")


if __name__ == "__main__":
    main()
