-- The language server side: start `relax lsp` once per project root, attach .relax buffers,
-- code lenses, format on save, inlay hints, settings.

local relax = require('relax')

local M = {}

local uv = vim.uv or vim.loop
local api = vim.api

local function has(feature)
  return vim.fn.has(feature) == 1
end

-- Client ids this plugin started, by root directory.
local clients_by_root = {}
-- Ids of the clients this plugin started (for :RelaxRestart).
local own_clients = {}

-- ---------------------------------------------------------------------------- client helpers

local function client_method(client, name, ...)
  if has('nvim-0.11') then
    return client[name](client, ...)
  end
  return client[name](...)
end

function M.request(client, method, params, handler, bufnr)
  return client_method(client, 'request', method, params, handler, bufnr)
end

function M.notify(client, method, params)
  return client_method(client, 'notify', method, params)
end

local function is_stopped(client)
  if has('nvim-0.11') then
    return client:is_stopped()
  end
  return client.is_stopped()
end

local function stop(client)
  if has('nvim-0.11') then
    return client:stop()
  end
  return client.stop()
end

local function all_clients()
  if vim.lsp.get_clients then -- 0.10+
    return vim.lsp.get_clients()
  end
  return vim.lsp.get_active_clients()
end

local function is_relax_client(client)
  if client.name == 'relax' then
    return true
  end
  local provider = client.server_capabilities and client.server_capabilities.executeCommandProvider
  return type(provider) == 'table' and vim.tbl_contains(provider.commands or {}, 'relax.run')
end

--- The relax clients attached to a buffer.
function M.clients(bufnr)
  local result = {}
  for _, client in ipairs(all_clients()) do
    if is_relax_client(client) and not is_stopped(client)
      and vim.lsp.buf_is_attached(bufnr, client.id) then
      table.insert(result, client)
    end
  end
  return result
end

-- ---------------------------------------------------------------------------- configuration

-- Lists in the settings stay lists; every other empty table goes out as a JSON object, not [].
local LIST_KEYS = { select = true, ignore = true, extendSelect = true, fixable = true, unfixable = true }

local function normalize(value, key)
  if type(value) ~= 'table' then
    return value
  end
  if next(value) == nil then
    if LIST_KEYS[key] then
      return value
    end
    return vim.empty_dict()
  end
  local out = {}
  for k, v in pairs(value) do
    out[k] = normalize(v, k)
  end
  return out
end

function M.server_settings()
  return { relax = normalize(relax.config().settings or {}, 'relax') }
end

--- Send the settings to every running relax client.
function M.settings_changed()
  local settings = M.server_settings()
  for _, client in ipairs(all_clients()) do
    if is_relax_client(client) and not is_stopped(client) and client.initialized ~= false then
      client.config.settings = settings
      if client.settings then -- 0.11 keeps a copy on the client
        client.settings = settings
      end
      M.notify(client, 'workspace/didChangeConfiguration', { settings = settings })
    end
  end
end

--- The project root of a file: the nearest directory with a root marker, else its directory.
function M.find_root(path)
  local dir = vim.fn.fnamemodify(path, ':p:h')
  local markers = relax.config().root_markers or {}
  local current = dir
  while current and current ~= '' do
    for _, marker in ipairs(markers) do
      if uv.fs_stat(current .. '/' .. marker) then
        return current
      end
    end
    local parent = vim.fn.fnamemodify(current, ':h')
    if parent == current then
      break
    end
    current = parent
  end
  return dir
end

-- Another configuration owns `relax`: nvim-lspconfig (`configs.relax`) or vim.lsp.enable().
local function managed_elsewhere()
  local configs = package.loaded['lspconfig.configs']
  if type(configs) == 'table' and rawget(configs, 'relax') ~= nil then
    return 'nvim-lspconfig'
  end
  if vim.lsp.is_enabled then
    local ok, enabled = pcall(vim.lsp.is_enabled, 'relax')
    if ok and enabled then
      return 'vim.lsp.enable'
    end
  elseif type(vim.lsp._enabled_configs) == 'table' and vim.lsp._enabled_configs.relax then
    return 'vim.lsp.enable'
  end
  return nil
end

-- ---------------------------------------------------------------------------- per buffer

local function refresh_codelens(bufnr)
  if not relax.config().codelens or not vim.lsp.codelens then
    return
  end
  if has('nvim-0.10') then
    pcall(vim.lsp.codelens.refresh, { bufnr = bufnr })
  elseif api.nvim_get_current_buf() == bufnr then
    pcall(vim.lsp.codelens.refresh)
  end
end

function M.format(bufnr, timeout_ms)
  timeout_ms = timeout_ms or 3000
  if vim.lsp.buf.format then -- 0.8+
    vim.lsp.buf.format({
      bufnr = bufnr,
      timeout_ms = timeout_ms,
      filter = function(client)
        return is_relax_client(client)
      end,
    })
  else
    api.nvim_buf_call(bufnr, function()
      vim.lsp.buf.formatting_sync(nil, timeout_ms)
    end)
  end
end

local function enable_inlay_hints(client, bufnr)
  local inlay = vim.lsp.inlay_hint
  if not relax.config().inlay_hints or type(inlay) ~= 'table' or not inlay.enable then
    return
  end
  if not (client.server_capabilities and client.server_capabilities.inlayHintProvider) then
    return
  end
  -- 0.10+: enable(bool, {bufnr}); early 0.10 nightlies: enable(bufnr, bool).
  if not pcall(inlay.enable, true, { bufnr = bufnr }) then
    pcall(inlay.enable, bufnr, true)
  end
end

local function on_attach(client, bufnr)
  if vim.bo[bufnr].omnifunc == '' then
    vim.bo[bufnr].omnifunc = 'v:lua.vim.lsp.omnifunc'
  end
  local group = api.nvim_create_augroup('relax_buffer_' .. bufnr, { clear = true })
  api.nvim_create_autocmd('BufWritePre', {
    group = group,
    buffer = bufnr,
    desc = 'relax: format on save',
    callback = function()
      if relax.config().format_on_save then
        M.format(bufnr, 3000)
      end
    end,
  })
  local caps = client.server_capabilities or {}
  if caps.codeLensProvider and vim.lsp.codelens then
    api.nvim_create_autocmd({ 'BufEnter', 'BufWritePost', 'InsertLeave' }, {
      group = group,
      buffer = bufnr,
      desc = 'relax: refresh code lenses',
      callback = function()
        refresh_codelens(bufnr)
      end,
    })
    refresh_codelens(bufnr)
  end
  enable_inlay_hints(client, bufnr)
  local user = relax.config().on_attach
  if user then
    user(client, bufnr)
  end
end

local function client_config(root)
  local cfg = relax.config()
  local capabilities = vim.lsp.protocol.make_client_capabilities()
  if cfg.capabilities then
    capabilities = vim.tbl_deep_extend('force', capabilities, cfg.capabilities)
  end
  local settings = M.server_settings()
  return {
    name = 'relax',
    cmd = cfg.cmd,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = root } },
    capabilities = capabilities,
    init_options = settings,
    settings = settings,
    on_init = function(client)
      -- 0.8+ sends didChangeConfiguration by itself after `initialized` when settings are set.
      if not has('nvim-0.8') then
        M.notify(client, 'workspace/didChangeConfiguration', { settings = settings })
      end
    end,
    on_attach = on_attach,
    on_exit = function(_, _, client_id)
      own_clients[client_id] = nil
      for key, id in pairs(clients_by_root) do
        if id == client_id then
          clients_by_root[key] = nil
        end
      end
    end,
  }
end

--- Attach a buffer to the relax client of its root, starting it if needed.
function M.attach(bufnr)
  if vim.bo[bufnr].buftype ~= '' then
    return
  end
  local path = api.nvim_buf_get_name(bufnr)
  if path == '' then
    return
  end
  if #M.clients(bufnr) > 0 then
    return
  end
  local other = managed_elsewhere()
  if other then
    return
  end
  local cmd = relax.config().cmd
  if type(cmd) ~= 'table' or not cmd[1] or vim.fn.executable(cmd[1]) ~= 1 then
    relax.notify_once('no-server', string.format("'%s' is not executable (put relax on $PATH or "
      .. "set require('relax').setup{cmd = {...}}); the language server is off",
      type(cmd) == 'table' and tostring(cmd[1]) or tostring(cmd)))
    return
  end
  local root = M.find_root(path)
  local config = client_config(root)
  local client_id
  if vim.lsp.start then -- 0.8+
    api.nvim_buf_call(bufnr, function()
      client_id = vim.lsp.start(config, {
        bufnr = bufnr,
        reuse_client = function(client, conf)
          return client.name == conf.name and client.config.root_dir == conf.root_dir
            and not is_stopped(client)
        end,
      })
    end)
  else -- 0.7
    client_id = clients_by_root[root]
    local client = client_id and vim.lsp.get_client_by_id(client_id)
    if not client or is_stopped(client) then
      client_id = vim.lsp.start_client(config)
    end
    if client_id then
      vim.lsp.buf_attach_client(bufnr, client_id)
    end
  end
  if client_id then
    clients_by_root[root] = client_id
    own_clients[client_id] = true
  end
  return client_id
end

--- :RelaxRestart: stop the clients this plugin started and attach the .relax buffers again.
function M.restart()
  local stopping = {}
  for _, client in ipairs(all_clients()) do
    if own_clients[client.id] then
      table.insert(stopping, client)
      stop(client)
    end
  end
  if #stopping == 0 and managed_elsewhere() then
    vim.notify('relax: the server is configured by ' .. managed_elsewhere()
      .. '; use :LspRestart', vim.log.levels.INFO)
    return
  end
  clients_by_root = {}
  own_clients = {}
  local deadline = uv.now() + 3000
  local function reattach()
    local pending = false
    for _, client in ipairs(stopping) do
      if not is_stopped(client) then
        pending = true
      end
    end
    if pending and uv.now() < deadline then
      vim.defer_fn(reattach, 50)
      return
    end
    for _, bufnr in ipairs(api.nvim_list_bufs()) do
      if api.nvim_buf_is_loaded(bufnr) and vim.bo[bufnr].filetype == 'relax' then
        M.attach(bufnr)
      end
    end
    vim.notify('relax: language server restarted', vim.log.levels.INFO)
  end
  vim.defer_fn(reattach, 50)
end

return M
