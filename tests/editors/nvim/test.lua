-- Headless test of editors/nvim with the real `relax lsp` (run by run.sh, which sets up the
-- runtimepath, PATH and a work directory of copies). Works on Neovim 0.7 and later.
--
-- Each check prints `PASS name` or `FAIL name: why` (failures also on stderr); the exit code is
-- 0 only when every check passed.

local api = vim.api
local work = assert(os.getenv('RELAX_TEST_WORK'), 'RELAX_TEST_WORK is not set')
local relax_bin = os.getenv('RELAX_TEST_BINARY') or 'relax'

local failures, passes = 0, 0
local messages = {} -- everything vim.notify said

local function out(line)
  io.stdout:write(line .. '\n')
  io.stdout:flush()
end

local function pass(name)
  passes = passes + 1
  out('PASS ' .. name)
end

local function fail(name, why)
  failures = failures + 1
  local line = 'FAIL ' .. name .. ': ' .. tostring(why)
  out(line)
  io.stderr:write(line .. '\n')
  io.stderr:flush()
end

local function check(name, ok, why)
  if ok then
    pass(name)
  else
    fail(name, why or 'false')
  end
  return ok
end

local function finish()
  out(string.format('%d passed, %d failed', passes, failures))
  for _, client in ipairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
    pcall(vim.lsp.stop_client, client.id)
  end
  if failures > 0 then
    vim.cmd('cquit 1')
  else
    vim.cmd('qall!')
  end
end

-- A hard stop well inside run.sh's limit.
vim.defer_fn(function()
  fail('watchdog', 'the test ran over 50 s')
  finish()
end, 50000)

vim.notify = function(msg, level)
  table.insert(messages, { msg = tostring(msg), level = level })
end

-- Pick the "Run" lens when a line has several (instead of prompting).
vim.ui.select = function(items, opts, on_choice)
  for i, item in ipairs(items) do
    local text = opts and opts.format_item and opts.format_item(item) or tostring(item)
    if text:match('Run') then
      return on_choice(item, i)
    end
  end
  return on_choice(items[1], 1)
end

local function wait(ms, cond)
  return vim.wait(ms, cond, 20)
end

local function notified(pattern, from)
  for i = from or 1, #messages do
    if messages[i].msg:find(pattern) then
      return messages[i].msg
    end
  end
  return nil
end

local function relax_clients(bufnr)
  return require('relax.lsp').clients(bufnr)
end

local function open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(work .. '/' .. name))
  return api.nvim_get_current_buf()
end

local function attached_client(bufnr, ms)
  local client
  wait(ms or 10000, function()
    client = relax_clients(bufnr)[1]
    return client ~= nil and client.server_capabilities ~= nil
      and next(client.server_capabilities) ~= nil
  end)
  return client
end

local function buf_text(bufnr)
  return table.concat(api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
end

local function request(bufnr, method, params, ms)
  local responses = vim.lsp.buf_request_sync(bufnr, method, params, ms or 10000)
  for _, response in pairs(responses or {}) do
    if response.result then
      return response.result
    end
    if response.err or response.error then
      return nil, vim.inspect(response.err or response.error)
    end
  end
  return nil, 'no response'
end

local function hover_text(result)
  local contents = result and result.contents
  if type(contents) == 'string' then
    return contents
  elseif type(contents) == 'table' then
    if contents.value then
      return contents.value
    end
    local parts = {}
    for _, part in ipairs(contents) do
      table.insert(parts, type(part) == 'table' and (part.value or '') or tostring(part))
    end
    return table.concat(parts, '\n')
  end
  return ''
end

-- The capture names of the highlights query at (row, col), 0-based.
local function captures_at(bufnr, row, col)
  local get = vim.treesitter.query.get or vim.treesitter.query.get_query
  local query = get('relax', 'highlights')
  local names = {}
  if not query then
    return names
  end
  local tree = vim.treesitter.get_parser(bufnr, 'relax'):parse()[1]
  for id, node in query:iter_captures(tree:root(), bufnr, row, row + 1) do
    local srow, scol, erow, ecol = node:range()
    local after_start = row > srow or (row == srow and col >= scol)
    local before_end = row < erow or (row == erow and col < ecol)
    if after_start and before_end then
      names[query.captures[id]] = true
    end
  end
  return names
end

local function keys(set)
  local list = vim.tbl_keys(set)
  table.sort(list)
  return table.concat(list, ' ')
end

local function run()
  out('nvim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor) .. '.'
    .. tostring(vim.version().patch) .. ', relax: ' .. vim.fn.exepath('relax'))

  require('relax').setup({
    settings = { format = { lineWidth = 100 }, lint = { select = { 'E', 'W' }, ignore = {} } },
  })

  -- ------------------------------------------------------------------ diagnostics
  local broken = open('broken.relax')
  check('filetype relax for *.relax', vim.bo[broken].filetype == 'relax', vim.bo[broken].filetype)
  local client = attached_client(broken)
  if not check('relax lsp attached', client ~= nil, vim.inspect(messages)) then
    return
  end
  local init = client.config.init_options
  check('settings sent as initializationOptions',
    init and init.relax and init.relax.format and init.relax.format.lineWidth == 100,
    vim.inspect(init))
  local expected_code = os.getenv('RELAX_TEST_BROKEN_CODE') or 'E0201'
  local found
  wait(10000, function()
    for _, d in ipairs(vim.diagnostic.get(broken)) do
      if d.code == expected_code then
        found = d
        return true
      end
    end
    return false
  end)
  check('diagnostic ' .. expected_code .. ' on the broken file', found ~= nil
    and found.lnum == 6, vim.inspect(vim.diagnostic.get(broken)))

  -- ------------------------------------------------------------------ one client per root
  local small = open('small.relax')
  local client2 = attached_client(small)
  check('client reused for a second buffer of the same root',
    client2 ~= nil and client2.id == client.id,
    client2 and (client2.id .. ' vs ' .. client.id) or 'no client')
  check('root is the file directory without markers',
    client.config.root_dir == vim.fn.fnamemodify(work, ':p'):gsub('/$', ''),
    tostring(client.config.root_dir))

  local proj = open('proj/sub/nested.relax')
  local client3 = attached_client(proj)
  check('a relax.toml directory is its own root',
    client3 ~= nil and client3.id ~= client.id and client3.config.root_dir == work .. '/proj',
    client3 and tostring(client3.config.root_dir) or 'no client')
  vim.cmd('buffer ' .. small)

  -- ------------------------------------------------------------------ hover
  local uri = vim.uri_from_bufnr(small)
  local result, err = request(small, 'textDocument/hover',
    { textDocument = { uri = uri }, position = { line = 7, character = 8 } })
  local text = hover_text(result)
  check('hover on a tensor variable shows its shape',
    text:find('R.Tensor((128, 128), dtype="float32")', 1, true) ~= nil, err or text)

  -- ------------------------------------------------------------------ completion
  local original = api.nvim_buf_get_lines(small, 0, -1, false)
  api.nvim_buf_set_lines(small, 8, 8, false, { '        t = R.' })
  result, err = request(small, 'textDocument/completion',
    { textDocument = { uri = uri }, position = { line = 8, character = 14 },
      context = { triggerKind = 2, triggerCharacter = '.' } })
  local labels = {}
  for _, item in ipairs(result and (result.items or result) or {}) do
    labels[item.label] = true
    if item.filterText then
      labels[item.filterText] = true
    end
  end
  check('completion after R. offers add and matmul', labels.add and labels.matmul,
    err or keys(labels))
  api.nvim_buf_set_lines(small, 0, -1, false, original)
  vim.bo[small].modified = false

  -- ------------------------------------------------------------------ tree-sitter
  local ts = require('relax.treesitter')
  check('queries registered from syntax/queries',
    vim.tbl_contains(ts.registered_queries or {}, 'highlights')
      and #(ts.failed_queries or {}) == 0,
    vim.inspect({ ts.registered_queries, ts.failed_queries, messages }))
  wait(2000, function()
    return require('vim.treesitter.highlighter').active[small] ~= nil
  end)
  check('tree-sitter highlighting on', require('vim.treesitter.highlighter').active[small] ~= nil)
  local marks = {
    -- row, col, capture, what (small.relax, 0-based)
    { 0, 2, 'comment', 'a comment' },
    { 1, 0, 'keyword.import', 'from' },
    { 1, 25, 'module', 'relax module name R' },
    { 4, 0, 'attribute', '@ of the decorator' },
    { 4, 3, 'attribute', 'R.function' },
    { 5, 0, 'keyword.function', 'def' },
    { 5, 4, 'function', 'the function name' },
    { 5, 9, 'variable.parameter', 'a parameter' },
    { 5, 12, 'module', 'R of R.Tensor' },
    { 5, 14, 'constructor', 'Tensor' },
    { 5, 22, 'number', '128' },
    { 5, 33, 'variable.parameter', 'dtype=' },
    { 5, 40, 'string', 'the dtype string' },
    { 5, 40, 'type.builtin', 'the dtype string' },
    { 6, 4, 'keyword', 'with' },
    { 7, 14, 'function.builtin', 'matmul of R.matmul' },
    { 10, 4, 'keyword.return', 'return' },
  }
  for _, mark in ipairs(marks) do
    local names = captures_at(small, mark[1], mark[2])
    check(string.format('@%s on %s (%d:%d)', mark[3], mark[4], mark[1] + 1, mark[2] + 1),
      names[mark[3]], 'captures: ' .. keys(names))
  end

  -- ------------------------------------------------------------------ :RelaxRun
  api.nvim_win_set_cursor(0, { 8, 8 })
  check('function under the cursor', require('relax.commands').function_at_cursor(small) == 'main')
  local mark = #messages + 1
  vim.cmd('RelaxRun')
  local ran
  wait(20000, function()
    ran = notified('relax%.run main', mark) or notified('failed', mark)
    return ran ~= nil
  end)
  check(':RelaxRun prints the output shape and dtype',
    ran and ran:find('shape (128, 128), dtype float32', 1, true) ~= nil,
    ran or vim.inspect(messages))
  if ran then
    out('    ' .. ran:gsub('\n', '\n    '))
  end

  -- ------------------------------------------------------------------ code lenses
  if vim.lsp.codelens then
    vim.lsp.codelens.refresh()
    local lenses
    wait(10000, function()
      lenses = vim.lsp.codelens.get(small)
      for _, lens in ipairs(lenses or {}) do
        if lens.command and lens.command.command == 'relax.run' then
          return true
        end
      end
      return false
    end)
    local run_lens
    for _, lens in ipairs(lenses or {}) do
      if lens.command and lens.command.command == 'relax.run' then
        run_lens = lens
      end
    end
    if check('code lens relax.run', run_lens ~= nil, vim.inspect(lenses)) then
      api.nvim_win_set_cursor(0, { run_lens.range.start.line + 1, 0 })
      mark = #messages + 1
      vim.lsp.codelens.run()
      local lens_ran
      wait(20000, function()
        lens_ran = notified('relax%.run main', mark) or notified('failed', mark)
        return lens_ran ~= nil
      end)
      check('running the lens shows the result (vim.lsp.commands)',
        lens_ran and lens_ran:find('shape (128, 128)', 1, true) ~= nil,
        lens_ran or vim.inspect(messages))
    end
  end

  -- ------------------------------------------------------------------ :RelaxShowIR
  local before = api.nvim_get_current_buf()
  vim.cmd('RelaxShowIR LegalizeOps')
  wait(20000, function()
    return api.nvim_get_current_buf() ~= before
  end)
  local ir = api.nvim_get_current_buf()
  local ir_text = buf_text(ir)
  check(':RelaxShowIR opens a read-only relax scratch buffer',
    ir ~= before and vim.bo[ir].filetype == 'relax' and vim.bo[ir].buftype == 'nofile'
      and not vim.bo[ir].modifiable and ir_text:find('def main', 1, true) ~= nil,
    string.format('buf %d ft=%s bt=%s %s', ir, vim.bo[ir].filetype, vim.bo[ir].buftype,
      ir_text:sub(1, 200) .. vim.inspect(messages)))
  check('no language server on the scratch buffer', #relax_clients(ir) == 0)
  if ir ~= before then
    vim.cmd('close')
  end
  vim.cmd('buffer ' .. small)

  -- ------------------------------------------------------------------ formatting
  local bad = open('unformatted.relax')
  local bad_client = attached_client(bad)
  local bad_text = buf_text(bad)
  local expected = vim.fn.system({ relax_bin, 'fmt', '-' }, bad_text)
  check('relax fmt - formats the fixture', vim.v.shell_error == 0 and expected ~= bad_text,
    'exit ' .. vim.v.shell_error .. ': ' .. expected)
  if bad_client then
    require('relax.lsp').format(bad, 5000)
  end
  check('formatting rewrites the buffer as relax fmt does', buf_text(bad) == expected,
    'got:\n' .. buf_text(bad) .. '\nwant:\n' .. expected)

  require('relax').setup({ format_on_save = true })
  api.nvim_buf_set_lines(bad, 0, -1, false, vim.split((bad_text:gsub('\n$', '')), '\n', { plain = true }))
  vim.cmd('silent write')
  local file = io.open(work .. '/unformatted.relax', 'r')
  local saved = file and file:read('*a') or ''
  if file then
    file:close()
  end
  check('format on save', saved == expected, saved)
  require('relax').setup({ format_on_save = false })

  -- ------------------------------------------------------------------ :RelaxRestart
  vim.cmd('buffer ' .. small)
  local old_id = relax_clients(small)[1] and relax_clients(small)[1].id
  vim.cmd('RelaxRestart')
  local new
  wait(10000, function()
    new = relax_clients(small)[1]
    return new ~= nil and new.id ~= old_id and new.server_capabilities ~= nil
      and next(new.server_capabilities) ~= nil
  end)
  check(':RelaxRestart starts a new client', new ~= nil and new.id ~= old_id,
    vim.inspect(messages))
end

local ok, err = xpcall(run, debug.traceback)
if not ok then
  fail('test script', err)
end
finish()
