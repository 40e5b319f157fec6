-- :checkhealth relax

local M = {}

local function reporter()
  local h = vim.health
  if h and h.start then -- 0.10+
    return h.start, h.ok, h.warn, h.error, h.info
  end
  if h and h.report_start then -- 0.8, 0.9
    return h.report_start, h.report_ok, h.report_warn, h.report_error, h.report_info
  end
  local fn = vim.fn -- 0.7
  return fn['health#report_start'], fn['health#report_ok'], fn['health#report_warn'],
    fn['health#report_error'], fn['health#report_info']
end

function M.check()
  local start, ok, warn, err, info = reporter()
  local relax = require('relax')
  local config = relax.config()

  start('relax: language server')
  local cmd = config.cmd or {}
  if cmd[1] and vim.fn.executable(cmd[1]) == 1 then
    ok('server command: ' .. table.concat(cmd, ' ') .. ' (' .. vim.fn.exepath(cmd[1]) .. ')')
  else
    err("'" .. tostring(cmd[1]) .. "' is not executable: put relax on $PATH or set "
      .. "require('relax').setup{cmd = {...}}")
  end
  local running = 0
  for _, client in ipairs((vim.lsp.get_clients or vim.lsp.get_active_clients)()) do
    if client.name == 'relax' then
      running = running + 1
      local buffers = vim.lsp.get_buffers_by_client_id(client.id)
      ok(string.format('client %d: root %s, %d buffer(s)', client.id,
        tostring(client.config.root_dir), #buffers))
    end
  end
  if running == 0 then
    info('no relax client running (one starts when a .relax file is opened)')
  end

  start('relax: tree-sitter')
  local ts = require('relax.treesitter')
  local path = ts.parser_path()
  if not path then
    warn("no parser/relax.so on 'runtimepath' (highlighting is off)")
  elseif ts.ensure_language() then
    ok('parser: ' .. path)
  else
    err('parser does not load: ' .. path)
  end
  info('queries: ' .. ts.queries_dir())
  if path and ts.ensure_language() then
    ts.ensure_queries()
    if #(ts.registered_queries or {}) > 0 then
      ok('registered: ' .. table.concat(ts.registered_queries, ', '))
    end
    if #(ts.failed_queries or {}) > 0 then
      warn('not usable: ' .. table.concat(ts.failed_queries, ', '))
    end
  end
end

return M
