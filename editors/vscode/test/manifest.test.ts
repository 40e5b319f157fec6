// package.json, the language configuration and the code agree.
import assert = require('node:assert/strict');
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const root = path.join(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const languageConfig = JSON.parse(fs.readFileSync(path.join(root, 'language-configuration.json'), 'utf8'));
const grammar = JSON.parse(fs.readFileSync(path.join(root, 'syntaxes', 'relax.tmLanguage.json'), 'utf8'));

test('the relax language, its grammar and its configuration', () => {
  const [lang] = manifest.contributes.languages;
  assert.equal(lang.id, 'relax');
  assert.deepEqual(lang.extensions, ['.relax']);
  assert.ok(lang.aliases.includes('Relax'));
  assert.ok(fs.existsSync(path.join(root, lang.configuration)));
  const [g] = manifest.contributes.grammars;
  assert.equal(g.language, 'relax');
  assert.equal(g.scopeName, 'source.relax');
  assert.equal(grammar.scopeName, 'source.relax');
  assert.ok(fs.existsSync(path.join(root, g.path)));
});

test('format on save with this extension as the formatter', () => {
  const defaults = manifest.contributes.configurationDefaults['[relax]'];
  assert.equal(defaults['editor.formatOnSave'], true);
  assert.equal(defaults['editor.defaultFormatter'], `${manifest.publisher}.${manifest.name}`);
});

test('the settings the code reads are contributed, with their defaults', () => {
  const props = manifest.contributes.configuration.properties;
  assert.equal(props['relax.path'].default, 'relax');
  assert.equal(props['relax.format.lineWidth'].default, null);
  assert.deepEqual(props['relax.lint.select'].default, []);
  assert.deepEqual(props['relax.lint.ignore'].default, []);
  assert.deepEqual(props['relax.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.ok(props['relax.server.logFile']);
  const src = fs.readFileSync(path.join(root, 'src', 'settings.ts'), 'utf8');
  for (const key of src.matchAll(/get\('([a-zA-Z.]+)'\)/g))
    assert.ok(props[`relax.${key[1]}`], `relax.${key[1]} is contributed`);
});

test('every command the extension registers is contributed, and the other way round', () => {
  const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command).sort();
  const src = fs.readFileSync(path.join(root, 'src', 'extension.ts'), 'utf8');
  const registered = [...src.matchAll(/registerCommand\('([^']+)'/g)].map((m) => m[1]).sort();
  assert.deepEqual(registered, contributed);
  assert.deepEqual(contributed, ['relax.restartServer', 'relax.runFunction', 'relax.showIRAfterPass']);
  const titles = manifest.contributes.commands.map((c: { category: string; title: string }) => `${c.category}: ${c.title}`);
  assert.deepEqual(titles.sort(), ['Relax: Restart server', 'Relax: Run function', 'Relax: Show IR after pass…']);
});

test('the main file is what tsc writes', () => {
  assert.equal(manifest.main, './out/src/extension.js');
  assert.ok(fs.existsSync(path.join(root, manifest.main)));
});

test('language configuration: comments, brackets, quotes', () => {
  assert.equal(languageConfig.comments.lineComment, '#');
  assert.deepEqual(languageConfig.brackets, [
    ['(', ')'],
    ['[', ']'],
    ['{', '}'],
  ]);
  const pairs = languageConfig.autoClosingPairs.map((p: { open: string }) => p.open);
  for (const open of ['(', '[', '{', '"', "'"]) assert.ok(pairs.includes(open), open);
});

test('language configuration: indent after a line ending in a colon', () => {
  const increase = new RegExp(languageConfig.indentationRules.increaseIndentPattern);
  const rules = languageConfig.onEnterRules.map((r: { beforeText: string; afterText?: string; action: { indent: string } }) => ({
    before: new RegExp(r.beforeText),
    after: r.afterText ? new RegExp(r.afterText) : undefined,
    indent: r.action.indent,
  }));
  const onEnter = (before: string, after = '') =>
    rules.find((r: { before: RegExp; after?: RegExp }) => r.before.test(before) && (!r.after || r.after.test(after)))?.indent;
  for (const line of ['    def main(x: R.Tensor((4,), "float32")):', 'class Module:', '        with R.dataflow():',
    '            if cond:  # branch', '        else:', '    ) -> R.Tensor((2, 3), "float32"):']) {
    assert.ok(increase.test(line), line);
    assert.equal(onEnter(line), 'indent', line);
  }
  assert.equal(onEnter('        x = R.add(a, b)'), undefined);
  assert.equal(onEnter('        return y'), 'outdent');
  assert.equal(onEnter('        return R.add('), undefined);
  assert.equal(onEnter('    # a comment:'), undefined);
  assert.equal(onEnter('    # a comment', 'continued'), 'none');
  assert.ok(!increase.test('        x = R.add(a, b)'));
});
