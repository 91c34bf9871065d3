#!/usr/bin/env python3
"""Writes the seeds of fuzz_wfjson_reader_diff into corpus/fuzz_wfjson_reader_diff/
(named by what they are, so rerunning is harmless):

  real-*      every WfCommons file of corpus/real (100 KB - 2 MB; replayed whole);
  ok-*        small valid WfFormat documents: labels, parents and children,
              escapes in ids, keys and names (every escape, \\u0000, surrogate
              pairs, raw UTF-8 of 2-4 bytes), numbers at the edge of a double,
              duplicate keys at every level the reader looks at, skipped values
              nested 40 deep (and 100,000 deep), a byte-order mark, text after a
              NUL byte, whitespace of the four kinds;
  bad-*       JSON syntax errors: at the end of the input, after a final newline,
              raw control bytes and newlines in strings, bad escapes, lone
              surrogates, ill-formed UTF-8 (overlong, encoded surrogate, above
              U+10FFFF, truncated), number grammar (leading zero, '1.', '-',
              '1e'), overflow (1e999, a 400-digit integer), trailing commas,
              broken BOM, a second document;
  sem-*       WfFormat errors: not an object, missing keys, wrong types at every
              level, schema 1.4, duplicate ids, unknown parents and children,
              children disagreeing with parents (both ways).
Usage: python3 fuzz/wfjson_reader_seeds.py  (from anywhere)
"""
import glob
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
OUT = os.path.join(ROOT, "corpus", "fuzz_wfjson_reader_diff")


def doc(tasks, name='"w"', extra=""):
    return ('{"name": %s, "schemaVersion": "1.5",%s\n "workflow": {"specification": {"tasks": [\n%s\n ],'
            ' "files": [{"id": "f1", "sizeInBytes": 10}]},\n "execution": {"makespanInSeconds": 1.5,'
            ' "tasks": [{"id": "a", "runtimeInSeconds": 0.25}]}}}\n') % (name, extra, tasks)


def task(i, parents, children=None, name=None, more=""):
    s = '  {"id": "%s"' % i
    if name is not None:
        s += ', "name": "%s"' % name
    s += ', "parents": [%s]' % ", ".join('"%s"' % p for p in parents)
    if children is not None:
        s += ', "children": [%s]' % ", ".join('"%s"' % c for c in children)
    return s + more + "}"


DIAMOND = ",\n".join([
    task("a", [], ["b", "c"], name="A"),
    task("b", ["a"], ["d"], name="b"),
    task("c", ["a"], ["d"], more=', "inputFiles": ["f1"], "runtimeInSeconds": 3e2'),
    task("d", ["b", "c"], []),
])

DEEP40 = "[" * 20 + '{"k": ' * 20 + '[1, "x", null, true, false, -0.5e-3]' + "}" * 20 + "]" * 20

SEEDS = {
    # --- valid
    "ok-diamond": doc(DIAMOND),
    "ok-no-children": doc(",\n".join([task("a", []), task("b", ["a"]), task("c", ["a", "b"])])),
    "ok-empty-tasks": doc(""),
    "ok-parallel-and-self": doc(",\n".join([task("a", ["a"]), task("b", ["a", "a"])])),
    "ok-escapes-in-ids": doc(",\n".join([
        '  {"id": "\\u0061\\"\\\\\\/\\b\\f\\n\\r\\t", "parents": []}',
        '  {"id": "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", "name": "\\u00e9\\u20ac\\ud83d\\ude00", "parents": ["a\\"\\\\/\\u0008\\u000c\\u000a\\u000d\\u0009"]}',
        '  {"id": "\\u00E9\\u20AC\\uD83D\\uDE00x", "parents": ["\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"]}',
    ])),
    "ok-nul-escape": doc(",\n".join(['  {"id": "\\u0000", "parents": []}', '  {"id": "a\\u0000b", "parents": ["\\u0000"]}'])),
    "ok-escaped-keys": '{"n\\u0061me": "w", "workfl\\u006fw": {"specific\\u0061tion": {"t\\u0061sks": [{"\\u0069d": "a", "p\\u0061rents": [], "childre\\u006e": []}]}}}',
    "ok-duplicate-keys": ('{"name": "one", "name": "two", "workflow": [], "workflow": {"specification": 1,\n'
                          ' "specification": {"tasks": {}, "tasks": [\n'
                          '  {"id": "x", "id": "a", "parents": [1], "parents": [], "name": 3, "name": "A"},\n'
                          '  {"id": "b", "parents": ["a"], "children": ["zz"], "children": []}]}}}'),
    "ok-duplicate-workflow": ('{"workflow": {"specification": {"tasks": [{"id": "gone", "parents": []}]}},\n'
                              ' "workflow": {"specification": {"tasks": [{"id": "kept", "parents": []}]}}}'),
    "ok-deep40": doc(task("a", [], more=', "x": ' + DEEP40)),
    "ok-deep-100000": doc(task("a", [], more=', "x": ' + "[" * 100000 + "]" * 100000)),
    "ok-numbers": doc(task("a", [], more=', "r": [0, -0, 1.5, -1.5e+10, 2E-3, 1e308, 1.7976931348623157e308,'
                                         ' 18446744073709551616, -9223372036854775809, 1e-400, 0e999999, 0.0e400]')),
    "ok-bom": "\xef\xbb\xbf" + doc(task("a", [])),
    "ok-after-nul": doc(task("a", [])) + "\0 anything [ { \"",
    "ok-whitespace": doc(task("a", [])).replace(" ", " \t\r\n "),
    "ok-one-line": doc(DIAMOND).replace("\n", ""),
    "ok-id-key-line": '{"workflow": {"specification": {"tasks": [{\n"name": "n",\n\n"id":\n"a", "parents": []}]}}}',
    "ok-raw-del-and-utf8": doc(task("a\x7f\xdf\xbf\xef\xbf\xbf\xf4\x8f\xbf\xbf", [])),
    # --- JSON syntax errors
    "bad-empty": "",
    "bad-blank": " \n\t\r\n",
    "bad-eof-in-object": doc(DIAMOND)[:-4],
    "bad-eof-after-newline": '{"workflow":\n[1,\n',
    "bad-eof-in-string": '{"workflow": "abc',
    "bad-eof-after-backslash": '{"workflow": "abc\\',
    "bad-eof-in-unicode": '{"workflow": "\\u12',
    "bad-trailing-comma-object": '{"a": 1,\n}',
    "bad-trailing-comma-array": '{"a": [1,\n]}',
    "bad-missing-colon": '{"a"\n 1}',
    "bad-missing-comma": '{"a": 1\n "b": 2}',
    "bad-key-not-string": '{\n a: 1}',
    "bad-raw-newline-in-string": '{"a": "x\ny"}',
    "bad-raw-tab-in-string": '{"a": "x\ty"}',
    "bad-raw-nul-in-string": '{"a": "x\0y"}',
    "bad-nul-token": '{"a":\n\0 1}',
    "bad-escape": '{"a": "\\x"}',
    "bad-unicode-hex": '{"a": "\\u12g4"}',
    "bad-lone-high": '{"a": "\\ud800"}',
    "bad-high-then-char": '{"a": "\\ud800x"}',
    "bad-high-then-bmp": '{"a": "\\ud800\\u0041"}',
    "bad-lone-low": '{"a": "\\udc00"}',
    "bad-high-then-above-low": '{"a": "\\ud83d\\ued00"}',  # found by the fuzzer (a mutation accepting it)
    "bad-utf8-overlong": '{"a": "\xc0\xaf"}',
    "bad-utf8-surrogate": '{"a": "\xed\xa0\x80"}',
    "bad-utf8-above-max": '{"a": "\xf4\x90\x80\x80"}',
    "bad-utf8-truncated": '{"a": "\xe2\x82"}',
    "bad-utf8-continuation": '{"a": "\x80"}',
    "bad-utf8-outside-string": '{"a": \xc3\xa9}',
    "bad-leading-zero": '{"a": 01}',
    "bad-dot-no-digit": '{"a": 1.}',
    "bad-minus-alone": '{"a": -}',
    "bad-exponent-no-digit": '{"a": 1e+}',
    "bad-plus": '{"a": +1}',
    "bad-overflow": '{"a":\n1e999}',
    "bad-overflow-negative": '{"a": -2e308}',
    "bad-overflow-digits": '{"a": ' + "9" * 400 + "}",
    "bad-literal": '{"a": tru}',
    "bad-literal-newline": '{"a": nul\n}',
    "bad-literal-case": '{"a": True}',
    "bad-bom": "\xef\xbb{}",
    "bad-bom-late": " \xef\xbb\xbf{}",
    "bad-second-document": doc(task("a", [])) + "{}",
    "bad-deep-unclosed": doc(task("a", [], more=', "x": ' + "[" * 50 + "]" * 49)),
    "bad-comment": '{"a": 1 /* no */}',
    "bad-single-quotes": "{'a': 1}",
    "bad-after-valid-tasks": doc(DIAMOND).replace('"execution"', '"execution" 1'),
    # --- WfFormat errors
    "sem-top-array": "[]",
    "sem-top-string": '"x"',
    "sem-no-workflow": '{"name": "x"}',
    "sem-workflow-array": '{"workflow": []}',
    "sem-schema-1.4": '{"workflow": {"tasks": []}}',
    "sem-no-specification": '{"workflow": {}}',
    "sem-specification-null": '{"workflow": {"specification": null}}',
    "sem-no-tasks": '{"workflow": {"specification": {}}}',
    "sem-tasks-object": '{"workflow": {"specification": {"tasks": {}}}}',
    "sem-task-number": doc("1"),
    "sem-task-no-id": doc('  {"parents": []}'),
    "sem-id-number": doc('  {"id": 3, "parents": []}'),
    "sem-name-array": doc('  {"id": "a", "name": [], "parents": []}'),
    "sem-duplicate-id": doc(",\n".join([task("a", []), task("b", []), task("a", [])])),
    "sem-duplicate-escaped-id": doc(",\n".join([task("ab", []), task("\\u0061b", [])])),
    "sem-no-parents": doc('  {"id": "a"}'),
    "sem-parents-string": doc('  {"id": "a", "parents": "b"}'),
    "sem-parents-number-entry": doc('  {"id": "a", "parents": [1]}'),
    "sem-unknown-parent": doc(",\n".join([task("a", []), task("b", ["a", "z"])])),
    "sem-unknown-child": doc(task("a", [], ["z"])),
    "sem-children-object": doc('  {"id": "a", "parents": [], "children": {}}'),
    "sem-children-null-entry": doc('  {"id": "a", "parents": [], "children": [null]}'),
    "sem-parent-not-in-children": doc(",\n".join([task("a", [], []), task("b", ["a"])])),
    "sem-child-not-in-parents": doc(",\n".join([task("a", [], ["b"]), task("b", [])])),
    "sem-children-disagree-many": doc(",\n".join([task("a", [], ["c"]), task("b", [], ["c"]), task("c", ["b", "a", "b"], []),
                                               task("d", ["c"], []), task("e", [], ["d"])])),
    # Every WfFormat error has a line; what is wrong sits on a line of
    # its own, so the two readers' line rules are compared, not just line 1.
    "sem-lines-top-array": '\n\n[1]',
    "sem-lines-no-workflow": '\n{"name": "x"\n}',
    "sem-lines-workflow-twice": '{"workflow": {"specification": {"tasks": []}},\n"workflow": 1}',
    "sem-lines-schema-1.4": '{"workflow": {\n"name": 1,\n"tasks": []}}',
    "sem-lines-no-specification": '{"name": "x",\n"workflow":\n {"name": 1\n}}',
    "sem-lines-specification-null": '{"workflow": {\n\n"specification": null}}',
    "sem-lines-no-tasks": '{"workflow": {"specification":\n\n {"x": 1\n}}}',
    "sem-lines-tasks-object": '{"workflow": {"specification": {\n"x": 1,\n"tasks": {}}}}',
    "sem-lines-task-number": doc(task("a", []) + ",\n\n 12\n"),
    "sem-lines-task-string": doc(task("a", []) + ',\n\n "b"'),
    "sem-lines-task-no-id": doc(task("a", []) + ',\n  {"name": "b",\n   "parents": ["a"]}'),
    "sem-lines-id-number": doc('\n  {\n"id":\n 3, "parents": []}'),
    "sem-lines-name-array": doc('  {"id": "a",\n"name": [], "parents": []}'),
    "sem-lines-unknown-parent": doc('  {"id": "a",\n"parents": [\n"z"]}'),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for path in sorted(glob.glob(os.path.join(ROOT, "corpus", "real", "wfcommons", "**", "*.json"), recursive=True)):
        shutil.copyfile(path, os.path.join(OUT, "real-" + os.path.basename(path)[:-len(".json")]))
    for name, text in SEEDS.items():
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(text.encode("latin-1"))  # the \xNN above are bytes
    print(f"{len(os.listdir(OUT))} seeds in {os.path.relpath(OUT, ROOT)}")


if __name__ == "__main__":
    main()
