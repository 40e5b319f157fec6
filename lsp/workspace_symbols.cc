#include "lsp/workspace_symbols.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

namespace relax::lsp {

namespace fs = std::filesystem;

namespace {

constexpr int kModuleKind = 2, kFunctionKind = 12;

using syntax::Field;
using syntax::Node;
using syntax::NodeKind;

// The definition a decorated definition wraps, or the node itself.
Node definition_of(Node n) {
  if (n.kind() == NodeKind::kDecoratedDefinition) return n.field(Field::kDefinition);
  return n;
}

char lower(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

bool iequal(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

}  // namespace

std::vector<WorkspaceSymbol> file_symbols(const syntax::SyntaxTree& tree, ir::Encoding encoding) {
  std::vector<WorkspaceSymbol> out;
  ir::SourceFile file("", tree.text());
  PositionMap map(file, encoding);
  auto add = [&](Node def, int kind, const std::string& container) {
    Node name = def.field(Field::kName);
    if (!name || name.kind() != NodeKind::kIdentifier) return std::string();
    WorkspaceSymbol s;
    s.name = std::string(name.text());
    s.kind = kind;
    s.container = container;
    s.range = map.range(name.start(), name.end());
    out.push_back(std::move(s));
    return out.back().name;
  };
  // Only two levels: the module's statements and a class's body (no recursion).
  for (Node top : tree.root().named_children()) {
    Node def = definition_of(top);
    if (def.kind() == NodeKind::kFunctionDefinition) {
      add(def, kFunctionKind, "");
    } else if (def.kind() == NodeKind::kClassDefinition) {
      std::string module = add(def, kModuleKind, "");
      Node body = def.field(Field::kBody);
      if (!body) continue;
      for (Node member : body.named_children()) {
        Node f = definition_of(member);
        if (f.kind() == NodeKind::kFunctionDefinition) add(f, kFunctionKind, module);
      }
    }
  }
  return out;
}

int symbol_match_score(std::string_view query, std::string_view name) {
  if (query.empty()) return 1;
  if (name == query) return 6;
  if (iequal(name, query)) return 5;
  if (name.substr(0, query.size()) == query) return 4;
  if (iequal(name.substr(0, query.size()), query)) return 3;
  std::string lname, lquery;
  for (char c : name) lname.push_back(lower(c));
  for (char c : query) lquery.push_back(lower(c));
  if (lname.find(lquery) != std::string::npos) return 2;
  size_t at = 0;
  for (char c : lquery) {
    at = lname.find(c, at);
    if (at == std::string::npos) return 0;
    ++at;
  }
  return 1;
}

json match_symbols(const std::map<std::string, std::vector<WorkspaceSymbol>>& symbols,
                   const std::string& query, size_t limit) {
  struct Hit {
    int score;
    const std::string* uri;
    const WorkspaceSymbol* symbol;
  };
  std::vector<Hit> hits;
  for (const auto& [uri, list] : symbols)
    for (const WorkspaceSymbol& s : list)
      if (int score = symbol_match_score(query, s.name)) hits.push_back({score, &uri, &s});
  std::stable_sort(hits.begin(), hits.end(), [](const Hit& a, const Hit& b) {
    if (a.score != b.score) return a.score > b.score;
    if (a.symbol->name.size() != b.symbol->name.size())
      return a.symbol->name.size() < b.symbol->name.size();
    return a.symbol->name < b.symbol->name;
  });
  if (hits.size() > limit) hits.resize(limit);
  json out = json::array();
  for (const Hit& h : hits) {
    json item = {{"name", h.symbol->name},
                 {"kind", h.symbol->kind},
                 {"location", {{"uri", *h.uri}, {"range", h.symbol->range}}}};
    if (!h.symbol->container.empty()) item["containerName"] = h.symbol->container;
    out.push_back(std::move(item));
  }
  return out;
}

WorkspaceIndex::~WorkspaceIndex() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

void WorkspaceIndex::start(std::vector<fs::path> folders) {
  if (thread_.joinable()) return;
  thread_ = std::thread([this, folders = std::move(folders)] {
    size_t files = 0, entries = 0;
    for (const fs::path& folder : folders) {
      std::error_code ec;
      fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied,
                                          ec);
      for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (stop_ || files >= kMaxFiles || ++entries > kMaxEntries) break;
        const fs::path& path = it->path();
        std::string name = path.filename().string();
        std::error_code type_ec;
        if (it->is_directory(type_ec)) {
          // Hidden folders (.git) and package folders hold no sources of the workspace.
          if ((!name.empty() && name[0] == '.') || name == "node_modules" ||
              it.depth() >= kMaxDepth)
            it.disable_recursion_pending();
          continue;
        }
        if (path.extension() != ".relax" || !it->is_regular_file(type_ec)) continue;
        index_file(path);
        ++files;
      }
    }
    done_ = true;
  });
}

void WorkspaceIndex::index_file(const fs::path& file) {
  std::error_code ec;
  uintmax_t size = fs::file_size(file, ec);
  std::string uri = path_to_uri(fs::absolute(file, ec).lexically_normal().string());
  if (ec || size > kMaxFileBytes) return remove(file);
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) return remove(file);
  auto tree = syntax::SyntaxTree::parse(text.str());
  std::vector<WorkspaceSymbol> symbols = file_symbols(*tree, encoding_);
  std::lock_guard<std::mutex> lock(mutex_);
  files_[uri] = std::move(symbols);
}

void WorkspaceIndex::update(const fs::path& file) {
  if (file.extension() == ".relax") index_file(file);
}

void WorkspaceIndex::remove(const fs::path& file) {
  std::error_code ec;
  std::string uri = path_to_uri(fs::absolute(file, ec).lexically_normal().string());
  std::lock_guard<std::mutex> lock(mutex_);
  files_.erase(uri);
}

std::map<std::string, std::vector<WorkspaceSymbol>> WorkspaceIndex::snapshot() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return files_;
}

}  // namespace relax::lsp
