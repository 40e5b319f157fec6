// Which function "Relax: Run function" runs: from the server's outline (textDocument/
// documentSymbol) and its code lenses (a "Run" lens sits on each Relax function, none on
// prim_funcs), in LSP terms (0-based lines, LSP SymbolKind numbers).

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export interface DocumentSymbol {
  name: string;
  kind: number;
  range: Range;
  selectionRange: Range;
  children?: DocumentSymbol[];
}

export interface CodeLens {
  range: Range;
  command?: { title: string; command: string; arguments?: unknown[] };
}

/** LSP's SymbolKind.Function and SymbolKind.Module. */
export const FUNCTION_KIND = 12;
export const MODULE_KIND = 2;

export interface FunctionSymbol {
  name: string;
  range: Range;
  selectionRange: Range;
}

function before(a: Position, b: Position): boolean {
  return a.line < b.line || (a.line === b.line && a.character < b.character);
}

export function contains(range: Range, p: Position): boolean {
  return !before(p, range.start) && !before(range.end, p);
}

/** The module's functions (children of the module symbol, or top-level ones), in order. */
export function moduleFunctions(symbols: readonly DocumentSymbol[] | null | undefined): FunctionSymbol[] {
  const out: FunctionSymbol[] = [];
  for (const s of symbols ?? []) {
    if (s.kind === MODULE_KIND) {
      for (const c of s.children ?? [])
        if (c.kind === FUNCTION_KIND) out.push({ name: c.name, range: c.range, selectionRange: c.selectionRange });
    } else if (s.kind === FUNCTION_KIND) {
      out.push({ name: s.name, range: s.range, selectionRange: s.selectionRange });
    }
  }
  return out;
}

/** The names the server put a `relax.run` lens on: the functions it can run. */
export function runnableNames(lenses: readonly CodeLens[] | null | undefined): Set<string> {
  const names = new Set<string>();
  for (const lens of lenses ?? []) {
    if (lens.command?.command !== 'relax.run') continue;
    const arg = lens.command.arguments?.[0] as { function?: unknown } | undefined;
    if (arg && typeof arg.function === 'string') names.add(arg.function);
  }
  return names;
}

/**
 * The functions that can be run: the module's functions that carry a "Run" lens. When the
 * lenses are not known (undefined), all of them.
 */
export function runnableFunctions(
  symbols: readonly DocumentSymbol[] | null | undefined,
  lenses: readonly CodeLens[] | null | undefined,
): FunctionSymbol[] {
  const functions = moduleFunctions(symbols);
  if (lenses === undefined) return functions;
  const names = runnableNames(lenses);
  return functions.filter((f) => names.has(f.name));
}

/** The innermost of the functions whose range holds the position. */
export function functionAt(functions: readonly FunctionSymbol[], p: Position): FunctionSymbol | undefined {
  let best: FunctionSymbol | undefined;
  for (const f of functions) {
    if (!contains(f.range, p)) continue;
    if (!best || contains(best.range, f.range.start)) best = f;
  }
  return best;
}
