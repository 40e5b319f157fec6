#!/usr/bin/env python3
# Drives the real `relax lsp` over pipes on a large module: open -> diagnostics, edits -> diagnostics
# (the adaptive debounce included), hover/definition/completion, semantic tokens, formatting, RSS.
# Usage: bench/lsp_bench.py ../shared/conformance/large_module_20k.relax (from the repository root,
# after the dev build).
import json, subprocess, time, sys
p = subprocess.Popen(["build/dev/cli/relax", "lsp", "--log-level", "error"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
def send(m):
    b = json.dumps(m).encode(); p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(b) + b); p.stdin.flush()
def read():
    h = b""
    while not h.endswith(b"\r\n\r\n"): h += p.stdout.read(1)
    n = int(h.split(b":")[1].split(b"\r")[0]); return json.loads(p.stdout.read(n))
def wait(pred):
    while True:
        m = read()
        if pred(m): return m
text = open(sys.argv[1]).read(); uri = "file:///big.relax"
send({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}); wait(lambda m: m.get("id")==1)
t=time.time(); send({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":uri,"languageId":"relax","version":1,"text":text}}})
wait(lambda m: m.get("method")=="textDocument/publishDiagnostics"); print("open->diagnostics %.0f ms" % ((time.time()-t)*1e3))
lines=text.split("\n"); ln=next(i for i,l in enumerate(lines) if " = R." in l); col=lines[ln].index(" = R.")
ts=[]
for v in range(2,12):
    t=time.time(); send({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":uri,"version":v},"contentChanges":[{"range":{"start":{"line":ln,"character":col},"end":{"line":ln,"character":col}},"text":" " if v%2==0 else ""}]}})
    wait(lambda m: m.get("method")=="textDocument/publishDiagnostics" and m["params"].get("version")==v); ts.append((time.time()-t)*1e3)
print("edit->diagnostics ms (10 edits, incl. 50 ms+ debounce):", " ".join("%.0f"%x for x in ts))
for meth in ["textDocument/hover","textDocument/definition","textDocument/completion"]:
    t=time.time(); send({"jsonrpc":"2.0","id":50,"method":meth,"params":{"textDocument":{"uri":uri},"position":{"line":ln,"character":col-1}}}); wait(lambda m: m.get("id")==50); print(meth, "%.1f ms"%((time.time()-t)*1e3))
t=time.time(); send({"jsonrpc":"2.0","id":51,"method":"textDocument/semanticTokens/full","params":{"textDocument":{"uri":uri}}}); wait(lambda m: m.get("id")==51); print("semanticTokens/full %.0f ms"%((time.time()-t)*1e3))
t=time.time(); send({"jsonrpc":"2.0","id":52,"method":"textDocument/formatting","params":{"textDocument":{"uri":uri},"options":{}}}); wait(lambda m: m.get("id")==52); print("formatting %.0f ms"%((time.time()-t)*1e3))
print("rss MB", int(open("/proc/%d/status"%p.pid).read().split("VmRSS:")[1].split()[0])//1024)
send({"jsonrpc":"2.0","id":60,"method":"shutdown"}); wait(lambda m: m.get("id")==60); send({"jsonrpc":"2.0","method":"exit"}); print("exit", p.wait())
