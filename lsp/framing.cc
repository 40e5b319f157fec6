#include "lsp/framing.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace relax::lsp {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// The end of the header block in `header` (just after its empty line), or npos. Lines end with
// "\r\n" as the protocol says; a bare "\n" is accepted too.
size_t header_end(std::string_view header, size_t from) {
  for (size_t i = from; i < header.size(); ++i) {
    if (header[i] != '\n') continue;
    if (i >= 1 && header[i - 1] == '\n') return i + 1;
    if (i >= 2 && header[i - 1] == '\r' && header[i - 2] == '\n') return i + 1;
  }
  return std::string_view::npos;
}

// Where "Content-Length:" starts in `line` (any case), or npos.
size_t find_content_length(std::string_view line) {
  constexpr std::string_view kName = "content-length:";
  for (size_t i = 0; i + kName.size() <= line.size(); ++i)
    if (iequals(line.substr(i, kName.size()), kName)) return i;
  return std::string_view::npos;
}

}  // namespace

bool MessageReader::parse_header(std::string& error) {
  std::string_view rest = header_;
  bool found = false;
  while (!rest.empty()) {
    size_t nl = rest.find('\n');
    std::string_view line = trim(rest.substr(0, nl));
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    if (line.empty()) continue;
    // Bytes left over from a broken message may run into the next header: the header starts
    // where its name does, and the bytes before it are reported.
    if (size_t at = find_content_length(line); at != std::string_view::npos && at > 0) {
      garbage_ = true;
      line = line.substr(at);
    }
    size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      error = "malformed header line (no ':')";
      return false;
    }
    if (!iequals(trim(line.substr(0, colon)), "Content-Length")) continue;  // Content-Type, ...
    std::string_view value = trim(line.substr(colon + 1));
    size_t n = 0;
    auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), n);
    if (ec == std::errc::result_out_of_range) {
      n = SIZE_MAX;
    } else if (ec != std::errc() || end != value.data() + value.size()) {
      error = "Content-Length is not a number";
      return false;
    }
    length_ = n;
    found = true;
  }
  if (!found) error = "no Content-Length header";
  return found;
}

void MessageReader::feed(std::string_view bytes, std::vector<Frame>& out) {
  while (!bytes.empty()) {
    switch (state_) {
      case State::kHeader:
      case State::kSkipHeader: {
        // Search only the new bytes (and the three before them, for a split "\r\n\r\n").
        size_t from = header_.size() >= 3 ? header_.size() - 3 : 0;
        size_t take = std::min(bytes.size(),
                               kMaxMessageBytes + 4 - std::min(header_.size(), kMaxMessageBytes));
        header_.append(bytes.substr(0, take));
        size_t end = header_end(header_, from);
        if (end == std::string::npos) {
          bytes.remove_prefix(take);
          if (header_.size() > kMaxMessageBytes) {
            if (state_ == State::kHeader)
              out.push_back({"", "header over " + std::to_string(kMaxMessageBytes >> 20) + " MiB"});
            // Skip to the next empty line, holding only its last bytes.
            state_ = State::kSkipHeader;
            header_.erase(0, header_.size() - 3);
          }
          break;
        }
        // Bytes after the header block belong to the body.
        size_t used = take - (header_.size() - end);
        bytes.remove_prefix(used);
        header_.resize(end);
        if (state_ == State::kSkipHeader) {
          // The end of a refused header: what follows is framed afresh.
          header_.clear();
          state_ = State::kHeader;
          break;
        }
        // Blank lines between messages are no header at all.
        if (trim(header_).find_first_not_of("\r\n") == std::string_view::npos) {
          header_.clear();
          break;
        }
        std::string error;
        garbage_ = false;
        bool ok = parse_header(error);
        header_.clear();
        if (ok && garbage_) out.push_back({"", "bytes that are not a message before a header"});
        if (!ok) {
          out.push_back({"", error});
          break;
        }
        if (length_ > kMaxMessageBytes) {
          out.push_back({"", "message body of " + std::to_string(length_) + " bytes is over " +
                                 std::to_string(kMaxMessageBytes >> 20) + " MiB"});
          state_ = State::kSkipBody;
          break;
        }
        body_.clear();
        body_.reserve(length_);
        state_ = State::kBody;
        if (length_ == 0) {
          out.push_back({"", ""});
          state_ = State::kHeader;
        }
        break;
      }
      case State::kBody: {
        size_t take = std::min(bytes.size(), length_ - body_.size());
        body_.append(bytes.substr(0, take));
        bytes.remove_prefix(take);
        if (body_.size() == length_) {
          out.push_back({std::move(body_), ""});
          body_.clear();
          state_ = State::kHeader;
        }
        break;
      }
      case State::kSkipBody: {
        size_t take = std::min(bytes.size(), length_);
        length_ -= take;
        bytes.remove_prefix(take);
        if (length_ == 0) state_ = State::kHeader;
        break;
      }
    }
  }
}

std::string frame(std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out.append(body);
  return out;
}

}  // namespace relax::lsp
