-- The tree-sitter side: load parser/relax.so and register the queries of syntax/queries/
-- (one home for them) unless nvim-treesitter or the user put queries/relax/*.scm on the
-- runtimepath.

local relax = require('relax')

local M = {}

local QUERY_NAMES = { 'highlights', 'folds', 'indents', 'locals', 'injections' }

local function has(feature)
  return vim.fn.has(feature) == 1
end

local language_state -- nil: not tried; true/false: loaded or not
local queries_done = false

--- Path of the parser library, or nil.
function M.parser_path()
  local path = relax.config().parser_path
  if path then
    return vim.fn.expand(path)
  end
  local found = vim.api.nvim_get_runtime_file('parser/relax.so', false)
  if #found == 0 then
    found = vim.api.nvim_get_runtime_file('parser/relax.*', false)
  end
  return found[1]
end

--- Load the `relax` language into Neovim. Returns true when it is available.
function M.ensure_language()
  if language_state ~= nil then
    return language_state
  end
  local path = M.parser_path()
  if not path then
    language_state = false
    relax.notify_once('no-parser', "no tree-sitter parser (parser/relax.so on 'runtimepath'); "
      .. 'highlighting is off, the language server still works. Build it with the relax '
      .. 'project (or see editors/nvim/README.md).', vim.log.levels.INFO)
    return false
  end
  local language = vim.treesitter.language
  local ok, err
  if language.add then -- 0.9+
    ok, err = pcall(language.add, 'relax', { path = path })
  else -- 0.7, 0.8
    ok, err = pcall(language.require_language, 'relax', path)
  end
  if ok then
    -- 0.11 add() reports failure as `nil, message` instead of raising: check it loaded.
    local inspect = language.inspect or language.inspect_language
    local loaded = pcall(inspect, 'relax')
    if not loaded then
      ok = false
      err = err or 'not loaded'
    end
  end
  if not ok then
    language_state = false
    relax.notify_once('bad-parser', 'cannot load the tree-sitter parser ' .. path .. ': '
      .. tostring(err), vim.log.levels.WARN)
    return false
  end
  language_state = true
  return true
end

--- The directory holding the .scm files.
function M.queries_dir()
  local dir = relax.config().queries_dir
  if dir then
    return vim.fn.fnamemodify(vim.fn.expand(dir), ':p')
  end
  return vim.fn.simplify(relax.plugin_root() .. '/../../syntax/queries')
end

local function read_file(path)
  local file = io.open(path, 'r')
  if not file then
    return nil
  end
  local text = file:read('*a')
  file:close()
  return text
end

-- Before 0.9 the injection captures were @content / "language" (0.9 renamed them to
-- @injection.content / injection.language).
local function adapt(name, text)
  if name == 'injections' and not has('nvim-0.9') then
    text = text:gsub('@injection%.content', '@content')
    text = text:gsub('injection%.language', 'language')
  end
  return text
end

local function parse_query(text)
  local query = vim.treesitter.query
  if query.parse then -- 0.9+
    return query.parse('relax', text)
  end
  return query.parse_query('relax', text)
end

-- A predicate or directive this Neovim has no handler for makes matching raise at run time
-- (after the query parsed): find them first. Returns a description or nil.
local function unsupported_constructs(parsed)
  local query = vim.treesitter.query
  if not (parsed and parsed.info and parsed.info.patterns and query.list_predicates) then
    return nil
  end
  local known = {}
  for _, name in ipairs(query.list_predicates()) do
    known[name] = true
  end
  for _, name in ipairs(query.list_directives and query.list_directives() or {}) do
    known[name] = true
  end
  local missing, seen = {}, {}
  for _, predicates in pairs(parsed.info.patterns) do
    for _, predicate in ipairs(predicates) do
      local name = type(predicate) == 'table' and predicate[1]
      if type(name) == 'string' then
        local base = name:gsub('^not%-', '')
        if not known[base] and not known[name] and not seen[name] then
          seen[name] = true
          table.insert(missing, '#' .. name)
        end
      end
    end
  end
  if #missing == 0 then
    return nil
  end
  table.sort(missing)
  return 'no handler for ' .. table.concat(missing, ', ')
end

local function set_query(name, text)
  local query = vim.treesitter.query
  if query.set then -- 0.9+
    return query.set('relax', name, text)
  end
  return query.set_query('relax', name, text)
end

-- 0.7 maps capture names to highlight groups with a fixed table (0.8 links @captures to
-- groups instead); give the 0.10-style names the queries use a sensible group there, without
-- overriding what nvim-treesitter or the user set.
local legacy_groups = {
  ['variable.builtin'] = 'Special',
  ['variable.member'] = 'Identifier',
  ['variable.parameter'] = 'Identifier',
  ['attribute'] = 'PreProc',
  ['module'] = 'Include',
  ['number.float'] = 'Float',
  ['keyword.conditional'] = 'Conditional',
  ['keyword.repeat'] = 'Repeat',
  ['keyword.import'] = 'Include',
  ['keyword.exception'] = 'Exception',
  ['keyword.operator'] = 'Operator',
}

local function patch_legacy_hl_map()
  if has('nvim-0.8') then
    return
  end
  local ok, highlighter = pcall(require, 'vim.treesitter.highlighter')
  local map = ok and highlighter.hl_map
  if type(map) ~= 'table' then
    return
  end
  for capture, group in pairs(legacy_groups) do
    local current = rawget(map, capture)
    if current == nil or current == '__notfound' then
      rawset(map, capture, group)
    end
  end
end

--- Register the queries (once). Returns the names that failed.
function M.ensure_queries()
  if queries_done then
    return M.failed_queries
  end
  queries_done = true
  M.failed_queries = {}
  M.registered_queries = {}
  local dir = M.queries_dir()
  for _, name in ipairs(QUERY_NAMES) do
    local provided = vim.api.nvim_get_runtime_file('queries/relax/' .. name .. '.scm', true)
    if #provided == 0 then
      local text = read_file(dir .. '/' .. name .. '.scm')
      if not text then
        if name == 'highlights' then
          relax.notify_once('no-queries', 'no tree-sitter queries in ' .. dir
            .. " (set require('relax').setup{queries_dir = ...}); highlighting is off")
          table.insert(M.failed_queries, name)
        end
      else
        text = adapt(name, text)
        local ok, err = pcall(parse_query, text)
        if ok then
          local missing = unsupported_constructs(err)
          if missing then
            ok, err = false, missing
          else
            ok, err = pcall(set_query, name, text)
          end
        end
        if ok then
          table.insert(M.registered_queries, name)
        else
          table.insert(M.failed_queries, name)
          relax.notify_once('query-' .. name, 'the ' .. name .. '.scm query is not usable on '
            .. 'this Neovim (' .. tostring(err) .. '); it is not used', vim.log.levels.WARN)
        end
      end
    end
  end
  patch_legacy_hl_map()
  return M.failed_queries
end

local function highlights_usable()
  for _, name in ipairs(M.failed_queries or {}) do
    if name == 'highlights' then
      return false
    end
  end
  return true
end

--- Start tree-sitter highlighting for a buffer (unless something already did).
function M.attach(bufnr)
  if not M.ensure_language() then
    return false
  end
  M.ensure_queries()
  if not relax.config().highlight or not highlights_usable() then
    return true
  end
  vim.schedule(function()
    if not vim.api.nvim_buf_is_valid(bufnr) or vim.bo[bufnr].filetype ~= 'relax' then
      return
    end
    local highlighter = require('vim.treesitter.highlighter')
    if highlighter.active[bufnr] then -- nvim-treesitter or the user was first
      return
    end
    local ok, err
    if vim.treesitter.start then -- 0.8+
      ok, err = pcall(vim.treesitter.start, bufnr, 'relax')
    else
      ok, err = pcall(function()
        highlighter.new(vim.treesitter.get_parser(bufnr, 'relax'))
      end)
    end
    if not ok then
      relax.notify_once('highlight', 'tree-sitter highlighting failed: ' .. tostring(err))
    end
  end)
  return true
end

--- The name of the outermost function around the cursor (module functions), or nil.
function M.function_at(bufnr, row, col)
  if not M.ensure_language() then
    return nil
  end
  local ok, parser = pcall(vim.treesitter.get_parser, bufnr, 'relax')
  if not ok or not parser then
    return nil
  end
  local tree = parser:parse()[1]
  if not tree then
    return nil
  end
  local node = tree:root():named_descendant_for_range(row, col, row, col)
  local name
  while node do
    if node:type() == 'function_definition' then
      local name_node = node:field('name')[1]
      if name_node then
        local srow, scol, _, ecol = name_node:range()
        local line = vim.api.nvim_buf_get_lines(bufnr, srow, srow + 1, false)[1] or ''
        name = line:sub(scol + 1, ecol)
      end
    end
    node = node:parent()
  end
  return name
end

return M
