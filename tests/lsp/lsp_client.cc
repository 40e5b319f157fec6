#include "lsp_client.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#ifndef RELAX_BINARY
#error "RELAX_BINARY must name the relax executable"
#endif

namespace relax::test {

namespace {

using Clock = std::chrono::steady_clock;

int remaining(Clock::time_point deadline) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return ms < 0 ? 0 : static_cast<int>(ms);
}

}  // namespace

std::string test_uri(const std::string& name) {
  return "file:///relax-test/" + name;
}

LspClient::LspClient(std::vector<std::string> extra_args) {
  char log_template[] = "/tmp/relax_lsp_log_XXXXXX";
  int log_fd = mkstemp(log_template);
  if (log_fd < 0) throw std::runtime_error("mkstemp failed");
  log_path_ = log_template;
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> args = {RELAX_BINARY, "lsp"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  pid_ = fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    dup2(in[0], 0);
    dup2(out[1], 1);
    dup2(log_fd, 2);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    close(log_fd);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  close(log_fd);
  to_server_ = in[1];
  from_server_ = out[0];
  signal(SIGPIPE, SIG_IGN);
}

LspClient::~LspClient() {
  if (to_server_ >= 0) close(to_server_);
  if (pid_ > 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  if (from_server_ >= 0) close(from_server_);
  std::remove(log_path_.c_str());
}

std::string LspClient::log() const {
  std::ifstream in(log_path_);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void LspClient::send_raw(const std::string& bytes) {
  // Writes only what the pipe takes without blocking (at most PIPE_BUF once it is writable),
  // reading the server's output meanwhile: a server blocked writing to us while we block writing
  // to it would hang both.
  size_t done = 0;
  int idle_ms = 0;
  while (done < bytes.size()) {
    pollfd fds[2] = {{to_server_, POLLOUT, 0}, {from_server_, POLLIN, 0}};
    int rc = poll(fds, eof_ ? 1 : 2, 100);
    if (rc < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("poll failed while writing to the server");
    }
    if (rc == 0) {
      if ((idle_ms += 100) > 60000) throw std::runtime_error("the server stopped reading");
      continue;
    }
    idle_ms = 0;
    if (!eof_ && (fds[1].revents & (POLLIN | POLLHUP))) pump(0);
    if (fds[0].revents & (POLLERR | POLLHUP))
      throw std::runtime_error("the server's input is closed");
    if (!(fds[0].revents & POLLOUT)) continue;
    size_t chunk = std::min<size_t>(bytes.size() - done, PIPE_BUF);
    ssize_t n = write(to_server_, bytes.data() + done, chunk);
    if (n <= 0) {
      if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      throw std::runtime_error("the server's input is closed");
    }
    done += static_cast<size_t>(n);
  }
}

void LspClient::send(const json& message) {
  send_raw(lsp::frame(message.dump()));
}

void LspClient::notify(const std::string& method, json params) {
  send({{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

int64_t LspClient::send_request(const std::string& method, json params) {
  int64_t id = next_id_++;
  send({{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}});
  return id;
}

json LspClient::response(int64_t id, int timeout_ms) {
  auto r = wait_for(
      [&](const json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); },
      timeout_ms);
  if (!r)
    throw std::runtime_error("no response to request " + std::to_string(id) + "; log:\n" + log());
  return *r;
}

json LspClient::request(const std::string& method, json params, int timeout_ms) {
  return response(send_request(method, std::move(params)), timeout_ms);
}

json LspClient::initialize(json capabilities) {
  json r = request("initialize",
                   {{"processId", nullptr}, {"rootUri", nullptr}, {"capabilities", capabilities}});
  notify("initialized", json::object());
  return r;
}

json LspClient::initialize_with(json params) {
  if (!params.contains("processId")) params["processId"] = nullptr;
  if (!params.contains("capabilities")) params["capabilities"] = json::object();
  json r = request("initialize", params);
  notify("initialized", json::object());
  return r;
}

void LspClient::open(const std::string& uri, const std::string& text, int64_t version) {
  notify("textDocument/didOpen",
         {{"textDocument",
           {{"uri", uri}, {"languageId", "relax"}, {"version", version}, {"text", text}}}});
}

bool LspClient::pump(int timeout_ms) {
  if (eof_) return false;
  pollfd p{from_server_, POLLIN, 0};
  int rc = poll(&p, 1, timeout_ms);
  if (rc <= 0) return true;
  char buf[65536];
  ssize_t n = read(from_server_, buf, sizeof buf);
  if (n <= 0) {
    eof_ = true;
    return false;
  }
  std::vector<lsp::Frame> frames;
  reader_.feed(std::string_view(buf, static_cast<size_t>(n)), frames);
  for (auto& f : frames) {
    if (!f.error.empty())
      throw std::runtime_error("the server sent an unframed message: " + f.error);
    json m = json::parse(f.body, nullptr, false);
    if (m.is_discarded()) throw std::runtime_error("the server sent invalid JSON: " + f.body);
    inbox_.push_back(std::move(m));
  }
  return true;
}

std::optional<json> LspClient::wait_for(const std::function<bool(const json&)>& match,
                                        int timeout_ms) {
  auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  size_t checked = 0;
  for (;;) {
    for (; checked < inbox_.size(); ++checked) {
      if (match(inbox_[checked])) {
        json m = std::move(inbox_[checked]);
        inbox_.erase(inbox_.begin() + static_cast<std::ptrdiff_t>(checked));
        return m;
      }
    }
    int left = remaining(deadline);
    if (left == 0 || !pump(left)) {
      for (; checked < inbox_.size(); ++checked)
        if (match(inbox_[checked])) {
          json m = std::move(inbox_[checked]);
          inbox_.erase(inbox_.begin() + static_cast<std::ptrdiff_t>(checked));
          return m;
        }
      return std::nullopt;
    }
  }
}

json LspClient::diagnostics(const std::string& uri, int64_t version, int timeout_ms) {
  auto m = wait_for(
      [&](const json& m) {
        return m.value("method", "") == "textDocument/publishDiagnostics" &&
               m["params"]["uri"] == uri && m["params"].value("version", int64_t{-1}) == version;
      },
      timeout_ms);
  if (!m)
    throw std::runtime_error("no diagnostics for " + uri + " version " + std::to_string(version) +
                             "; log:\n" + log());
  return (*m)["params"]["diagnostics"];
}

std::vector<json> LspClient::take_all(int settle_ms) {
  while (pump(settle_ms) && !eof_) {
    size_t before = inbox_.size();
    pump(0);
    if (inbox_.size() == before) break;
  }
  std::vector<json> out;
  out.swap(inbox_);
  return out;
}

int LspClient::finish(int timeout_ms) {
  if (to_server_ >= 0) {
    close(to_server_);
    to_server_ = -1;
  }
  auto deadline = Clock::now() + std::chrono::milliseconds(timeout_ms);
  while (pump(std::min(remaining(deadline), 100)) && remaining(deadline) > 0) {
    int status;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
  }
  int status;
  while (remaining(deadline) > 0) {
    if (waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    usleep(10000);
  }
  kill(pid_, SIGKILL);
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return -1;
}

}  // namespace relax::test
