#!/usr/bin/env python3
"""Drives the real `relax lsp` over pipes on a large module and prints each figure next to the
target of the language-server issue:

  open -> first diagnostics, a one-character edit -> fresh diagnostics (p50/p95 over --edits
  edits, the adaptive debounce included), hover / definition / completion, semanticTokens/full,
  formatting, workspace/symbol, and the server's resident memory after --rss-edits more edits.

Usage (from the repository root, after the dev build):
  bench/lsp_bench.py [FILE] [--relax build/dev/cli/relax] [--edits 100] [--rss-edits 1000]
                     [--json] [--wrap 'perf record -g -o /tmp/lsp.perf']
FILE defaults to ../shared/conformance/large_module_20k.relax. For scale: TVM v0.20 takes 17.9 s
to parse that file.
"""
import argparse
import json
import os
import shlex
import subprocess
import sys
import time

TARGETS_MS = {
    "open -> diagnostics": 300,
    "edit -> diagnostics p95": 50,
    "hover": 10,
    "definition": 10,
    "completion": 10,
    "semanticTokens/full": 100,
    "formatting": 300,
}
TARGET_RSS_MB = 300


class Server:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.next_id = 1

    def send(self, message):
        body = json.dumps(message).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def read(self):
        header = b""
        while not header.endswith(b"\r\n\r\n"):
            c = self.p.stdout.read(1)
            if not c:
                raise SystemExit("the server closed its output")
            header += c
        length = int(header.split(b"Content-Length:")[1].split(b"\r")[0])
        body = self.p.stdout.read(length)
        # When the whole message was there: the figures leave out this client's JSON parsing
        # (about 40 ms for the semantic tokens of the 20k-line module in Python).
        self.received = time.perf_counter()
        return json.loads(body)

    def wait(self, pred):
        while True:
            m = self.read()
            if pred(m):
                return m

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        rid = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        m = self.wait(lambda m: m.get("id") == rid and "method" not in m)
        if "error" in m:
            raise SystemExit("%s failed: %s" % (method, m["error"]))
        return m["result"]

    def rss_mb(self):
        with open("/proc/%d/status" % self.p.pid) as f:
            return int(f.read().split("VmRSS:")[1].split()[0]) / 1024


def percentile(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", default="../shared/conformance/large_module_20k.relax")
    ap.add_argument("--relax", default="build/dev/cli/relax")
    ap.add_argument("--edits", type=int, default=100)
    ap.add_argument("--rss-edits", type=int, default=1000)
    ap.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    ap.add_argument("--wrap", default="", help="a command to run the server under (perf, ...)")
    args = ap.parse_args()

    text = open(args.file, encoding="utf-8").read()
    uri = "file:///relax-bench/big.relax"
    server = Server(shlex.split(args.wrap) + [args.relax, "lsp", "--log-level", "error"])
    server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    server.notify("initialized", {})
    figures = {}

    def timed(name, fn):
        t = time.perf_counter()
        result = fn()
        figures[name] = (server.received - t) * 1e3
        return result

    def diagnostics_of(version):
        return server.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                           and m["params"].get("version") == version)

    timed("open -> diagnostics", lambda: (server.notify("textDocument/didOpen", {
        "textDocument": {"uri": uri, "languageId": "relax", "version": 1, "text": text}}),
        diagnostics_of(1)))

    lines = text.split("\n")
    line = next(i for i, l in enumerate(lines) if " = R." in l)
    col = lines[line].index(" = R.")
    version = 1

    def edit(wait):
        # Insert a space before ` = R.`, then take it out again: the text stays valid.
        nonlocal version
        version += 1
        insert = version % 2 == 0
        end = col if insert else col + 1
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": line, "character": end}},
                                "text": " " if insert else ""}]})
        if wait:
            diagnostics_of(version)

    latencies = []
    for _ in range(args.edits):
        t = time.perf_counter()
        edit(True)
        latencies.append((server.received - t) * 1e3)
    figures["edit -> diagnostics p50"] = percentile(latencies, 0.5)
    figures["edit -> diagnostics p95"] = percentile(latencies, 0.95)

    position = {"textDocument": {"uri": uri}, "position": {"line": line, "character": col - 1}}
    timed("hover", lambda: server.request("textDocument/hover", position))
    timed("definition", lambda: server.request("textDocument/definition", position))
    timed("completion", lambda: server.request("textDocument/completion", position))
    timed("semanticTokens/full",
          lambda: server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}}))
    timed("formatting", lambda: server.request("textDocument/formatting", {
        "textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": True}}))
    timed("workspace/symbol", lambda: server.request("workspace/symbol", {"query": "main"}))

    # A burst of edits as typing makes them (no waiting), each followed by a hover and the
    # semantic tokens as an editor asks for them; then the diagnostics of the last one.
    for i in range(args.rss_edits):
        edit(False)
        if i % 10 == 0:
            server.request("textDocument/hover", position)
    diagnostics_of(version)
    server.request("textDocument/semanticTokens/full", {"textDocument": {"uri": uri}})
    server.request("textDocument/formatting", {"textDocument": {"uri": uri}, "options": {}})
    figures["rss MB after edits"] = server.rss_mb()

    server.request("shutdown", None)
    server.notify("exit", None)
    code = server.p.wait()

    if args.json:
        print(json.dumps({k: round(v, 2) for k, v in figures.items()}, indent=2))
    else:
        print("relax lsp on %s (%d lines), %d edits, then %d more" %
              (os.path.basename(args.file), len(lines), args.edits, args.rss_edits))
        print("%-28s %10s %10s" % ("", "measured", "target"))
        for name, value in figures.items():
            if name.startswith("rss"):
                target, unit = TARGET_RSS_MB, "MB"
            else:
                target, unit = TARGETS_MS.get(name), "ms"
            mark = "" if target is None else ("ok" if value < target else "MISSED")
            print("%-28s %8.1f %s %7s %s %s" % (name, value, unit,
                                              "" if target is None else "< %d" % target,
                                              unit if target is not None else "", mark))
        print("exit code", code)
    return 0 if code == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
