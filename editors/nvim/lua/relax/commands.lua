-- :RelaxRun, :RelaxShowIR, :RelaxRestart, and the client side of the server commands
-- `relax.run` / `relax.showIR` (so that code lenses show their results).

local relax = require('relax')
local rlsp = require('relax.lsp')

local api = vim.api

local M = {}

-- The default CPU pipeline (docs/cli.md, `relax passes`), for completion only.
M.pipeline = {
  'CanonicalizeBindings', 'DeadCodeElimination', 'LegalizeOps', 'FoldConstant',
  'DefaultCPUSchedule', 'LambdaLift', 'ToNonDataflow', 'RemovePurityChecking', 'CallTIRRewrite',
  'StaticPlanBlockMemory', 'LowerAllocTensor', 'KillAfterLastUse', 'LowerRuntimeBuiltin',
  'VMShapeLower',
}

local function err_message(err)
  if type(err) == 'table' then
    return err.message or vim.inspect(err)
  end
  return tostring(err)
end

local function client_for(bufnr)
  local clients = rlsp.clients(bufnr)
  if #clients == 0 then
    vim.notify('relax: no relax language server is attached to this buffer (see :LspInfo)',
      vim.log.levels.ERROR)
    return nil
  end
  return clients[1]
end

local function execute(client, bufnr, command, argument, on_result)
  local params = { command = command, arguments = { argument } }
  rlsp.request(client, 'workspace/executeCommand', params, function(err, result)
    if err then
      vim.notify('relax: ' .. command .. ' failed: ' .. err_message(err), vim.log.levels.ERROR)
      return
    end
    on_result(result)
  end, bufnr)
end

-- ---------------------------------------------------------------------------- relax.run

local function format_shape(shape)
  if type(shape) ~= 'table' then
    return tostring(shape)
  end
  local parts = {}
  for _, dim in ipairs(shape) do
    table.insert(parts, tostring(dim))
  end
  if #parts == 1 then
    return '(' .. parts[1] .. ',)'
  end
  return '(' .. table.concat(parts, ', ') .. ')'
end

local function format_ms(value)
  if type(value) ~= 'number' then
    return '?'
  end
  return string.format('%.2f ms', value)
end

--- The text :RelaxRun shows for a `relax.run` result.
function M.format_run_result(result)
  result = result or {}
  local outputs = result.outputs or {}
  local lines = {
    string.format('relax.run %s: %d output%s (compile %s, run %s)', tostring(result['function']
      or '?'), #outputs, #outputs == 1 and '' or 's', format_ms(result.compileMs),
      format_ms(result.runMs)),
  }
  for i, output in ipairs(outputs) do
    local line = string.format('  [%d] shape %s, dtype %s', i - 1, format_shape(output.shape),
      tostring(output.dtype))
    if output.summary and output.summary ~= vim.NIL and output.summary ~= '' then
      line = line .. ': ' .. tostring(output.summary)
    end
    table.insert(lines, line)
  end
  return table.concat(lines, '\n')
end

local function show_run_result(result)
  vim.notify(M.format_run_result(result), vim.log.levels.INFO)
end

-- The outermost `def` around a line, without tree-sitter.
local function function_at_regex(bufnr, row)
  local lines = api.nvim_buf_get_lines(bufnr, 0, row + 1, false)
  local name, indent
  for i = #lines, 1, -1 do
    local lead, found = lines[i]:match('^(%s*)def%s+([%w_]+)')
    if found and (indent == nil or #lead < indent) then
      name, indent = found, #lead
      if indent == 0 then
        break
      end
    elseif not found and indent and lines[i]:match('^%S') and not lines[i]:match('^[@#]') then
      break -- a class or module-level line: the function is done
    end
  end
  return name
end

--- The function the cursor is in (the outermost one), or nil.
function M.function_at_cursor(bufnr)
  local cursor = api.nvim_win_get_cursor(0)
  local row, col = cursor[1] - 1, cursor[2]
  local ok, name = pcall(require('relax.treesitter').function_at, bufnr, row, col)
  if ok and name then
    return name
  end
  return function_at_regex(bufnr, row)
end

function M.run(bufnr, func)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local client = client_for(bufnr)
  if not client then
    return
  end
  if not func or func == '' then
    func = M.function_at_cursor(bufnr) or 'main'
  end
  local argument = { uri = vim.uri_from_bufnr(bufnr), ['function'] = func }
  vim.notify('relax: running ' .. func .. ' ...', vim.log.levels.INFO)
  execute(client, bufnr, 'relax.run', argument, show_run_result)
end

-- ---------------------------------------------------------------------------- relax.showIR

local function unique_name(base)
  local name, n = base, 1
  while vim.fn.bufexists(name) == 1 do
    n = n + 1
    name = base .. ' (' .. n .. ')'
  end
  return name
end

--- Open text in a new read-only scratch buffer with filetype relax.
function M.open_scratch(text, title, mods)
  vim.cmd(((mods and mods ~= '') and (mods .. ' ') or '') .. 'new')
  local buf = api.nvim_get_current_buf()
  vim.bo[buf].buftype = 'nofile'
  vim.bo[buf].bufhidden = 'wipe'
  vim.bo[buf].swapfile = false
  local lines = vim.split(text or '', '\n', { plain = true })
  if #lines > 1 and lines[#lines] == '' then
    table.remove(lines)
  end
  api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  pcall(api.nvim_buf_set_name, buf, unique_name(title))
  vim.bo[buf].modified = false
  vim.bo[buf].modifiable = false
  vim.bo[buf].readonly = true
  vim.bo[buf].filetype = 'relax'
  api.nvim_buf_set_keymap(buf, 'n', 'q', '<cmd>close<cr>', { noremap = true, silent = true })
  return buf
end

function M.show_ir(bufnr, pass, tir, mods)
  bufnr = (bufnr == nil or bufnr == 0) and api.nvim_get_current_buf() or bufnr
  local client = client_for(bufnr)
  if not client then
    return
  end
  local argument = { uri = vim.uri_from_bufnr(bufnr) }
  if pass and pass ~= '' then
    argument.pass = pass
  end
  if tir then
    argument.tir = true
  end
  local stem = vim.fn.fnamemodify(api.nvim_buf_get_name(bufnr), ':t')
  local title = string.format('relax-ir://%s [%s%s]', stem, argument.pass or 'pipeline',
    tir and ', TIR' or '')
  execute(client, bufnr, 'relax.showIR', argument, function(result)
    M.open_scratch(result and result.text or '', title, mods)
  end)
end

-- ---------------------------------------------------------------------------- registration

local function lens_argument(command)
  local argument = command.arguments and command.arguments[1]
  if type(argument) ~= 'table' then
    argument = {}
  end
  return argument
end

local function lens_client(ctx)
  local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
  return client or client_for(ctx and ctx.bufnr or api.nvim_get_current_buf())
end

--- vim.lsp.commands handlers: run the lens's command and show what it answers.
function M.register_client_commands()
  vim.lsp.commands['relax.run'] = function(command, ctx)
    local client = lens_client(ctx)
    if not client then
      return
    end
    local argument = lens_argument(command)
    vim.notify('relax: running ' .. tostring(argument['function'] or 'main') .. ' ...',
      vim.log.levels.INFO)
    execute(client, ctx and ctx.bufnr, 'relax.run', argument, show_run_result)
  end
  vim.lsp.commands['relax.showIR'] = function(command, ctx)
    local client = lens_client(ctx)
    if not client then
      return
    end
    local argument = lens_argument(command)
    local title = string.format('relax-ir://%s [%s]', vim.fn.fnamemodify(
      vim.uri_to_fname(argument.uri or vim.uri_from_bufnr(0)), ':t'), argument.pass or 'pipeline')
    execute(client, ctx and ctx.bufnr, 'relax.showIR', argument, function(result)
      M.open_scratch(result and result.text or '', title, '')
    end)
  end
end

local function complete_functions()
  local names = {}
  for _, line in ipairs(api.nvim_buf_get_lines(0, 0, -1, false)) do
    local name = line:match('^%s*def%s+([%w_]+)')
    if name then
      table.insert(names, name)
    end
  end
  return names
end

local function filter(items, lead)
  local out = {}
  for _, item in ipairs(items) do
    if item:sub(1, #lead) == lead then
      table.insert(out, item)
    end
  end
  return out
end

function M.create_user_commands()
  api.nvim_create_user_command('RelaxRun', function(opts)
    M.run(0, opts.args)
  end, {
    nargs = '?',
    desc = 'Run a Relax function on the VM (default: the one under the cursor, else main)',
    complete = function(lead)
      return filter(complete_functions(), lead)
    end,
  })
  api.nvim_create_user_command('RelaxShowIR', function(opts)
    M.show_ir(0, opts.args, opts.bang, opts.mods)
  end, {
    nargs = '?',
    bang = true,
    desc = 'Show the module after a pass of the default pipeline (no pass: all; !: the TIR)',
    complete = function(lead)
      return filter(M.pipeline, lead)
    end,
  })
  api.nvim_create_user_command('RelaxRestart', function()
    rlsp.restart()
  end, { desc = 'Restart the relax language server' })
  api.nvim_create_user_command('RelaxFormat', function()
    rlsp.format(api.nvim_get_current_buf(), 3000)
  end, { desc = 'Format the buffer with the relax formatter' })
end

return M
